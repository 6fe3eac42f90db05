/**
 * The ticket lists are served from a per-process cache while the company's list counter stands still
 * (migration 0001's triggers move it). These tests change the data every way the portal or the back
 * office can — through the API, through the importer, and by plain SQL that no application code sees —
 * and check that the next list shows the change, and that a list never reaches another contact.
 */
import { sql } from 'drizzle-orm';
import type { TicketListItem } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importDocument } from '../admin/import.service';
import { createTestApp, type TestApp } from '../../test/harness';
import { personaDocument, seedPersonas, type Persona, type PersonaAccess } from '../../test/personas';

let t: TestApp;
let p: Record<Persona, PersonaAccess>;

beforeAll(async () => {
  t = await createTestApp();
  p = await seedPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

/** A list request: its status, body and the SQL statements it sent. */
async function list(who: Persona, path = '/tickets', company = 'acme') {
  const before = t.ctx.database.stats.statements;
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/${company}/${p[who].contactId}${path}`,
    headers: p[who].headers,
  });
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    body: res.body,
    items: res.statusCode === 200 ? (res.json() as TicketListItem[]) : [],
    statements: t.ctx.database.stats.statements - before,
  };
}
const exec = (q: ReturnType<typeof sql>) => t.ctx.database.db.execute(q);
const titles = (items: TicketListItem[]) => items.map((i) => i.title);

describe('ticket list cache', () => {
  it('answers a repeated list with one statement and the same bytes', async () => {
    const first = await list('admin', '/tickets/all');
    const again = await list('admin', '/tickets/all');
    expect(first.status).toBe(200);
    expect(first.statements).toBe(2); // session + tenant + counter, then the list
    expect(again.statements).toBe(1);
    expect(again.body).toBe(first.body);
    expect(again.type).toBe('application/json; charset=utf-8');
    expect(titles(first.items)).toContain('ACME Richiesta di Anna');
  });

  it('never hands one contact’s list to another', async () => {
    const owner = await list('owner');
    const colleague = await list('colleague');
    const admin = await list('admin');
    const beta = await list('otherPortal', '/tickets', 'beta');
    expect(titles(owner.items)).toEqual(['ACME Richiesta di Anna']);
    expect(colleague.items).toEqual([]);
    expect(titles(admin.items)).not.toContain('ACME Richiesta di Anna');
    expect(titles(beta.items)).toEqual(['BETA Richiesta di Anna']);
    // And the refusals stay refusals with a warm cache.
    expect((await list('noFlag')).status).toBe(403);
    expect((await list('otherPortal')).status).toBe(403);
    expect((await list('owner', '/tickets/all')).status).toBe(403);
  });

  it('shows a ticket created through the API at once', async () => {
    await list('owner');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/acme/${p.owner.contactId}/tickets`,
      headers: p.owner.headers,
      payload: { title: 'Nuovo dal portale', taskTypeId: 1, description: 'x' },
    });
    expect(res.statusCode).toBe(201);
    const after = await list('owner');
    expect(after.statements).toBe(2);
    expect(titles(after.items)[0]).toBe('Nuovo dal portale');
    expect(titles((await list('admin', '/tickets/all')).items)).toContain('Nuovo dal portale');
  });

  it('follows writes that bypass the application (plain SQL)', async () => {
    const acme = sql`(select id from portals where key = 'acme')`;
    const changes: [string, ReturnType<typeof sql>, (items: TicketListItem[]) => unknown, unknown][] = [
      [
        'a ticket title',
        sql`update tickets set title = 'Titolo cambiato' where ext_id = 5003 and portal_id = ${acme}`,
        (items) => items.find((i) => i.id === 5003)?.title,
        'Titolo cambiato',
      ],
      [
        'a status step (portal-wide row)',
        sql`update status_steps set name = 'Preso in carico' where id = (select status_step_id from tickets where ext_id = 5003 and portal_id = ${acme})`,
        (items) => items.find((i) => i.id === 5003)?.taskStatus.step.name,
        'Preso in carico',
      ],
      [
        'a ticket type (portal-wide row)',
        sql`update ticket_types set color = '#000000' where portal_id = ${acme}`,
        (items) => items.find((i) => i.id === 5003)?.taskType.color,
        '#000000',
      ],
      [
        'the creator contact’s name',
        sql`update contacts set referent_name = 'Anna V.' where ext_id = 102 and portal_id = ${acme}`,
        (items) => items.find((i) => i.id === 5003)?.creatorContactWebUser?.referentName,
        'Anna V.',
      ],
      [
        'the company name',
        sql`update companies set company_name = 'ACME S.p.A.' where ext_id = 10 and portal_id = ${acme}`,
        (items) => items.find((i) => i.id === 5003)?.creatorContactWebUser?.companyName,
        'ACME S.p.A.',
      ],
      [
        'a report removed',
        sql`delete from activity_reports where ext_id = 1 and portal_id = ${acme}`,
        (items) => items.find((i) => i.id === 5001)?.activityReport,
        null,
      ],
      [
        'a ticket removed',
        sql`delete from tickets where ext_id = 5002 and portal_id = ${acme}`,
        (items) => items.some((i) => i.id === 5002),
        false,
      ],
    ];
    for (const [what, change, read, expected] of changes) {
      const before = await list('admin', '/tickets/all');
      expect(read(before.items), what).not.toEqual(expected);
      expect((await list('admin', '/tickets/all')).statements, what).toBe(1);
      await exec(change);
      const after = await list('admin', '/tickets/all');
      expect(read(after.items), what).toEqual(expected);
    }
  });

  it('follows a re-import from the back office', async () => {
    await list('owner');
    const doc = personaDocument() as { portals: { ticketTypes: { name: string }[] }[] };
    doc.portals[0]!.ticketTypes[0]!.name = 'ACME Guasto urgente';
    await importDocument(t.ctx, doc);
    const after = await list('owner');
    expect(after.statements).toBe(2);
    expect(after.items.map((i) => i.taskType.name)).toContain('ACME Guasto urgente');
  });

  it('is read afresh after ten minutes (answers carry signed links)', async () => {
    await list('admin', '/tickets/all');
    expect((await list('admin', '/tickets/all')).statements).toBe(1);
    t.clock.advance(10 * 60_000);
    expect((await list('admin', '/tickets/all')).statements).toBe(2);
  });

  it('keeps a list per filter and never caches the colleague filter', async () => {
    const all = await list('admin', '/tickets/all');
    const since = await list('admin', '/tickets/all?from=2026-11-01');
    expect(since.statements).toBe(2);
    expect(since.items.length).toBeLessThanOrEqual(all.items.length);
    expect((await list('admin', '/tickets/all?from=2026-11-01')).statements).toBe(1);
    const users = await t.ctx.database.db.execute<{ id: number }>(sql`select id from users limit 1`);
    const id = (users as unknown as { rows: { id: number }[] }).rows[0]!.id;
    expect((await list('admin', `/tickets/all?webUserIds=${id}`)).statements).toBe(2);
    expect((await list('admin', `/tickets/all?webUserIds=${id}`)).statements).toBe(2);
  });
});
