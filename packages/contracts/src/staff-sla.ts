// Service levels (issue 28 item 13): a portal's business hours, holidays and targets per priority. The
// due times a ticket carries are computed on the server from these (docs/staff.md, "Service levels").
import { z } from 'zod';
import { dayString, int4, isoDateTime } from './common';
import { defineRoute } from './route';
import { staffPortalParamsSchema } from './staff';
import { ticketPriorities } from './staff-views';

/** At most this many opening intervals a weekday (morning, afternoon, evening shifts…). */
export const SLA_INTERVALS_PER_DAY_MAX = 6;
/** At most this many holidays in a policy (several years of a country's). */
export const SLA_HOLIDAYS_MAX = 200;
/** A target is at most a year of business minutes. */
export const SLA_TARGET_MAX_MINUTES = 525_600;

/** `HH:mm` (00:00 … 23:59) or `24:00`, the end of the day. */
const wallTime = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'expected HH:mm (00:00 … 24:00)');

/** An opening interval of a day, `[from, to]`, `to` after `from`. */
export const slaIntervalSchema = z
  .tuple([wallTime, wallTime])
  .refine(([from, to]) => from < to, 'the interval must end after it starts');

/** A weekday's intervals: none (closed) or several, not overlapping. */
const slaDaySchema = z
  .array(slaIntervalSchema)
  .max(SLA_INTERVALS_PER_DAY_MAX)
  .refine((day) => {
    const sorted = [...day].sort((a, b) => a[0].localeCompare(b[0]));
    return sorted.every((iv, i) => i === 0 || sorted[i - 1]![1] <= iv[0]);
  }, 'the intervals of a day must not overlap');

/** Business minutes to the first public answer and to the close; null: no target. */
const slaTargetSchema = z.object({
  firstResponse: int4(1, SLA_TARGET_MAX_MINUTES).nullable(),
  resolution: int4(1, SLA_TARGET_MAX_MINUTES).nullable(),
});
export type SlaTarget = z.infer<typeof slaTargetSchema>;

export const slaPolicyInputSchema = z.object({
  /** Off: tickets get no due times (those they have stay until recomputed). */
  enabled: z.boolean(),
  /** Seven days, Sunday first (0 Sunday … 6 Saturday, as `weekdayOf`). */
  hours: z.array(slaDaySchema).length(7),
  /** Closed days, `YYYY-MM-DD` in the portal's time zone. */
  holidays: z
    .array(dayString)
    .max(SLA_HOLIDAYS_MAX)
    .refine((d) => new Set(d).size === d.length, 'each holiday once'),
  targets: z.object(
    Object.fromEntries(ticketPriorities.map((p) => [p, slaTargetSchema])) as Record<
      (typeof ticketPriorities)[number],
      typeof slaTargetSchema
    >,
  ),
});
export type SlaPolicyInput = z.infer<typeof slaPolicyInputSchema>;

export const slaPolicySchema = slaPolicyInputSchema.extend({
  /** The portal's time zone, which the hours and holidays are read in (set in the portal's settings). */
  timeZone: z.string(),
  /** Null until an admin saved the policy (the answer is then the default one, disabled). */
  updatedAt: isoDateTime.nullable(),
});
export type SlaPolicy = z.infer<typeof slaPolicySchema>;

export { ticketSlaSchema, type TicketSla } from './ticket-sla';

const root = '/api/staff/portals/:company/admin/sla';

export const staffSlaRoutes = {
  get: defineRoute({
    method: 'GET',
    path: root,
    params: staffPortalParamsSchema,
    responses: { 200: slaPolicySchema },
    access: { guard: 'staff' },
    tags: ['staff: admin'],
    summary: "The portal's service-level policy: business hours, holidays, targets per priority",
  }),
  put: defineRoute({
    method: 'PUT',
    path: root,
    params: staffPortalParamsSchema,
    body: slaPolicyInputSchema,
    responses: { 200: slaPolicySchema },
    access: { guard: 'staff', role: 'admin' },
    tags: ['staff: admin'],
    summary: "Replace the portal's service-level policy (admins); new due times follow it",
  }),
};
