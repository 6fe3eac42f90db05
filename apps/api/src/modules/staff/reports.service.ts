/**
 * The desk's reports (issue 28 item 14; docs/staff.md, "Reports"): the range's buckets in the portal's
 * time zone, the figures of reports.queries.ts put together, and each report as CSV. Every member of the
 * desk sees every ticket of the portal, so every report; the agents' breakdown and filter are the
 * admins'.
 */
import { addDays, wallToInstant, weekdayOf } from '@sportello/contracts/time-zone';
import {
  staffErrorCodes,
  ticketPriorities,
  type DeskReportQueryRead,
  type RatingsReport,
  type ReportBreakdown,
  type ReportGranularity,
  type ReportKey,
  type TimeStat,
  type TimesReport,
  type VolumeReport,
  REPORT_BREAKDOWN_MAX,
} from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import type { Queryable } from '../../platform/sql-json';
import { csvCell } from '../../platform/csv';
import { forbidden } from '../../platform/errors';
import {
  keyNames,
  lowRatingThreshold,
  ratingRows,
  timeRows,
  volumeRows,
  type Grouping,
  type ReportFilter,
} from './reports.queries';
import {
  ratingRowsRollup,
  rollupSlices,
  timeRowsRollup,
  volumeRowsRollup,
  type RollupSlice,
} from './reports.rollup';
import { readSlaPolicy } from './sla.queries';
import type { StaffPortalAccess } from './staff.access';

type ReportQuery = DeskReportQueryRead;

interface Range {
  filter: ReportFilter;
  /** Each bucket's first day. */
  starts: string[];
  /** Each bucket's start instant, then the range's end. */
  bounds: Date[];
  range: VolumeReport['range'];
  breakdown: ReportBreakdown | undefined;
  /** The rollup's rows that answer it (0060), or null: read from the tickets. */
  slices: { buckets: RollupSlice; keyed: RollupSlice | null } | null;
}

/** The buckets of the range: its days, or its ISO weeks (Monday first) cut at the range's ends. */
export function bucketStarts(from: string, to: string, granularity: ReportGranularity): string[] {
  const starts: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1))
    if (granularity === 'day' || d === from || weekdayOf(d) === 1) starts.push(d);
  return starts;
}

function rangeOf(ctx: AppContext, a: StaffPortalAccess, q: ReportQuery): Range {
  if ((q.breakdown === 'agent' || q.agent !== undefined) && a.portal.role !== 'admin')
    throw forbidden("The agents' figures are for the portal's admins", staffErrorCodes.adminRequired);
  const tz = a.portal.timeZone;
  const starts = bucketStarts(q.from, q.to, q.granularity);
  const bounds = [...starts, addDays(q.to, 1)].map((d) => wallToInstant(d, '00:00', tz));
  const filter: ReportFilter = {
    portalId: a.portal.portalId,
    groupExt: q.group,
    agentExt: q.agent,
    companyExt: q.company,
    typeExt: q.type,
    priority: q.priority === undefined ? undefined : ticketPriorities.indexOf(q.priority),
  };
  return {
    filter,
    starts,
    bounds,
    range: { from: q.from, to: q.to, granularity: q.granularity, timeZone: tz },
    breakdown: q.breakdown,
    slices: ctx.config.REPORTS_ROLLUP === 'on' ? rollupSlices(filter, q.breakdown) : null,
  };
}

// One source per report: the rollup's rows when it has them, else the tickets'; the same rows either way.

const volumeOf = (db: Queryable, r: Range, keyed: boolean) =>
  r.slices
    ? volumeRowsRollup(
        db,
        r.filter.portalId,
        keyed ? r.slices.keyed! : r.slices.buckets,
        r.range.from,
        r.range.to,
        keyed ? { keyed } : { starts: r.starts },
      )
    : volumeRows(db, r.filter, first(r), end(r), keyed ? { key: r.breakdown! } : byBucket(r));

const ratingsOf = (db: Queryable, r: Range, keyed: boolean, threshold: number) =>
  r.slices
    ? ratingRowsRollup(
        db,
        r.filter.portalId,
        keyed ? r.slices.keyed! : r.slices.buckets,
        r.range.from,
        r.range.to,
        keyed ? { keyed } : { starts: r.starts },
        threshold,
      )
    : ratingRows(db, r.filter, first(r), end(r), keyed ? { key: r.breakdown! } : byBucket(r), threshold);

const first = (r: Range) => r.bounds[0]!;
const end = (r: Range) => r.bounds[r.bounds.length - 1]!;
const byBucket = (r: Range): Grouping => ({ bounds: r.bounds });

