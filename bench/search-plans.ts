/**
 * `npx tsx bench/search-plans.ts`: EXPLAIN (ANALYZE, BUFFERS) of the searches `bench/search.ts` and
 * `bench/inbox.ts` measure, against a database the bench has loaded (BENCH_DATABASE_URL, e.g. a cluster
 * kept between runs). The statements are built by the API's own query functions, so the plans are those
 * of the code as it is. Prints one block per search (the fastest of 5 runs), or with --summary one
 * table row of its execution time: where the time goes.
 *
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/search-plans.ts [--q word]… [--summary]
 *
 * `--inbox` instead: the desk inbox's pages of bench/lib/search-cases.ts's BENCH_INBOX_CASES (orders,
 * filters, sort=sla) as the bench agent, the counts of its saved views (one statement) and the unread
 * counts: what a request costs when the desk's caches do not have its answer.
 */
import { searchKinds, SEARCH_GROUP_LIMIT } from '@sportello/contracts';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sql, type Query, type SQL } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { searchQuery } from '../apps/api/src/modules/search/search.queries';
import { visibleKinds } from '../apps/api/src/modules/search/search.service';
import {
  countInboxSql,
  filteredCountSql,
  inboxPageSql,
  PRIORITY_NAMES,
  type InboxFilters,
} from '../apps/api/src/modules/staff/inbox.queries';
import { ticketScope } from '../apps/api/src/modules/tickets/core';
import { benchTenant } from './lib/bench-tenant';
import { BENCH_INBOX_CASES, BENCH_SAVED_VIEWS, QUERIES, STAFF_EMAIL } from './lib/search-cases';

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
    inbox: { type: 'boolean', default: false },
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

/** A case's query as the inbox's service turns it into filters (inbox.service.ts). */
const filtersOf = (q: Record<string, string | number>, now: Date): InboxFilters => ({
  from: null,
  toExclusive: null,
  now,
  companyExt: q.company === undefined ? undefined : Number(q.company),
  priority:
    q.priority === undefined
      ? undefined
      : PRIORITY_NAMES.indexOf(q.priority as (typeof PRIORITY_NAMES)[number]),
  rating: q.rating as InboxFilters['rating'],
  due: q.due as InboxFilters['due'],
  sort: q.sort as InboxFilters['sort'],
});
type View = Parameters<typeof inboxPageSql>[1];

if (opt.inbox) {
  const agent = await client.query<{ staff_user_id: number; agent_id: number }>(
    `select s.id as staff_user_id, m.agent_id from staff_users s
       join staff_memberships m on m.staff_user_id = s.id where s.email = $1 and m.portal_id = $2`,
    [STAFF_EMAIL, tenant.portalId],
  );
  const a = agent.rows[0];
  if (!a) throw new Error('no bench agent: run `npm run bench:search -- --only staff` first');
  const now = new Date();
  const scope = { portalId: tenant.portalId, staffUserId: a.staff_user_id, agentId: a.agent_id, now };
  for (const c of BENCH_INBOX_CASES)
    await explain(
      `staff inbox: ${c.name}`,
      inboxPageSql(scope, (c.query.view ?? 'open') as View, filtersOf(c.query, now), 50),
    );
  const counts = BENCH_SAVED_VIEWS.map((v) =>
    filteredCountSql(scope, v.query.view as View, filtersOf(v.query, now)),
  );
  await explain(
    `staff saved views' counts (${BENCH_SAVED_VIEWS.length})`,
    sql`select json_build_array(${sql.join(counts, sql`, `)}) as c`,
  );
  await explain('staff unread counts of every view', countInboxSql(scope));
  await client.end();
  process.exit(0);
}

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
