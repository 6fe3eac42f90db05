// The desk's reports (issue 28 item 14): tickets created and solved, the backlog, first response and
// resolution times against the service-level targets, ratings; over a bounded range of days in the
// portal's time zone, by day or week, filtered and broken down (docs/staff.md, "Reports").
import { z } from 'zod';
import { dayString, extIdParam, extIdSchema } from './common';
import { binaryAnswer, defineRoute } from './route';
import { staffPortalParamsSchema } from './staff';
import { ticketPriorities } from './staff-views';
import { daysBetween } from './time-zone';

/** A report covers at most this many days (a leap year's). */
export const REPORT_RANGE_MAX_DAYS = 366;
/** A breakdown answers at most this many rows, the largest first (`more` says when others exist). */
export const REPORT_BREAKDOWN_MAX = 50;

export const reportKinds = ['volume', 'times', 'ratings'] as const;
export type ReportKind = (typeof reportKinds)[number];
export const reportGranularities = ['day', 'week'] as const;
export type ReportGranularity = (typeof reportGranularities)[number];
export const reportBreakdowns = ['agent', 'group', 'company', 'type'] as const;
export type ReportBreakdown = (typeof reportBreakdowns)[number];

export const deskReportQuerySchema = z
  .object({
    /** First and last day of the range (both included), in the portal's time zone. */
    from: dayString,
    to: dayString,
    /** Buckets of a day, or of an ISO week (Monday first; the range's ends cut the first and last). */
    granularity: z.enum(reportGranularities).default('day'),
    /** Filters on the ticket as it is now: its group, assigned agent (admins), company, type, priority. */
    group: extIdParam.optional(),
    agent: extIdParam.optional(),
    company: extIdParam.optional(),
    type: extIdParam.optional(),
    priority: z.enum(ticketPriorities).optional(),
    /** The range's figures per agent (admins), group, company or type besides the buckets. */
    breakdown: z.enum(reportBreakdowns).optional(),
  })
  .refine((q) => q.from <= q.to, { message: '`to` must not be before `from`', path: ['to'] })
  .refine((q) => daysBetween(q.from, q.to) < REPORT_RANGE_MAX_DAYS, {
    message: `a report covers at most ${REPORT_RANGE_MAX_DAYS} days`,
    path: ['to'],
  });
export type DeskReportQuery = z.input<typeof deskReportQuerySchema>;
/** The query as a route reads it, defaults applied. */
export type DeskReportQueryRead = z.output<typeof deskReportQuerySchema>;

const count = z.number().int().min(0);

export const reportRangeSchema = z.object({
  from: z.string(),
  to: z.string(),
  granularity: z.enum(reportGranularities),
  /** The portal's time zone, which the days are read in. */
  timeZone: z.string(),
});

/** A row of a breakdown: what it is grouped by (null id: none, as an unassigned ticket). */
export const reportKeySchema = z.object({ id: extIdSchema.nullable(), name: z.string() });
export type ReportKey = z.infer<typeof reportKeySchema>;

const breakdownOf = <T extends z.ZodRawShape>(row: T) =>
  z
    .object({
      by: z.enum(reportBreakdowns),
      rows: z.array(z.object({ key: reportKeySchema, ...row })),
      /** More rows than the answer holds (the largest are answered). */
      more: z.boolean(),
    })
    .nullable();

// --- created, solved, backlog

const volumeFigures = {
  /** Tickets created in the bucket. */
  created: count,
  /** Tickets solved (moved to a closing step) in the bucket and not reopened since. */
  solved: count,
  /** Tickets open at the end of the bucket (of the range, in a breakdown). */
  backlog: count,
};
export const volumeReportSchema = z.object({
  range: reportRangeSchema,
  buckets: z.array(z.object({ start: z.string(), ...volumeFigures })),
  totals: z.object({ created: count, solved: count, backlogAtStart: count, backlogAtEnd: count }),
  breakdown: breakdownOf(volumeFigures),
});
export type VolumeReport = z.infer<typeof volumeReportSchema>;

// --- first response and resolution times

