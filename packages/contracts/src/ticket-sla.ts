// A ticket's service-level clock as the desk's inbox and ticket show it (issue 28 item 13; the policy's
// routes are in staff-sla.ts).
import { z } from 'zod';
import { isoDateTime } from './common';

/** A ticket's service-level clock as the desk shows it. */
export const ticketSlaSchema = z.object({
  firstResponseDueAt: isoDateTime.nullable(),
  /** When the first public answer from staff was written (the first-response target met or not). */
  firstRespondedAt: isoDateTime.nullable(),
  resolutionDueAt: isoDateTime.nullable(),
  /** The target the badge counts down to: the first response until answered, then the resolution. */
  nextDueAt: isoDateTime.nullable(),
  /** From this instant the badge says "soon": under one business hour or a quarter of the target left. */
  soonAt: isoDateTime.nullable(),
  /** The clock is stopped: the ticket waits for the customer. */
  paused: z.boolean(),
});
export type TicketSla = z.infer<typeof ticketSlaSchema>;
