/**
 * `npx tsx bench/plan-cache-probe.ts`: the customer search of the bench contact (p001/1) as the API
 * sends it (its statement named and prepared, on one connection per text), 500 runs per text, then
 * what PostgreSQL did with it: generic or custom plans (pg_prepared_statements), the CPU time the
 * backend spent per search after the first fifth of the runs (from /proc: the database must run on
 * this machine), and the median time seen by the client. CPU time moves less than wall time with the
 * neighbours' load, so two versions can be compared on a shared machine, interleaved.
 *
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/plan-cache-probe.ts [--q text]… [--admin]
 *     [--runs N] [--queries apps/api/src/modules/search/<copy>.ts]
 *
 * --queries: another version of search.queries.ts to measure, e.g. `git show main:…/search.queries.ts`
 * saved beside it (its relative imports must resolve); delete the copy afterwards (lint reads it).
 */
import { searchKinds, SEARCH_GROUP_LIMIT } from '@sportello/contracts';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { searchQuery } from '../apps/api/src/modules/search/search.queries';
import { visibleKinds } from '../apps/api/src/modules/search/search.service';
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
    runs: { type: 'string', default: '500' },
    admin: { type: 'boolean', default: false },
    // Another version of search.queries.ts (a path from the repository root), for a before/after.
    queries: { type: 'string', default: 'apps/api/src/modules/search/search.queries.ts' },
  },
});
const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('set BENCH_DATABASE_URL to the loaded bench database');
const client = new pg.Client({ connectionString: url });
await client.connect();
const tenant = await benchTenant(client, opt.admin);
const queries = (await import(new URL(`../${opt.queries}`, import.meta.url).href)) as {
  searchQuery: typeof searchQuery;
};
const runs = Number(opt.runs);
/** CPU time of a process (user + system), ms: the database backend's work, whatever the neighbours' load. */
const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
};
console.log(
  '| text | statements | plans (generic / custom) | backend CPU ms per search | client ms, median |',
);
console.log('|---|---:|---|---:|---:|');
for (const q of opt.q) {
  // A new connection per text: its own prepared statements, as a pool's connection that meets one text.
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const terms = {
    q,
    kinds: visibleKinds(tenant),
    ticketScope: ticketScope(tenant),
    limit: SEARCH_GROUP_LIMIT,
  };
  const statements = [queries.searchQuery(tenant, terms, searchKinds)!];
  const pid = (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  const times: number[] = [];
  let cpu0 = 0;
  for (let i = 0; i < runs; i++) {
    // The first fifth warms up (custom plans, then the generic one): CPU is counted after it.
    if (i === Math.floor(runs / 5)) cpu0 = cpuMs(pid);
    const t0 = performance.now();
    for (const [n, s] of statements.entries())
      await c.query({ name: `probe_${n}`, text: s.sql, values: s.params as unknown[] });
    times.push(performance.now() - t0);
  }
  const ps = (
    await c.query<{ name: string; generic_plans: string; custom_plans: string }>(
      'select name, generic_plans, custom_plans from pg_prepared_statements order by name',
    )
  ).rows;
  const cpu = (cpuMs(pid) - cpu0) / (runs - Math.floor(runs / 5));
  await c.end();
  const sorted = times.slice(Math.floor(runs / 5)).sort((a, b) => a - b);
  console.log(
    `| ${q} | ${statements.length} | ${ps.map((p) => `${p.generic_plans} / ${p.custom_plans}`).join(', ')} | ${cpu.toFixed(2)} | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} |`,
  );
}
await client.end();
