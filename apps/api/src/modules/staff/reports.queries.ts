/**
 * SQL of the desk's reports (issue 28 item 14). Each report is one statement of aggregates over one
 * portal's range of one instant (created, solved, first answered, rated), read from the indexes of
 * migration 0056, which carry the filters' and breakdowns' columns: the rows themselves are not read.
 * Grouped either by bucket (`width_bucket` over the buckets' start instants) or by a breakdown's key.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ReportBreakdown } from '@sportello/contracts';
import { queryRows, type Queryable } from '../../platform/sql-json';

export interface ReportFilter {
  portalId: number;
  groupExt?: number | undefined;
  agentExt?: number | undefined;
  companyExt?: number | undefined;
  typeExt?: number | undefined;
  /** 0 low … 3 urgent. */
  priority?: number | undefined;
}

/**
 * What the rows are grouped by: the buckets whose start instants are `bounds` (the last one the range's
 * end; bucket n is `[bounds[n-1], bounds[n])`), or a breakdown's key (the row id; null: none).
 */
export type Grouping = { bounds: Date[] } | { key: ReportBreakdown };

const KEY_COLUMN: Record<ReportBreakdown, string> = {
  agent: 't.assigned_user_id',
  group: 't.assigned_group_id',
  company: 't.company_id',
  type: 't.type_id',
};

/** When a ticket was solved: the instant it closed, or its newest activity if it arrived closed (0056). */
const SOLVED = sql.raw('coalesce(t.closed_at, t.last_activity_at)');

function filterSql(f: ReportFilter): SQL {
  const p = f.portalId;
  const parts: SQL[] = [sql`t.portal_id = ${p}::int`];
  if (f.priority !== undefined) parts.push(sql`t.priority = ${f.priority}::smallint`);
  if (f.groupExt !== undefined)
    parts.push(
      sql`t.assigned_group_id = (select x.id from assignee_groups x where x.portal_id = ${p}::int and x.ext_id = ${f.groupExt}::bigint)`,
    );
  if (f.agentExt !== undefined)
    parts.push(
      sql`t.assigned_user_id = (select x.id from agents x where x.portal_id = ${p}::int and x.ext_id = ${f.agentExt}::bigint)`,
    );
  if (f.companyExt !== undefined)
    parts.push(
      sql`t.company_id = (select x.id from companies x where x.portal_id = ${p}::int and x.ext_id = ${f.companyExt}::bigint)`,
    );
  if (f.typeExt !== undefined)
    parts.push(
      sql`t.type_id = (select x.id from ticket_types x where x.portal_id = ${p}::int and x.ext_id = ${f.typeExt}::bigint)`,
    );
  return sql.join(parts, sql` and `);
}

const iso = (d: Date) => d.toISOString();

/** The group of a row whose instant is `at`: its bucket's number (1 …), or its key's row id. */
function groupOf(g: Grouping, at: SQL): SQL {
  if ('key' in g) return sql.raw(KEY_COLUMN[g.key]);
  return sql`width_bucket(${at}, ${sql.param(g.bounds.map(iso))}::timestamptz[])`;
}

/** A count that does not depend on an instant: one group (buckets), or one per key. */
const constantGroup = (g: Grouping): SQL => ('key' in g ? groupOf(g, sql`null`) : sql`0`);

export interface VolumeRow {
  /** 0 created in the range, 1 solved in it, 2 open now, 3 created after it, 4 solved after it. */
  k: number;
  g: number | null;
  n: number;
}

/** Tickets created and solved in the range, per group; and what the backlogs are computed from. */
export async function volumeRows(
  db: Queryable,
  f: ReportFilter,
  from: Date,
  end: Date,
  g: Grouping,
): Promise<VolumeRow[]> {
  const where = filterSql(f);
  const flat = constantGroup(g);
  const rows = await queryRows<{ k: number; g: number | string | null; n: number | string }>(
    db,
    sql`select x.k, x.g, count(*)::int as n from (
        select 0 as k, ${groupOf(g, sql`t.created_on`)} as g from tickets t
          where ${where} and t.created_on >= ${iso(from)}::timestamptz and t.created_on < ${iso(end)}::timestamptz
        union all
        select 1, ${groupOf(g, SOLVED)} from tickets t
          where ${where} and t.closed and ${SOLVED} >= ${iso(from)}::timestamptz and ${SOLVED} < ${iso(end)}::timestamptz
        union all
        select 2, ${flat} from tickets t where ${where} and not t.closed
        union all
        select 3, ${flat} from tickets t where ${where} and t.created_on >= ${iso(end)}::timestamptz
        union all
        select 4, ${flat} from tickets t where ${where} and t.closed and ${SOLVED} >= ${iso(end)}::timestamptz
      ) x group by x.k, x.g`,
  );
  return rows.map((r) => ({ k: Number(r.k), g: r.g === null ? null : Number(r.g), n: Number(r.n) }));
}

export interface TimeRow {
  /** 0 first response, 1 resolution. */
  k: number;
  g: number | null;
  /** Bucket rows only: the range's total (the rollup's row). */
  total: boolean;
  n: number;
  median: number | null;
  p90: number | null;
  withTarget: number;
  met: number;
}