/** Elapsed minutes of the tickets of a bucket, and the share of those with a target that met it. */
export const timeStatSchema = z.object({
  count,
  median: z.number().nullable(),
  p90: z.number().nullable(),
  /** Tickets that had a target (a due time from the service-level policy). */
  withTarget: count,
  /** … of which answered (solved) by their due time. */
  met: count,
});
export type TimeStat = z.infer<typeof timeStatSchema>;
const timeFigures = { firstResponse: timeStatSchema, resolution: timeStatSchema };
const targetSchema = z.object({ firstResponse: z.number().nullable(), resolution: z.number().nullable() });
export const timesReportSchema = z.object({
  range: reportRangeSchema,
  buckets: z.array(z.object({ start: z.string(), ...timeFigures })),
  totals: z.object(timeFigures),
  /** The policy's targets in business minutes per priority; `enabled` false: no due times are set. */
  targets: z.object({
    enabled: z.boolean(),
    low: targetSchema,
    normal: targetSchema,
    high: targetSchema,
    urgent: targetSchema,
  }),
  breakdown: breakdownOf(timeFigures),
});
export type TimesReport = z.infer<typeof timesReportSchema>;

// --- ratings

const ratingFigures = {
  count,
  average: z.number().nullable(),
  /** Ratings at or below the portal's low-rating threshold. */
  low: count,
};
export const ratingsReportSchema = z.object({
  range: reportRangeSchema,
  buckets: z.array(z.object({ start: z.string(), ...ratingFigures })),
  totals: z.object(ratingFigures),
  /** The portal's threshold of a low rating (0: none is low). */
  lowThreshold: z.number().int(),
  breakdown: breakdownOf(ratingFigures),
});
export type RatingsReport = z.infer<typeof ratingsReportSchema>;

const root = '/api/staff/portals/:company/reports';
const tags = ['staff: reports'];
const who =
  'Every member of the desk sees every ticket of the portal, so every report; the per-agent breakdown ' +
  'and the agent filter are the admins’ (403 `admin_required` for an agent). Filters apply to the ' +
  'tickets as they are now. Days in the portal’s time zone; at most 366 days.';
const csv = (what: string) =>
  binaryAnswer(
    `${what} as CSV (UTF-8 with BOM): the breakdown's rows when \`breakdown\` is given, the buckets otherwise`,
    'text/csv',
  );

export const deskReportRoutes = {
  volume: defineRoute({
    method: 'GET',
    path: `${root}/volume`,
    params: staffPortalParamsSchema,
    query: deskReportQuerySchema,
    responses: { 200: volumeReportSchema },
    access: { guard: 'staff' },
    tags,
    summary: 'Tickets created and solved per day or week, and the backlog at the end of each',
    description: who,
  }),
  volumeCsv: defineRoute({
    method: 'GET',
    path: `${root}/volume.csv`,
    params: staffPortalParamsSchema,
    query: deskReportQuerySchema,
    responses: { 200: csv('Created, solved and backlog') },
    access: { guard: 'staff' },
    tags,
    summary: 'The created / solved / backlog report as CSV',
    description: who,
  }),
  times: defineRoute({
    method: 'GET',
    path: `${root}/times`,
    params: staffPortalParamsSchema,
    query: deskReportQuerySchema,
    responses: { 200: timesReportSchema },
    access: { guard: 'staff' },
    tags,
    summary: 'First response and resolution times (median, p90) and the share that met its target',
    description:
      `${who} A ticket counts in the bucket of its first public answer from staff (first response) ` +
      'or of its close (resolution); times are elapsed minutes since its creation, the share met ' +
      'compares with its due times (business hours, holidays and pauses of the policy).',
  }),
  timesCsv: defineRoute({
    method: 'GET',
    path: `${root}/times.csv`,
    params: staffPortalParamsSchema,
    query: deskReportQuerySchema,
    responses: { 200: csv('First response and resolution times') },
    access: { guard: 'staff' },
    tags,
    summary: 'The times report as CSV',
    description: who,
  }),
  ratings: defineRoute({
    method: 'GET',
    path: `${root}/ratings`,
    params: staffPortalParamsSchema,
    query: deskReportQuerySchema,
    responses: { 200: ratingsReportSchema },
    access: { guard: 'staff' },
    tags,
    summary: "Customers' ratings per day or week: average, count, low ones",
    description: `${who} A rating counts on the day it was last given.`,
  }),
  ratingsCsv: defineRoute({
    method: 'GET',
    path: `${root}/ratings.csv`,
    params: staffPortalParamsSchema,
    query: deskReportQuerySchema,
    responses: { 200: csv('Ratings') },
    access: { guard: 'staff' },
    tags,
    summary: 'The ratings report as CSV',
    description: who,
  }),
};
