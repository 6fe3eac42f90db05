/**
 * `npx tsx bench/search-plans.ts`: EXPLAIN (ANALYZE, BUFFERS) of the searches `bench/search.ts` and
 * `bench/inbox.ts` measure, against a database the bench has loaded (BENCH_DATABASE_URL, e.g. a cluster
 * kept between runs). The statements are built by the API's own query functions, so the plans are those
 * of the code as it is. Prints one block per search (the fastest of 5 runs), or with --summary one
 * table row of its execution time: where the time goes.
 *
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/search-plans.ts [--q word]… [--summary]
 */
import { searchKinds, SEARCH_GROUP_LIMIT } from '@sportello/contracts';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Query, SQL } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { searchQuery } from '../apps/api/src/modules/search/search.queries';
import { visibleKinds } from '../apps/api/src/modules/search/search.service';
import { inboxPageSql } from '../apps/api/src/modules/staff/inbox.queries';
import { ticketScope } from '../apps/api/src/modules/tickets/core';
import { benchTenant } from './lib/bench-tenant';
import { QUERIES } from './lib/search-cases';

const { values: opt } = parseArgs({
  options: {
    q: {
      type: 'string',
      multiple: true,
      // The texts bench:search measures.
      default: QUERIES.map((c) => c.q),
    },
    summary: { type: 'boolean', default: false },
    // The plan a prepared statement settles on after five runs (the API names its statements).
    generic: { type: 'boolean', default: false },
  },
});
const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('set BENCH_DATABASE_URL to the loaded bench database');
const client = new pg.Client({ connectionString: url });
await client.connect();
if (opt.generic) await client.query('set plan_cache_mode = force_generic_plan');
const dialect = new PgDialect();

const ms = (lines: string[]) =>
  Number(/([\d.]+) ms/.exec(lines.find((l) => l.startsWith('Execution Time')) ?? '')?.[1] ?? NaN);

/** The fastest of 5 runs (after one to warm the cache): on a shared machine the others wait for a CPU. */
async function explain(title: string, statement: SQL | Query): Promise<void> {
  let q =
    'sql' in statement && typeof statement.sql === 'string'
      ? (statement as Query)
      : dialect.sqlToQuery(statement as SQL);
  if (opt.generic) {
    const lit = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
    await client.query('deallocate all');
    await client.query(`prepare s as ${q.sql}`);
    q = { sql: `execute s(${q.params.map(lit).join(', ')})`, params: [] };
  }
  await client.query(`explain (analyze) ${q.sql}`, q.params);
  let best: string[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${q.sql}`, q.params);
    const lines = r.rows.map((x) => x['QUERY PLAN']);
    if (best.length === 0 || ms(lines) < ms(best)) best = lines;
  }
  if (opt.summary) console.log(`| ${title} | ${ms(best)} |`);
  else console.log(`### ${title}\n\n\`\`\`\n${best.join('\n')}\n\`\`\`\n`);
}

const tenant = await benchTenant(client, false);
const admin = await benchTenant(client, true);

for (const q of opt.q) {
  for (const [who, t] of [
    ['contact', tenant],
    ['company administrator', admin],
  ] as const) {
    const s = searchQuery(
      t,
      { q, kinds: visibleKinds(t), ticketScope: ticketScope(t), limit: SEARCH_GROUP_LIMIT },
      searchKinds,
    );
    if (s) await explain(`customer search "${q}", ${who}`, s);
  }
  const scope = { portalId: tenant.portalId, staffUserId: -1, agentId: null };
  await explain(
    `staff inbox search "${q}", view open`,
    inboxPageSql(scope, 'open', { from: null, toExclusive: null, q }, 50),
  );
}
await client.end();