/**
 * First answers and closes in the range, per group: how many, the median and 90th percentile of the
 * elapsed minutes since creation, how many had a due time and how many were on time.
 */
export async function timeRows(
  db: Queryable,
  f: ReportFilter,
  from: Date,
  end: Date,
  g: Grouping,
): Promise<TimeRow[]> {
  const where = filterSql(f);
  const rollup = !('key' in g);
  const part = (k: number, at: SQL, due: SQL, extra: SQL) =>
    sql`select ${k}::int as k, ${groupOf(g, at)} as g, extract(epoch from ${at} - t.created_on) / 60 as minutes,
        ${due} as due, ${at} <= ${due} as on_time
      from tickets t
      where ${where}${extra} and ${at} >= ${iso(from)}::timestamptz and ${at} < ${iso(end)}::timestamptz`;
  const rows = await queryRows<{
    k: number;
    g: number | string | null;
    total: number | string;
    n: number | string;
    median: number | string | null;
    p90: number | string | null;
    with_target: number | string;
    met: number | string;
  }>(
    db,
    sql`select x.k, x.g, ${rollup ? sql`grouping(x.g)` : sql`0`} as total, count(*)::int as n,
        percentile_cont(0.5) within group (order by x.minutes) as median,
        percentile_cont(0.9) within group (order by x.minutes) as p90,
        count(x.due)::int as with_target, (count(*) filter (where x.on_time))::int as met
      from (
        ${part(0, sql`t.first_responded_at`, sql`t.first_response_due_at`, sql``)}
        union all
        ${part(1, SOLVED, sql`t.resolution_due_at`, sql` and t.closed`)}
      ) x
      group by ${rollup ? sql`x.k, rollup (x.g)` : sql`x.k, x.g`}`,
  );
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    k: Number(r.k),
    g: num(r.g),
    total: Number(r.total) === 1,
    n: Number(r.n),
    median: num(r.median),
    p90: num(r.p90),
    withTarget: Number(r.with_target),
    met: Number(r.met),
  }));
}

export interface RatingRow {
  g: number | null;
  total: boolean;
  n: number;
  average: number | null;
  low: number;
}

/** A ratings row as either path's statement answers it (numbers may come as text). */
export interface RatingRowRead {
  g: number | string | null;
  total: number | string;
  n: number | string;
  average: number | string | null;
  low: number | string;
}

export const ratingRowOf = (r: RatingRowRead): RatingRow => ({
  g: r.g === null ? null : Number(r.g),
  total: Number(r.total) === 1,
  n: Number(r.n),
  average: r.average === null ? null : Number(r.average),
  low: Number(r.low),
});

/** Ratings last given in the range, per group: how many, their average, how many at or below `low`. */
export async function ratingRows(
  db: Queryable,
  f: ReportFilter,
  from: Date,
  end: Date,
  g: Grouping,
  lowThreshold: number,
): Promise<RatingRow[]> {
  const rollup = !('key' in g);
  const rows = await queryRows<RatingRowRead>(
    db,
    sql`select x.g, ${rollup ? sql`grouping(x.g)` : sql`0`} as total, count(*)::int as n,
        avg(x.rating)::float8 as average,
        (count(*) filter (where x.rating <= ${lowThreshold}::int))::int as low
      from (
        select ${groupOf(g, sql`r.updated_at`)} as g, r.rating from ticket_ratings r join tickets t on t.id = r.ticket_id
        where r.portal_id = ${f.portalId}::int and ${filterSql(f)}
          and r.updated_at >= ${iso(from)}::timestamptz and r.updated_at < ${iso(end)}::timestamptz
      ) x
      group by ${rollup ? sql`rollup (x.g)` : sql`x.g`}`,
  );
  return rows.map(ratingRowOf);
}

/** The portal's threshold of a low rating (0038). */
export async function lowRatingThreshold(db: Queryable, portalId: number): Promise<number> {
  const [r] = await queryRows<{ v: number }>(
    db,
    sql`select low_rating_threshold as v from portals where id = ${portalId}::int`,
  );
  return Number(r?.v ?? 0);
}

const NAMES: Record<ReportBreakdown, string> = {
  agent: 'select id, portal_id, ext_id, display_name as name from agents',
  group: 'select id, portal_id, ext_id, name from assignee_groups',
  company: 'select id, portal_id, ext_id, company_name as name from companies',
  type: 'select id, portal_id, ext_id, name from ticket_types',
};

/** The back office's id and name of a breakdown's keys (row ids of the portal). */
export async function keyNames(
  db: Queryable,
  portalId: number,
  by: ReportBreakdown,
  ids: number[],
): Promise<Map<number, { id: number; name: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: number; ext_id: number | string; name: string }>(
    db,
    sql`select x.id, x.ext_id, x.name from (${sql.raw(NAMES[by])}) x
      where x.portal_id = ${portalId}::int and x.id = any(${sql.param(ids)}::int[])`,
  );
  return new Map(rows.map((r) => [Number(r.id), { id: Number(r.ext_id), name: r.name }]));
}
