/**
 * The desk's reports read from the daily rollup of migration 0060 (`ticket_report_days`: per portal,
 * portal-local day, dimension and key). Each function answers the very rows of its twin in
 * reports.queries.ts — same groups, same counts, the same percentiles of the same float8 minutes — so
 * the service puts them together the same way; reports.rollup.test.ts holds the two side by side.
 * A report is answered here when it names at most one of the dimensions (its filters and its
 * breakdown together): each ticket is counted once per dimension, not per combination.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ReportBreakdown } from '@sportello/contracts';
import { queryRows, type Queryable } from '../../platform/sql-json';
import {
  ratingRowOf,
  type RatingRow,
  type RatingRowRead,
  type ReportFilter,
  type TimeRow,
  type VolumeRow,
} from './reports.queries';

/** The rollup's dimensions (0060). */
const DIM = { all: 0, group: 1, agent: 2, company: 3, type: 4, priority: 5 } as const;

const EXT_TABLE: Record<ReportBreakdown, string> = {
  group: 'assignee_groups',
  agent: 'agents',
  company: 'companies',
  type: 'ticket_types',
};

/** The one dimension a report names and the rows it reads; null when it names two or more. */
export interface RollupSlice {
  dim: number;
  /** The filter's key (row id; the priority's number), or all the dimension's keys (null). */
  key: SQL | null;
}

/**
 * The slices of a report: its buckets' (the filter's dimension, or every ticket) and its breakdown's
 * (the breakdown's dimension, narrowed to the filter's key when it filters the same one); null when
 * the report names two dimensions and must be read from the tickets.
 */
export function rollupSlices(
  f: ReportFilter,
  breakdown: ReportBreakdown | undefined,
): { buckets: RollupSlice; keyed: RollupSlice | null } | null {
  const filters: [ReportBreakdown | 'priority', SQL][] = [];
  const ext = (by: ReportBreakdown, v: number) =>
    sql`(select x.id from ${sql.raw(EXT_TABLE[by])} x where x.portal_id = ${f.portalId}::int and x.ext_id = ${v}::bigint)`;
  if (f.groupExt !== undefined) filters.push(['group', ext('group', f.groupExt)]);
  if (f.agentExt !== undefined) filters.push(['agent', ext('agent', f.agentExt)]);
  if (f.companyExt !== undefined) filters.push(['company', ext('company', f.companyExt)]);
  if (f.typeExt !== undefined) filters.push(['type', ext('type', f.typeExt)]);
  if (f.priority !== undefined) filters.push(['priority', sql`${f.priority}::int`]);
  if (filters.length > 1) return null;
  const [filter] = filters;
  if (filter && breakdown && filter[0] !== breakdown) return null;
  const buckets: RollupSlice = filter
    ? { dim: DIM[filter[0]], key: filter[1] }
    : { dim: DIM.all, key: sql`0` };
  const keyed = breakdown ? { dim: DIM[breakdown], key: filter ? filter[1] : null } : null;
  return { buckets, keyed };
}

function sliceSql(portalId: number, s: RollupSlice): SQL {
  const key = s.key === null ? sql`` : sql` and d.key = ${s.key}`;
  return sql`d.portal_id = ${portalId}::int and d.dim = ${s.dim}::smallint${key}`;
}

/** Rows are grouped by bucket number (1 …, over the buckets' first days) or by key (0: none → null). */
export type RollupGrouping = { starts: string[] } | { keyed: true };