/** The breakdown's rows with their keys named, the largest `REPORT_BREAKDOWN_MAX` by `size`. */
async function named<T>(
  ctx: AppContext,
  r: Range,
  by: ReportBreakdown,
  rows: Map<number | null, T>,
  size: (row: T) => number,
): Promise<{ by: ReportBreakdown; rows: (T & { key: ReportKey })[]; more: boolean }> {
  // Largest first; a tie by key (none last), so that the 50 kept do not depend on the rows' order.
  const sorted = [...rows.entries()].sort(
    (x, y) => size(y[1]) - size(x[1]) || (x[0] ?? Infinity) - (y[0] ?? Infinity),
  );
  const kept = sorted.slice(0, REPORT_BREAKDOWN_MAX);
  const ids = kept.map(([id]) => id).filter((id): id is number => id !== null);
  const names = await keyNames(ctx.database.db, r.filter.portalId, by, ids);
  return {
    by,
    rows: kept.map(([id, row]) => {
      const n = id === null ? undefined : names.get(id);
      return { key: { id: n?.id ?? null, name: n?.name ?? '' }, ...row };
    }),
    more: sorted.length > kept.length,
  };
}

// --- created, solved, backlog

export async function volumeReport(
  ctx: AppContext,
  a: StaffPortalAccess,
  q: ReportQuery,
): Promise<VolumeReport> {
  const r = rangeOf(ctx, a, q);
  const db = ctx.database.db;
  const rows = await volumeOf(db, r, false);
  const n = r.starts.length;
  const created = new Array<number>(n).fill(0);
  const solved = new Array<number>(n).fill(0);
  let open = 0;
  let createdAfter = 0;
  let solvedAfter = 0;
  for (const row of rows) {
    const i = (row.g ?? 0) - 1;
    if (row.k === 0 && i >= 0 && i < n) created[i] = row.n;
    else if (row.k === 1 && i >= 0 && i < n) solved[i] = row.n;
    else if (row.k === 2) open = row.n;
    else if (row.k === 3) createdAfter = row.n;
    else if (row.k === 4) solvedAfter = row.n;
  }
  // Open at an instant = open now − created since + solved since (a ticket solved then reopened counts
  // as open since its first close: the reopen clears its close).
  const backlog = new Array<number>(n).fill(0);
  let createdSince = createdAfter;
  let solvedSince = solvedAfter;
  for (let i = n - 1; i >= 0; i--) {
    backlog[i] = Math.max(0, open - createdSince + solvedSince);
    createdSince += created[i]!;
    solvedSince += solved[i]!;
  }
  const report: VolumeReport = {
    range: r.range,
    buckets: r.starts.map((start, i) => ({
      start,
      created: created[i]!,
      solved: solved[i]!,
      backlog: backlog[i]!,
    })),
    totals: {
      created: created.reduce((s, x) => s + x, 0),
      solved: solved.reduce((s, x) => s + x, 0),
      backlogAtStart: Math.max(0, open - createdSince + solvedSince),
      backlogAtEnd: Math.max(0, open - createdAfter + solvedAfter),
    },
    breakdown: null,
  };
  if (r.breakdown) {
    const keyed = await volumeOf(db, r, true);
    const per = new Map<number | null, { created: number; solved: number; backlog: number }>();
    const acc = new Map<number | null, number[]>();
    for (const row of keyed) {
      const v = acc.get(row.g) ?? [0, 0, 0, 0, 0];
      v[row.k] = row.n;
      acc.set(row.g, v);
    }
    for (const [key, [c, s, o, ca, sa]] of acc)
      if (c! + s! + o! > 0) per.set(key, { created: c!, solved: s!, backlog: Math.max(0, o! - ca! + sa!) });
    report.breakdown = await named(ctx, r, r.breakdown, per, (x) => x.created + x.solved + x.backlog);
  }
  return report;
}

// --- first response and resolution times

const none: TimeStat = { count: 0, median: null, p90: null, withTarget: 0, met: 0 };
const round1 = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
const statOf = (row: {
  n: number;
  median: number | null;
  p90: number | null;
  withTarget: number;
  met: number;
}) => ({
  count: row.n,
  median: round1(row.median),
  p90: round1(row.p90),
  withTarget: row.withTarget,
  met: row.met,
});

