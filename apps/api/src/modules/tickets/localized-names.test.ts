/**
 * Issue 29, D20b: the import names ticket types and status steps per language (it-IT, en-EN, es-ES) or
 * with one name as before; the customer's answers carry both, and the desk's rename keeps one name.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { bearer, exampleDocument, seedExample, tokenFor } from '../../test/seed';
import { importDocument } from '../admin/import.service';
import { staffMember } from '../staff/staff.fixture';

let t: TestApp;
let token: string;

/** The example document with acme's first type and closing step named per language. */
function withNames(): Record<string, unknown> {
  const doc = exampleDocument() as { portals: Record<string, unknown>[] };
  const acme = doc.portals[0]! as {
    ticketTypes: { id: number; name: unknown }[];
    statusSteps: { id: number; name: unknown }[];
  };
  acme.ticketTypes[0]!.name = { 'it-IT': 'Guasto', 'en-EN': 'Fault', 'es-ES': 'Avería' };
  acme.statusSteps.find((s) => s.id === 1)!.name = { 'en-EN': 'New', 'it-IT': 'Nuovo' };
  return doc;
}

beforeAll(async () => {
  t = await createTestApp();
  await seedExample(t, withNames());
  token = await tokenFor(t, 'mario.rossi');
});
afterAll(() => t?.close());

describe('names per language', () => {
  it('keeps the Italian name as the one name and the others beside it; one text stays valid', async () => {
    const rows = (
      (await t.ctx.database.db.execute(
        sql`select tt.ext_id, tt.name, tt.names from ticket_types tt join portals p on p.id = tt.portal_id
          where p.key = 'acme' order by tt.ext_id`,
      )) as unknown as { rows: { ext_id: number; name: string; names: unknown }[] }
    ).rows;
    const names = (n: unknown) => (typeof n === 'string' ? JSON.parse(n) : n);
    expect(rows.map((r) => [Number(r.ext_id), r.name, names(r.names)])).toEqual([
      [1, 'Guasto', { 'it-IT': 'Guasto', 'en-EN': 'Fault', 'es-ES': 'Avería' }],
      [2, 'ACME Richiesta', null],
    ]);
  });

  it('answers the names per language to the customer: ticket lists, types', async () => {
    const list = await t.app.inject({ url: '/api/acme/101/tickets', headers: bearer(token) });
    expect(list.statusCode, list.body).toBe(200);
    const items = list.json() as {
      taskType: { id: number; name: string; names?: unknown };
      taskStatus: { step: { id: number; names?: unknown } };
    }[];
    const fault = items.find((i) => i.taskType.id === 1)!;
    expect(fault.taskType).toMatchObject({ name: 'Guasto', names: { 'en-EN': 'Fault', 'es-ES': 'Avería' } });
    const fresh = items.find((i) => i.taskStatus.step.id === 1);
    if (fresh) expect(fresh.taskStatus.step.names).toEqual({ 'en-EN': 'New', 'it-IT': 'Nuovo' });
    const types = await t.app.inject({ url: '/api/settings/acme/tickets/types', headers: bearer(token) });
    expect(types.statusCode, types.body).toBe(200);
    expect((types.json() as { id: number; names?: unknown }[]).find((x) => x.id === 1)?.names).toMatchObject({
      'es-ES': 'Avería',
    });
  });

  it('refuses a per-language name with no language in it, or one of another language', async () => {
    for (const name of [{}, { 'fr-FR': 'Panne' }]) {
      const doc = withNames() as { portals: { ticketTypes: { name: unknown }[] }[] };
      doc.portals[0]!.ticketTypes[0]!.name = name;
      await expect(importDocument(t.ctx, doc)).rejects.toMatchObject({ statusCode: 400 });
    }
  });

  it('a rename in the desk is the one name from then on', async () => {
    const admin = await staffMember(t, 'acme', 'setup@acme.example', 'admin');
    const r = await t.app.inject({
      method: 'PATCH',
      url: '/api/staff/portals/acme/admin/ticket-setup/types/1',
      headers: admin,
      payload: { name: 'Guasto tecnico' },
    });
    expect(r.statusCode, r.body).toBe(200);
    const list = await t.app.inject({ url: '/api/acme/101/tickets', headers: bearer(token) });
    const fault = (list.json() as { taskType: { id: number; name: string; names?: unknown } }[]).find(
      (i) => i.taskType.id === 1,
    )!;
    expect(fault.taskType.name).toBe('Guasto tecnico');
    expect(fault.taskType.names ?? null).toBeNull();
  });
});
