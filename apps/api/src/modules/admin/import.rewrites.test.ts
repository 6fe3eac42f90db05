import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { exampleDocument } from '../../test/seed';
import { importDocument } from './import.service';
import { generatedDocument } from './import.test-support';

// The tests edit the document freely, as a back office would.
type AnyObj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The physical version of every row of every table: `xmin` (the transaction that wrote it), `ctid`
 * (where it lies) and `xmax` (the last transaction that locked it). An insert adds one, an update
 * replaces one, a delete removes one, a row lock (`insert … on conflict do update` takes one on every
 * row it meets, changed or not) moves `xmax`; a row nobody wrote or locked keeps all three.
 */
async function rowVersions(t: TestApp): Promise<Map<string, Set<string>>> {
  return t.ctx.database.withConnection(async (sql) => {
    const tables = (
      await sql.query<{ table_name: string }>(
        `select table_name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'`,
      )
    ).rows.map((r) => r.table_name);
    const out = new Map<string, Set<string>>();
    for (const tbl of tables) {
      const rows = (
        await sql.query<{ v: string }>(
          `select xmin::text || ' ' || ctid::text || ' ' || xmax::text as v from "${tbl}"`,
        )
      ).rows;
      out.set(tbl, new Set(rows.map((r) => r.v)));
    }
    return out;
  });
}

/** Rows written (inserted, updated or deleted) between two snapshots, counted per table. */
function written(before: Map<string, Set<string>>, after: Map<string, Set<string>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [tbl, rows] of after) {
    const old = before.get(tbl) ?? new Set<string>();
    const n = [...rows].filter((r) => !old.has(r)).length + [...old].filter((r) => !rows.has(r)).length;
    if (n > 0) out[tbl] = n;
  }
  return out;
}

/** The last value of every sequence: an identity value drawn for a row not inserted moves one. */
async function sequences(t: TestApp): Promise<Record<string, string | null>> {
  const rows = await t.ctx.database.withConnection((sql) =>
    sql.query<{ name: string; value: string | null }>(
      `select sequencename as name, last_value::text as value from pg_sequences where schemaname = current_schema()`,
    ),
  );
  return Object.fromEntries(rows.rows.map((r) => [r.name, r.value]));
}

async function listVersions(t: TestApp): Promise<Record<string, number>> {
  const rows = await t.ctx.database.withConnection((sql) =>
    sql.query<{ company: string; version: string }>(
      `select c.company_name as company, v.version::text as version
         from company_list_versions v join companies c on c.id = v.company_id`,
    ),
  );
  return Object.fromEntries(rows.rows.map((r) => [r.company, Number(r.version)]));
}

/** The example portal and a generated one with every kind of row, users invited and with passwords. */
function documents(): AnyObj[] {
  const big = generatedDocument(40, 'big') as AnyObj;
  big.users = [
    {
      userName: 'invitata',
      email: 'invitata@example.com',
      invite: true,
      contacts: [{ webPortalKey: 'big', contactId: 100 }],
    },
  ];
  return [exampleDocument() as AnyObj, big];
}

describe('a re-import writes only the rows that differ', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    for (const doc of documents()) await importDocument(t.ctx, doc);
  });
  afterAll(() => t?.close());

  it('writes nor locks any row when nothing changed, and moves no list counter nor sequence', async () => {
    const before = await rowVersions(t);
    const versions = await listVersions(t);
    const drawn = await sequences(t);
    expect(Object.keys(drawn)).toEqual(expect.arrayContaining(['tickets_id_seq', 'ticket_comments_id_seq']));
    t.clock.advance(3_600_000);
    for (const doc of documents()) await importDocument(t.ctx, doc);
    expect(written(before, await rowVersions(t))).toEqual({});
    expect(await listVersions(t)).toEqual(versions);
    expect(await sequences(t)).toEqual(drawn);
  });

  it('writes only the changed ticket, and moves only its company counter', async () => {
    const before = await rowVersions(t);
    const versions = await listVersions(t);
    const [example, big] = documents() as [AnyObj, AnyObj];
    const acme = example.portals[0].companies[0];
    acme.tickets[0].title = `${acme.tickets[0].title} (aggiornato)`;
    await importDocument(t.ctx, example);
    await importDocument(t.ctx, big);
    // The ticket's new version, and its company's counter.
    expect(written(before, await rowVersions(t))).toEqual({ tickets: 2, company_list_versions: 2 });
    const after = await listVersions(t);
    const moved = Object.keys(after).filter((c) => after[c] !== versions[c]);
    expect(moved).toEqual([acme.companyName]);
    expect(after[acme.companyName]).toBe((versions[acme.companyName] ?? 0) + 1);
  });

  it('deletes only the child rows the document no longer lists', async () => {
    const [example] = documents() as [AnyObj];
    const ticket = example.portals[0].companies[0].tickets[0];
    expect(ticket.comments.length).toBeGreaterThan(1);
    ticket.title = `${ticket.title} (aggiornato)`; // as the previous test left it
    await importDocument(t.ctx, example);
    const before = await rowVersions(t);
    const dropped = ticket.comments.pop();
    await importDocument(t.ctx, example);
    const changes = written(before, await rowVersions(t));
    expect(changes.ticket_comments).toBe(1);
    expect(changes.ticket_attachments ?? 0).toBe(dropped.attachments?.length ?? 0);
    // The ticket keeps the words of its public conversation (migration 0030): the removed comment's
    // words leave with it, which writes the ticket once and so moves its company's list counter (each
    // update counts twice here: the old row version gone, the new one come).
    expect(changes.tickets).toBe(2);
    expect(changes.company_list_versions).toBe(2);
    expect(Object.keys(changes).sort()).toEqual(
      [
        'company_list_versions',
        'ticket_comments',
        'tickets',
        ...(dropped.attachments?.length ? ['ticket_attachments'] : []),
      ].sort(),
    );
  });
});