export async function timesReport(
  ctx: AppContext,
  a: StaffPortalAccess,
  q: ReportQuery,
): Promise<TimesReport> {
  const r = rangeOf(ctx, a, q);
  const db = ctx.database.db;
  // From the rollup, one read answers the buckets and the breakdown.
  const fromRollup = r.slices
    ? await timeRowsRollup(
        db,
        r.filter.portalId,
        r.slices.keyed ?? r.slices.buckets,
        r.range.from,
        r.range.to,
        r.starts,
        r.slices.keyed !== null,
      )
    : null;
  const rows = fromRollup ? fromRollup.buckets : await timeRows(db, r.filter, first(r), end(r), byBucket(r));
  const n = r.starts.length;
  const buckets = r.starts.map((start) => ({ start, firstResponse: none, resolution: none }));
  const totals = { firstResponse: none, resolution: none };
  for (const row of rows) {
    const field = row.k === 0 ? 'firstResponse' : 'resolution';
    if (row.total) totals[field] = statOf(row);
    else {
      const i = (row.g ?? 0) - 1;
      if (i >= 0 && i < n) buckets[i]![field] = statOf(row);
    }
  }
  const policy = await readSlaPolicy(db, r.filter.portalId);
  const report: TimesReport = {
    range: r.range,
    buckets,
    totals,
    targets: {
      enabled: policy?.enabled ?? false,
      low: policy?.targets.low ?? { firstResponse: null, resolution: null },
      normal: policy?.targets.normal ?? { firstResponse: null, resolution: null },
      high: policy?.targets.high ?? { firstResponse: null, resolution: null },
      urgent: policy?.targets.urgent ?? { firstResponse: null, resolution: null },
    },
    breakdown: null,
  };
  if (r.breakdown) {
    const keyed = fromRollup
      ? fromRollup.keyed
      : await timeRows(db, r.filter, first(r), end(r), { key: r.breakdown });
    const per = new Map<number | null, { firstResponse: TimeStat; resolution: TimeStat }>();
    for (const row of keyed) {
      const v = per.get(row.g) ?? { firstResponse: none, resolution: none };
      v[row.k === 0 ? 'firstResponse' : 'resolution'] = statOf(row);
      per.set(row.g, v);
    }
    report.breakdown = await named(
      ctx,
      r,
      r.breakdown,
      per,
      (x) => x.firstResponse.count + x.resolution.count,
    );
  }
  return report;
}

// --- ratings

export async function ratingsReport(
  ctx: AppContext,
  a: StaffPortalAccess,
  q: ReportQuery,
): Promise<RatingsReport> {
  const r = rangeOf(ctx, a, q);
  const db = ctx.database.db;
  const threshold = await lowRatingThreshold(db, r.filter.portalId);
  const rows = await ratingsOf(db, r, false, threshold);
  const n = r.starts.length;
  const empty: RatingsReport['totals'] = { count: 0, average: null, low: 0 };
  const buckets: RatingsReport['buckets'] = r.starts.map((start) => ({ start, ...empty }));
  let totals: RatingsReport['totals'] = empty;
  const figures = (row: { n: number; average: number | null; low: number }) => ({
    count: row.n,
    average: row.average === null ? null : Math.round(row.average * 100) / 100,
    low: row.low,
  });
  for (const row of rows) {
    if (row.total) totals = figures(row);
    else {
      const i = (row.g ?? 0) - 1;
      if (i >= 0 && i < n) buckets[i] = { start: r.starts[i]!, ...figures(row) };
    }
  }
  const report: RatingsReport = { range: r.range, buckets, totals, lowThreshold: threshold, breakdown: null };
  if (r.breakdown) {
    const keyed = await ratingsOf(db, r, true, threshold);
    const per = new Map(keyed.map((row) => [row.g, figures(row)]));
    report.breakdown = await named(ctx, r, r.breakdown, per, (x) => x.count);
  }
  return report;
}

// --- CSV

const line = (cells: unknown[]) => cells.map(csvCell).join(',') + '\r\n';
const keyCells = (k: ReportKey) => [k.id ?? '', k.name];
const BOM = '\ufeff';

export function volumeCsv(report: VolumeReport): string {
  if (report.breakdown)
    return (
      BOM +
      line([report.breakdown.by + '_id', report.breakdown.by, 'created', 'solved', 'open_at_end']) +
      report.breakdown.rows.map((x) => line([...keyCells(x.key), x.created, x.solved, x.backlog])).join('')
    );
  return (
    BOM +
    line(['bucket_start', 'created', 'solved', 'open_at_end']) +
    report.buckets.map((b) => line([b.start, b.created, b.solved, b.backlog])).join('')
  );
}

const timeHeader = (p: string) => [
  `${p}_count`,
  `${p}_median_min`,
  `${p}_p90_min`,
  `${p}_with_target`,
  `${p}_met`,
];
const timeCells = (s: TimeStat) => [s.count, s.median ?? '', s.p90 ?? '', s.withTarget, s.met];

export function timesCsv(report: TimesReport): string {
  const head = [...timeHeader('first_response'), ...timeHeader('resolution')];
  if (report.breakdown)
    return (
      BOM +
      line([report.breakdown.by + '_id', report.breakdown.by, ...head]) +
      report.breakdown.rows
        .map((x) => line([...keyCells(x.key), ...timeCells(x.firstResponse), ...timeCells(x.resolution)]))
        .join('')
    );
  return (
    BOM +
    line(['bucket_start', ...head]) +
    report.buckets
      .map((b) => line([b.start, ...timeCells(b.firstResponse), ...timeCells(b.resolution)]))
      .join('')
  );
}

export function ratingsCsv(report: RatingsReport): string {
  if (report.breakdown)
    return (
      BOM +
      line([report.breakdown.by + '_id', report.breakdown.by, 'ratings', 'average', 'low']) +
      report.breakdown.rows.map((x) => line([...keyCells(x.key), x.count, x.average ?? '', x.low])).join('')
    );
  return (
    BOM +
    line(['bucket_start', 'ratings', 'average', 'low']) +
    report.buckets.map((b) => line([b.start, b.count, b.average ?? '', b.low])).join('')
  );
}