function groupSql(g: RollupGrouping): SQL {
  if ('keyed' in g) return sql`nullif(d.key, 0)`;
  return sql`width_bucket(d.day, ${sql.param(g.starts)}::date[])`;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** The rows of `volumeRows` for the days `from` … `to`. */
export async function volumeRowsRollup(
  db: Queryable,
  portalId: number,
  s: RollupSlice,
  from: string,
  to: string,
  g: RollupGrouping,
): Promise<VolumeRow[]> {
  const keyed = 'keyed' in g;
  const rows = await queryRows<{
    g: number | string | null;
    c: number | string;
    s: number | string;
    o: number | string;
    ca: number | string;
    sa: number | string;
  }>(
    db,
    sql`select x.g, sum(x.c)::int as c, sum(x.s)::int as s, sum(x.o)::int as o, sum(x.ca)::int as ca,
        sum(x.sa)::int as sa
      from (
        select case when d.day between ${from}::date and ${to}::date then ${groupSql(g)} else ${keyed ? groupSql(g) : sql`null`} end as g,
          case when d.day between ${from}::date and ${to}::date then d.created else 0 end as c,
          case when d.day between ${from}::date and ${to}::date then d.solved else 0 end as s,
          d.created - d.solved as o,
          case when d.day > ${to}::date then d.created else 0 end as ca,
          case when d.day > ${to}::date then d.solved else 0 end as sa
        from ticket_report_days d where ${sliceSql(portalId, s)}
      ) x group by x.g`,
  );
  const out: VolumeRow[] = [];
  for (const r of rows) {
    const key = num(r.g);
    const n = [Number(r.c), Number(r.s), Number(r.o), Number(r.ca), Number(r.sa)];
    if (keyed) {
      n.forEach((v, k) => {
        if (v !== 0) out.push({ k, g: key, n: v });
      });
    } else {
      // The buckets' own created and solved; the rest is the portal's (or the filter's) whole.
      if (key !== null && n[0] !== 0) out.push({ k: 0, g: key, n: n[0]! });
      if (key !== null && n[1] !== 0) out.push({ k: 1, g: key, n: n[1]! });
    }
  }
  if (!keyed) {
    const sum = (i: number) => rows.reduce((acc, r) => acc + Number([r.c, r.s, r.o, r.ca, r.sa][i]), 0);
    for (const k of [2, 3, 4]) if (sum(k) !== 0) out.push({ k, g: 0, n: sum(k) });
  }
  return out;
}

/** `percentile_cont(p)` of sorted values, as PostgreSQL computes it (orderedsetaggs.c, float8_lerp). */
export function percentileCont(sorted: Float64Array, p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const first = Math.floor(p * (n - 1));
  const second = Math.ceil(p * (n - 1));
  const lo = sorted[first]!;
  if (second === first) return lo;
  const hi = sorted[second]!;
  return lo + (p * (n - 1) - first) * (hi - lo);
}

/** The elements of a one-dimensional float8 array in its binary form (`array_send`). */
export function float8ArrayOf(v: Uint8Array | string): Float64Array {
  const bytes = typeof v === 'string' ? Buffer.from(v.slice(2), 'hex') : v;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getInt32(0) === 0) return new Float64Array(0);
  const n = view.getInt32(12);
  const out = new Float64Array(n);
  // Header: dimensions, null flag, element type, length, lower bound; then length + value per element.
  for (let i = 0, at = 20; i < n; i++, at += 12) out[i] = view.getFloat64(at + 4);
  return out;
}

/**
 * Puts the `k`-th smallest of `a[lo..hi]` at `a[k]`, the smaller ones before it and the larger after
 * (Hoare's selection, median-of-three pivots): a percentile's two neighbours without sorting them all.
 */
