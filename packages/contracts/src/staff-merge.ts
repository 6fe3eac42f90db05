/**
 * Merging a duplicate ticket into another, and the time agents spend on tickets (issue 28 items 8 and
 * 11). The rules are in docs/staff.md ("Merging tickets", "Time spent").
 */
import { z } from 'zod';
import { errorSchema, extIdParam, extIdSchema, int4, isoDateTime, rowIdSchema } from './common';
import { defineRoute } from './route';
import { MERGE_UNDO_HOURS, TIME_MINUTES_MAX, TIME_NOTE_MAX } from './staff-time-limits';

export { MERGE_UNDO_HOURS, TIME_MINUTES_MAX, TIME_NOTE_MAX };

export const staffMergeErrorCodes = {
  /** 400, merge: the target is the ticket itself. */
  mergeIntoItself: 'merge_into_itself',
  /** 409, merge: the source or the target is merged into another ticket already. */
  ticketMerged: 'ticket_merged',
  /** 409, merge: the two tickets are of different companies (one company's conversation stays its own). */
  mergeOtherCompany: 'merge_other_company',
  /** 409, undo: the ticket is not merged into another. */
  ticketNotMerged: 'ticket_not_merged',
  /** 409, undo: more than MERGE_UNDO_HOURS since the merge. */
  mergeUndoExpired: 'merge_undo_expired',
  /** 400, time: the comment is not one of this ticket's. */
  commentNotOnTicket: 'comment_not_on_ticket',
} as const;

// The path's ticket id, as the other staff ticket routes read it.
const ticketParams = z.object({ company: z.string().min(1).max(40), ticketid: extIdParam });

/** A ticket as the merge shows it: the back office's id, its number and title. */
export const mergeTicketRefSchema = z.object({
  id: z.number().int(),
  ticketNumber: z.string(),
  title: z.string(),
});
export type MergeTicketRef = z.infer<typeof mergeTicketRefSchema>;

/** `POST …/tickets/{ticketid}/merge`: merge this ticket (the source) into `targetId`. */
export const staffMergeRequestSchema = z.object({ targetId: extIdSchema });
export type StaffMergeRequest = z.infer<typeof staffMergeRequestSchema>;

export const staffMergeAnswerSchema = z.object({
  source: mergeTicketRefSchema,
  target: mergeTicketRefSchema,
  /** What moved from the source to the target (an undo moves back the same). */
  moved: z.object({
    comments: z.number().int(),
    attachments: z.number().int(),
    /** Time entries go with the conversation they were spent on (docs/staff.md, "Merging tickets"). */
    timeEntries: z.number().int(),
    followers: z.number().int(),
  }),
  mergedAt: isoDateTime,
  /** Until when a portal admin may undo it. */
  undoUntil: isoDateTime,
  /** Set on the answer of an undo. */
  undoneAt: isoDateTime.nullable(),
});
export type StaffMergeAnswer = z.infer<typeof staffMergeAnswerSchema>;

/** `GET …/tickets/{ticketid}/merge`: whether the ticket is merged into another, and what was merged into it. */
export const staffMergeStateSchema = z.object({
  mergedInto: z
    .object({
      ticket: mergeTicketRefSchema,
      mergedAt: isoDateTime,
      mergedBy: z.string(),
      undoUntil: isoDateTime,
      /** The caller is a portal admin and the undo's time has not run out. */
      canUndo: z.boolean(),
    })
    .nullable(),
  /** Tickets merged into this one (not undone), oldest first; at most MERGED_FROM_MAX. */
  mergedFrom: z.array(
    z.object({ ticket: mergeTicketRefSchema, mergedAt: isoDateTime, mergedBy: z.string() }),
  ),
});
export type StaffMergeState = z.infer<typeof staffMergeStateSchema>;
export const MERGED_FROM_MAX = 50;

// --- Time spent ---

/** Entries a ticket's time answer lists (newest first); the sums count them all. */
export const TIME_ENTRIES_MAX = 200;

/** Minutes spent, as a reply or note logs them too (`time` of the comment request). */
export const timeSpentSchema = z.object({
  minutes: int4(1, TIME_MINUTES_MAX),
  billable: z.boolean(),
});
export type TimeSpent = z.infer<typeof timeSpentSchema>;

