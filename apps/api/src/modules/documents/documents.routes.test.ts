import { sql } from 'drizzle-orm';
import type { ContactDocument, PublicFile } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, type TestApp } from '../../test/harness';
import { multipartFile } from '../../test/personas';
import { bearer, seedExample, tokenFor } from '../../test/seed';
import { cleanFileName } from '../../platform/uploads';

let t: TestApp;
let mario: Record<string, string>;
let anna: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await seedExample(t);
  mario = bearer(await tokenFor(t, 'mario.rossi'));
  anna = bearer(await tokenFor(t, 'anna.verdi'));
});
afterAll(async () => {
  await t?.close();
});

const documents = async (h = mario, contact = 101) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/acme/${contact}/documents`, headers: h });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ContactDocument[];
};

describe('contact documents', () => {
  it('lists the contact’s own documents, newest first', async () => {
    const list = await documents();
    expect(list.map((d) => [d.id, d.documentName, d.createDate, d.contentType])).toEqual([
      [2, 'ACME foto-impianto.png', '2026-09-17T00:00:00.000Z', 'image/png'],
      [1, 'ACME carta-identita.pdf', '2026-09-12T00:00:00.000Z', 'application/pdf'],
    ]);
    expect((await t.app.inject({ method: 'GET', url: list[1]!.url })).statusCode).toBe(200);
  });

  it('uploads a document of the contact, in one transaction with its file', async () => {
    const m = multipartFile('preventivo firmato.pdf', '%PDF-1.4 test', 'application/pdf');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/acme/101/documents/upload/contact',
      headers: { ...mario, ...m.headers },
      payload: m.payload,
    });
    expect(res.statusCode).toBe(201);
    const { id, url } = res.json() as { id: number; url: string };
    expect(id).toBeGreaterThan(3);
    const list = await documents();
    expect(list[0]).toMatchObject({
      id,
      documentName: 'preventivo firmato.pdf',
      createDate: t.clock.now().toISOString(),
    });
    expect((await t.app.inject({ method: 'GET', url })).body).toBe('%PDF-1.4 test');
    // The uploaded file is a document, not a free attachment: no ticket may take it.
    const rows = await queryRows<{ attached_at: unknown; uploaded_by_contact_id: number }>(
      t.ctx.database.db,
      sql`select attached_at, uploaded_by_contact_id from files order by id desc limit 1`,
    );
    expect(rows[0]!.uploaded_by_contact_id).not.toBeNull();
    expect(rows[0]!.attached_at).not.toBeNull();
    const fileId = Number(/\/api\/files\/(\d+)\//.exec(url)![1]);
    const reuse = await t.app.inject({
      method: 'POST',
      url: '/api/acme/101/tickets',
      headers: mario,
      payload: { title: 'x', taskTypeId: 1, description: 'x', attachments: [fileId] },
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().code).toBe('attachment_unavailable');
  });

  it('refuses the upload without uploadContactDocuments and keeps nothing', async () => {
    const before = await queryRows<{ n: number }>(
      t.ctx.database.db,
      sql`select count(*)::int as n from files`,
    );
    const m = multipartFile('x.pdf', 'x', 'application/pdf');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/acme/102/documents/upload/contact',
      headers: { ...anna, ...m.headers },
      payload: m.payload,
    });
    expect(res.statusCode).toBe(403);
    const after = await queryRows<{ n: number }>(
      t.ctx.database.db,
      sql`select count(*)::int as n from files`,
    );
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('cleans uploaded names', () => {
    expect(cleanFileName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(cleanFileName('../../x')).toBe('x');
    expect(cleanFileName('')).toBe('file');
    expect(cleanFileName('..')).toBe('file');
    expect(cleanFileName('a\u0000b\nc.txt')).toBe('abc.txt');
  });
});

describe('public files', () => {
  it('lists the portal’s public files for a user of the portal', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/settings/acme/publicfiles', headers: anna });
    expect(res.statusCode).toBe(200);
    const list = res.json() as PublicFile[];
    expect(list.map((f) => [f.id, f.fileName, f.contentType])).toEqual([
      [1, 'ACME-condizioni.pdf', 'application/pdf'],
    ]);
    expect((await t.app.inject({ method: 'GET', url: list[0]!.url })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/settings/acme/publicfiles' })).statusCode).toBe(
      401,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/settings/nope/publicfiles', headers: anna }))
        .statusCode,
    ).toBe(403);
  });
});
