import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskPage } from '@sportello/contracts';
import { createTestApp, type TestApp } from '../../test/harness';
import { exampleDocument, seedExample } from '../../test/seed';

const URL = '/api/tasks/acme/acme-task-3c4d5e6f7a8b9c0d';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const doc = exampleDocument() as {
    portals: { companies: { tickets: { id: number; comments: Record<string, unknown>[] }[] }[] }[];
  };
  // A comment with markup that must not survive on a public page.
  const ticket = doc.portals[0]!.companies.flatMap((c) => c.tickets).find((x) => x.id === 5001)!;
  ticket.comments.push({
    id: 999,
    message: '<p onclick="alert(1)">Visto<script>alert(2)</script></p>',
    creationDate: '2026-10-15T08:00:00.000Z',
    senderAgentId: 1,
    attachments: [],
  });
  await seedExample(t, doc);
});

afterAll(async () => {
  await t?.close();
});

describe('task page', () => {
  it('answers the read-only summary of the ticket without a token', async () => {
    const res = await t.app.inject({ url: URL });
    expect(res.statusCode).toBe(200);
    const page = res.json<TaskPage>();
    expect(page).toMatchObject({
      portalName: expect.any(String),
      timeZone: 'Europe/Rome',
      ticketNumber: '2026/0012',
      internalAnnualProgressive: 12,
      title: 'ACME Stampante non funziona',
      type: { name: 'ACME Guasto', color: '#d32f2f' },
      status: { name: 'Nuovo', isClosed: false },
      assignee: 'Luca Bianchi',
      group: 'ACME Helpdesk',
      nextPlannedActivityInfo: 'Intervento previsto',
      createdOn: '2026-10-12T00:00:00.000Z',
    });
    expect(page.comments.map((c) => [c.author, c.authorKind, c.date])).toEqual([
      ['ACME Agent Luca', 'agent', '2026-10-13T00:00:00.000Z'],
      ['ACME Mario Rossi', 'contact', '2026-10-14T00:00:00.000Z'],
      ['ACME Agent Luca', 'agent', '2026-10-15T08:00:00.000Z'],
    ]);
    expect(page.comments[0]!.message).toBe('<p>Abbiamo preso in carico.</p>');
    expect(page.comments[2]!.message).toBe('<p>Visto</p>');
  });

  it('leaks no ids, e-mail addresses, phone numbers or file links', async () => {
    const body = (await t.app.inject({ url: URL })).body;
    expect(body).not.toMatch(
      /"id"|[A-Za-z0-9._-]+@[A-Za-z0-9-]+\.|\/api\/files|schermata|verbale|"phone"|"email"/i,
    );
    expect(body).not.toContain('5001');
    expect(Object.keys(JSON.parse(body) as object).sort()).toEqual(
      [
        'assignee',
        'comments',
        'createdOn',
        'group',
        'internalAnnualProgressive',
        'nextPlannedActivityInfo',
        'portalName',
        'status',
        'ticketNumber',
        'timeZone',
        'title',
        'type',
      ].sort(),
    );
  });

  it('answers 404 task_not_found for an unknown key, another portal or a ticket id', async () => {
    for (const url of [
      '/api/tasks/acme/nope',
      '/api/tasks/other/acme-task-3c4d5e6f7a8b9c0d',
      '/api/tasks/acme/5001',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('task_not_found');
    }
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/docs' })).json<{ paths: Record<string, object> }>();
    expect(doc.paths).toHaveProperty(['/api/tasks/{company}/{eventkey}']);
  });
});
