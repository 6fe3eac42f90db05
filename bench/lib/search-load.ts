/**
 * The one search (issue 16) and the staff inbox (issue 13) under load, for `npm run bench`: each case of
 * bench/lib/search-cases.ts against its target, and the growth probe (a staff view and a customer search
 * at every size the benchmark loads). `npm run bench:search` runs the same cases alone.
 */
import { BENCH_PASSWORD, BENCH_USER } from './generate';
import { call, type Cannon } from './cannon';
import { P, QUERIES, STAFF, staffToken } from './search-cases';

/** p99 targets, ms. */
export const SEARCH_P99_MS = 100;
export const VIEW_P99_MS = 50;

export interface SearchRow {
  name: string;
  /** What the answer held (groups found, tickets on the page). */
  what: string;
  target: number;
  r: Cannon;
}

type Load = (url: string, token: string) => Promise<Cannon>;

async function customerToken(b: string): Promise<string> {
  return (
    await call<{ token: string }>(`${b}/api/auth/login`, {
      json: { userName: BENCH_USER, password: BENCH_PASSWORD },
    })
  ).token;
}

/** Every search and inbox case, each measured by `load`. */
export async function searchCases(
  b: string,
  load: Load,
  log: (m: string) => void,
  only?: 'customer' | 'staff',
): Promise<SearchRow[]> {
  const rows: SearchRow[] = [];
  const customer = await customerToken(b);
  for (const { name, q } of only === 'staff' ? [] : QUERIES) {
    const url = `${b}${P}${encodeURIComponent(q)}`;
    const answer = await call<{ groups: { kind: string; items: unknown[] }[] }>(url, {
      headers: { authorization: `Bearer ${customer}` },
    });
    const what = answer.groups.map((g) => `${g.kind} ${g.items.length}`).join(', ') || 'none';
    const r = await load(url, customer);
    log(`customer: ${name}: ${r.rps} req/s p99 ${r.p99} ms`);
    rows.push({ name: `customer: ${name}`, what, target: SEARCH_P99_MS, r });
  }
  if (only === 'customer') return rows;
  const staff = await staffToken(b);
  for (const { name, path, kind } of STAFF) {
    const url = `${b}${path}`;
    const answer = await call<{ items?: unknown[]; tickets?: unknown[]; contacts?: unknown[] }>(url, {
      headers: { authorization: `Bearer ${staff}` },
    });
    const r = await load(url, staff);
    log(`staff: ${name}: ${r.rps} req/s p99 ${r.p99} ms`);
    rows.push({
      name: `staff: ${name}`,
      what: answer.items
        ? `${answer.items.length} tickets`
        : answer.tickets
          ? `${answer.tickets.length} tickets, ${answer.contacts?.length ?? 0} contacts`
          : 'counts',
      target: kind === 'view' ? VIEW_P99_MS : SEARCH_P99_MS,
      r,
    });
  }
  return rows;
}

/** At one size of the database: the staff inbox's All open view and a customer search of a common word. */
export interface GrowthProbe {
  view: Cannon;
  search: Cannon;
}

export async function growthProbe(b: string, load: Load): Promise<GrowthProbe> {
  // The agent's tickets are assigned again at each size (the new tickets included).
  const staff = await staffToken(b);
  const view = await load(`${b}${STAFF[0]!.path}`, staff);
  const search = await load(`${b}${P}${encodeURIComponent(QUERIES[0]!.q)}`, await customerToken(b));
  return { view, search };
}

/** The cases as a Markdown table, each p99 beside the constant route's of the same run. */
export function searchTable(rows: SearchRow[], constant: Cannon): string[] {
  const ratio = (p99: number) => (constant.p99 > 0 ? (p99 / constant.p99).toFixed(1) : '–');
  return [
    '| case | answer | target p99 ms | req/s | p50 ms | p99 ms | p99 / constant p99 | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (x) =>
        `| ${x.name} | ${x.what} | ${x.target} | ${x.r.rps} | ${x.r.p50} | ${x.r.p99} | ${ratio(x.r.p99)} | ${x.r.errors} |`,
    ),
    `| constant route (the app's ceiling in this run) | | | ${constant.rps} | ${constant.p50} | ${constant.p99} | 1.0 | ${constant.errors} |`,
  ];
}
