/**
 * The people lists' query plans on a portal of 40,000 contacts in 8,000 companies (PGlite; the same
 * indexes serve PostgreSQL). A page must be read from the name index in order and stop after the
 * page (no Sort of the portal's rows, no sequential scan); a search reads the trigram indexes.
 *
 *   companies:        Limit -> Index Scan using companies_admin_name_idx (portal_id = $1)
 *   next page:        the same, the keyset (lower(name), ext_id) > ($n, $m) as an index condition
 *   company contacts: Limit -> Index Scan using contacts_company_name_idx (company_id = $1)
 *   portal contacts:  Limit -> Index Scan using contacts_portal_name_idx (portal_id = $1)
 *   search:           the *_trgm_idx indexes serve `ilike '%…%'` (taken once the table is large)
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portals } from '../../../db/schema';
import { createTestApp, type TestApp } from '../../../test/harness';
import { seedExample } from '../../../test/seed';
import { companiesSql, contactsSql } from './people.queries';

let t: TestApp;
let portalId = 0;
let companyRow = 0;
const dialect = new PgDialect();

beforeAll(async () => {
  t = await createTestApp();
  await seedExample(t);
  const db = t.ctx.database.db;
  const [p] = await db.select({ id: portals.id }).from(portals).where(eq(portals.key, 'acme'));
  portalId = p!.id;
  await db.execute(sql`
    insert into companies (portal_id, ext_id, company_name)
    select ${portalId}, 500000 + g, 'Azienda ' || md5(g::text) from generate_series(1, 8000) g`);
  await db.execute(sql`
    insert into contacts (portal_id, company_id, ext_id, referent_name, email)
    select ${portalId}, c.id, 600000 + g, 'Referente ' || md5((g * 7)::text), 'r' || g || '@example.com'
    from generate_series(1, 40000) g
    join companies c on c.portal_id = ${portalId} and c.ext_id = 500000 + (g % 8000) + 1`);
  companyRow = Number(
    (
      (await db.execute(
        sql`select id from companies where portal_id = ${portalId} and ext_id = 500001`,
      )) as unknown as { rows: { id: number }[] }
    ).rows[0]!.id,
  );
  await db.execute(sql`analyze`);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** EXPLAIN of a statement; `noSeqScan`: whether an index CAN serve it (a small table reads faster whole). */
async function plan(q: SQL, noSeqScan = false): Promise<string> {
  const s = dialect.sqlToQuery(q);
  return t.ctx.database.withConnection(async (raw) => {
    if (noSeqScan) await raw.query('set enable_seqscan = off');
    try {
      const r = await raw.query<{ 'QUERY PLAN': string }>(`explain ${s.sql}`, s.params);
      return r.rows.map((x) => x['QUERY PLAN']).join('\n');
    } finally {
      if (noSeqScan) await raw.query('reset enable_seqscan');
    }
  });
}

/** Sorts of more than a page of rows (a sort of the hits of a search is fine). */
const bigSorts = (p: string) =>
  [...p.matchAll(/Sort {2}\(cost=[\d.]+ rows=(\d+)/g)].map((m) => Number(m[1])).filter((n) => n > 1000);

describe('people list plans', () => {
  const next = { take: 51, after: { name: 'm', extId: 500100 } };
  const cases: [string, () => SQL, string][] = [
    ['companies', () => companiesSql(portalId, { take: 51 }), 'companies_admin_name_idx'],
    ['companies, next page', () => companiesSql(portalId, next), 'companies_admin_name_idx'],
    ['portal contacts', () => contactsSql(portalId, null, { take: 51 }), 'contacts_portal_name_idx'],
    ['portal contacts, next page', () => contactsSql(portalId, null, next), 'contacts_portal_name_idx'],
  ];
  for (const [name, q, index] of cases) {
    it(`${name} reads ${index} in order and stops after the page`, async () => {
      const p = await plan(q());
      expect(p, p).toMatch(new RegExp(`Index (Only )?Scan using ${index}`));
      expect(p, p).not.toMatch(/Seq Scan on (companies|contacts) (c|k)\b/);
      expect(bigSorts(p), p).toEqual([]);
    });
  }

  it("a company's contacts are read by the company's index, only its rows sorted", async () => {
    const p = await plan(contactsSql(portalId, companyRow, { take: 51 }));
    expect(p, p).toMatch(/(Index (Only )?Scan using|Bitmap Index Scan on) contacts_company_(name_)?idx/);
    expect(p, p).not.toMatch(/Seq Scan on contacts k\b/);
    expect(bigSorts(p), p).toEqual([]);
  });

  // On 40,000 rows the planner may still prefer the portal's index with a filter (a GIN read is priced
  // high on a small table); on a million it takes the trigram index. What must hold: the search's
  // predicates can be served by their trigram indexes.
  it('a search can be served by the trigram indexes', async () => {
    const used = await t.ctx.database.withConnection(async (raw) => {
      await raw.query('set enable_seqscan = off');
      try {
        const out: string[] = [];
        for (const [table, column] of [
          ['companies', 'company_name'],
          ['contacts', 'referent_name'],
          ['contacts', 'email'],
        ] as const) {
          const r = await raw.query<{ 'QUERY PLAN': string }>(
            `explain select id from ${table} where ${column} ilike $1`,
            ['%abcdef%'],
          );
          out.push(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
        }
        return out.join('\n');
      } finally {
        await raw.query('reset enable_seqscan');
      }
    });
    for (const index of ['companies_name_trgm_idx', 'contacts_name_trgm_idx', 'contacts_email_trgm_idx'])
      expect(used, used).toContain(`Bitmap Index Scan on ${index}`);
  });
});