/** `POST …/tickets/{ticketid}/time`: time logged without a comment, or on one of the ticket's comments. */
export const staffTimeRequestSchema = timeSpentSchema.extend({
  note: z.string().trim().max(TIME_NOTE_MAX).optional(),
  /** A comment of this ticket the time belongs to (its id as the conversation answers it). */
  commentId: extIdSchema.optional(),
});
export type StaffTimeRequest = z.input<typeof staffTimeRequestSchema>;

export const timeEntrySchema = z.object({
  id: rowIdSchema,
  minutes: z.number().int(),
  billable: z.boolean(),
  note: z.string(),
  commentId: z.number().int().nullable(),
  by: z.string(),
  loggedAt: isoDateTime,
});
export type TimeEntry = z.infer<typeof timeEntrySchema>;

/** An hour bank of the ticket's company (an active activity contract in hours), as the back office last sent it. */
export const hourBankSchema = z.object({
  contractId: z.number().int(),
  name: z.string(),
  hoursMinutes: z.number().int(),
  usedMinutes: z.number().int(),
  /** hoursMinutes minus usedMinutes (negative when overrun); Sportello never changes it. */
  balanceMinutes: z.number().int(),
  end: isoDateTime.nullable(),
});
export type HourBank = z.infer<typeof hourBankSchema>;

export const staffTimeAnswerSchema = z.object({
  totalMinutes: z.number().int(),
  billableMinutes: z.number().int(),
  /** Entries of the ticket in all (what a merge would move): `entries` lists TIME_ENTRIES_MAX at most. */
  entryCount: z.number().int(),
  entries: z.array(timeEntrySchema),
  hourBanks: z.array(hourBankSchema),
});
export type StaffTimeAnswer = z.infer<typeof staffTimeAnswerSchema>;

const ticketPath = '/api/staff/portals/:company/tickets/:ticketid';
const conflict = { 400: errorSchema, 404: errorSchema, 409: errorSchema };

export const staffMergeRoutes = {
  state: defineRoute({
    method: 'GET',
    path: `${ticketPath}/merge`,
    params: ticketParams,
    responses: { 200: staffMergeStateSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Whether the ticket is merged into another, and the tickets merged into it',
  }),
  merge: defineRoute({
    method: 'POST',
    path: `${ticketPath}/merge`,
    params: ticketParams,
    body: staffMergeRequestSchema,
    responses: { 200: staffMergeAnswerSchema, ...conflict },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Merge this ticket (a duplicate) into another ticket of the same company',
    description:
      "The source's comments, attachments and time entries move to the target in time order (authors, " +
      "dates and visibility kept), the source's followers follow the target, the source is closed with a note on " +
      'both, its customers are e-mailed in their language, `ticket.merged` is emitted for both tickets. ' +
      'One transaction. 400 merge_into_itself; 404 ticket_not_found (either ticket, not of the portal); ' +
      '409 ticket_merged (either is merged already) / merge_other_company.',
  }),
  undo: defineRoute({
    method: 'POST',
    path: `${ticketPath}/merge/undo`,
    params: ticketParams,
    responses: { 200: staffMergeAnswerSchema, ...conflict },
    access: { guard: 'staff', role: 'admin' },
    tags: ['staff'],
    summary: 'Undo the merge of this ticket (portal admins, within MERGE_UNDO_HOURS)',
    description:
      'Moves back exactly what the merge moved, removes the followers it added, reopens the source at its ' +
      'step before the merge; `ticket.merge_undone` for both tickets. 409 ticket_not_merged / ' +
      'merge_undo_expired / ticket_merged (the target was merged into a third ticket since).',
  }),
  time: defineRoute({
    method: 'GET',
    path: `${ticketPath}/time`,
    params: ticketParams,
    responses: { 200: staffTimeAnswerSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "Time spent on the ticket: entries, totals, the company's hour banks",
  }),
  logTime: defineRoute({
    method: 'POST',
    path: `${ticketPath}/time`,
    params: ticketParams,
    body: staffTimeRequestSchema,
    responses: { 201: timeEntrySchema, 400: errorSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Log minutes spent on the ticket (1 to 1440, billable or not), alone or on a comment',
    description:
      '`ticket.time_logged` is emitted for the back office, which owns the hour bank and draws it down; ' +
      "Sportello never changes a contract's balance. 400 comment_not_on_ticket.",
  }),
};