function select(a: Float64Array, k: number, lo: number, hi: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    const x = a[lo]!;
    const y = a[mid]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/** The smallest of `a[from..to)`. */
function minOf(a: Float64Array, from: number, to: number): number {
  let m = a[from]!;
  for (let i = from + 1; i < to; i++) if (a[i]! < m) m = a[i]!;
  return m;
}

/**
 * `percentile_cont(p)` for ascending `ps` over unsorted values (reordered in place), as PostgreSQL
 * computes it (orderedsetaggs.c: the rows at floor and ceil of p × (n − 1), float8_lerp between them).
 */
export function percentilesOf(a: Float64Array, ps: number[]): (number | null)[] {
  const n = a.length;
  if (n === 0) return ps.map(() => null);
  let from = 0;
  return ps.map((p) => {
    const first = Math.floor(p * (n - 1));
    const second = Math.ceil(p * (n - 1));
    // What is before `from` is at most the earlier percentile's row: this one's rows are after it.
    select(a, first, from, n - 1);
    from = first;
    const lo = a[first]!;
    if (second === first) return lo;
    const hi = minOf(a, first + 1, n);
    return lo + (p * (n - 1) - first) * (hi - lo);
  });
}

/** A group's durations and counts while they are gathered. */
class TimeGroup {
  parts: Float64Array[] = [];
  size = 0;
  n = 0;
  withTarget = 0;
  met = 0;
  add(values: Float64Array, n: number, withTarget: number, met: number): void {
    if (values.length) this.parts.push(values);
    this.size += values.length;
    this.n += n;
    this.withTarget += withTarget;
    this.met += met;
  }
  /** The group's row, its durations copied into `scratch` (at least `size` long) and selected there. */
  row(k: number, g: number | null, total: boolean, scratch: Float64Array): TimeRow {
    const all = scratch.subarray(0, this.size);
    let at = 0;
    for (const p of this.parts) {
      all.set(p, at);
      at += p.length;
    }
    const [median, p90] = percentilesOf(all, [0.5, 0.9]);
    return {
      k,
      g,
      total,
      n: this.n,
      median: median ?? null,
      p90: p90 ?? null,
      withTarget: this.withTarget,
      met: this.met,
    };
  }
}

/**
 * The rows of `timeRows` for the days `from` … `to`: per bucket and the range's total (`buckets`),
 * and, with `keyed`, per key of the slice's dimension. The percentiles are computed here from the
 * days' durations (one read of the slice's rows serves both: a dimension's keys partition the
 * tickets the buckets count), exactly as `percentile_cont` computes them over the same float8 values.
 */
export async function timeRowsRollup(
  db: Queryable,
  portalId: number,
  s: RollupSlice,
  from: string,
  to: string,
  starts: string[],
  keyed: boolean,
): Promise<{ buckets: TimeRow[]; keyed: TimeRow[] }> {
  const rows = await queryRows<{
    day: string;
    key: number | string;
    responded: number | string;
    response_with_target: number | string;
    response_met: number | string;
    response_minutes: Uint8Array | string;
    solved: number | string;
    resolution_with_target: number | string;
    resolution_met: number | string;
    resolution_minutes: Uint8Array | string;
  }>(
    db,
    sql`select d.day::text as day, d.key, d.responded, d.response_with_target, d.response_met,
        array_send(d.response_minutes) as response_minutes, d.solved, d.resolution_with_target,
        d.resolution_met, array_send(d.resolution_minutes) as resolution_minutes
      from ticket_report_days d where ${sliceSql(portalId, s)}
        and d.day between ${from}::date and ${to}::date and (d.responded <> 0 or d.solved <> 0)`,
  );
  // Per kind (0 first response, 1 resolution): the buckets, the total, the keys.
  const byBucket = [new Map<number, TimeGroup>(), new Map<number, TimeGroup>()];
  const byKey = [new Map<number | null, TimeGroup>(), new Map<number | null, TimeGroup>()];
  const bucketOf = (day: string) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= day) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const groupIn = <K>(m: Map<K, TimeGroup>, k: K) => {
    let g = m.get(k);
    if (!g) m.set(k, (g = new TimeGroup()));
    return g;
  };
  for (const r of rows) {
    const b = bucketOf(r.day);
    const key = Number(r.key) === 0 ? null : Number(r.key);
    const kinds: [Float64Array, number, number, number][] = [
      [
        float8ArrayOf(r.response_minutes),
        Number(r.responded),
        Number(r.response_with_target),
        Number(r.response_met),
      ],
      [
        float8ArrayOf(r.resolution_minutes),
        Number(r.solved),
        Number(r.resolution_with_target),
        Number(r.resolution_met),
      ],
    ];
    kinds.forEach(([values, n, withTarget, met], k) => {
      if (n === 0) return;
      groupIn(byBucket[k]!, b).add(values, n, withTarget, met);
      if (keyed) groupIn(byKey[k]!, key).add(values, n, withTarget, met);
    });
  }
  const buckets: TimeRow[] = [];
  const keys: TimeRow[] = [];
  for (const k of [0, 1]) {
    const total = new TimeGroup();
    for (const g of byBucket[k]!.values()) for (const p of g.parts) total.add(p, 0, 0, 0);
    const scratch = new Float64Array(total.size);
    for (const [b, g] of byBucket[k]!) {
      if (g.n === 0) continue;
      buckets.push(g.row(k, b, false, scratch));
      total.n += g.n;
      total.withTarget += g.withTarget;
      total.met += g.met;
    }
    if (total.n > 0) buckets.push(total.row(k, null, true, scratch));
    for (const [key, g] of byKey[k]!) if (g.n > 0) keys.push(g.row(k, key, false, scratch));
  }
  return { buckets, keyed: keys };
}

/** The rows of `ratingRows` for the days `from` … `to`. */
export async function ratingRowsRollup(
  db: Queryable,
  portalId: number,
  s: RollupSlice,
  from: string,
  to: string,
  g: RollupGrouping,
  lowThreshold: number,
): Promise<RatingRow[]> {
  const rollup = !('keyed' in g);
  const low = [1, 2, 3, 4, 5]
    .filter((score) => score <= lowThreshold)
    .map((score) => sql.raw(`d.rated_${score}`));
  const rows = await queryRows<RatingRowRead>(
    db,
    // The average as avg() of the scores computes it: their sum over their count, both numeric.
    sql`select x.g, ${rollup ? sql`grouping(x.g)` : sql`0`} as total, sum(x.n)::int as n,
        case when sum(x.n) > 0 then (sum(x.s)::bigint::numeric / sum(x.n)::bigint::numeric)::float8 end as average,
        sum(x.low)::int as low
      from (
        select ${groupSql(g)} as g,
          d.rated_1 + d.rated_2 + d.rated_3 + d.rated_4 + d.rated_5 as n,
          d.rated_1 + 2 * d.rated_2 + 3 * d.rated_3 + 4 * d.rated_4 + 5 * d.rated_5 as s,
          ${low.length ? sql.join(low, sql` + `) : sql`0`} as low
        from ticket_report_days d where ${sliceSql(portalId, s)}
          and d.day between ${from}::date and ${to}::date
          and d.rated_1 + d.rated_2 + d.rated_3 + d.rated_4 + d.rated_5 > 0
      ) x
      group by ${rollup ? sql`rollup (x.g)` : sql`x.g`}`,
  );
  return rows.map(ratingRowOf);
}
