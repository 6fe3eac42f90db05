/**
 * The staff inbox's views, without zod: the desk's inbox page uses them, and a module of the contracts
 * that builds schemas (staff.ts) would bring every schema of its file, and of the files it imports, and
 * zod with it (26 KB gzip before the inbox showed).
 */
export const inboxViews = ['unassigned', 'mine', 'groups', 'waiting', 'breaching', 'open', 'closed'] as const;
export type InboxView = (typeof inboxViews)[number];
// `breaching`: open tickets whose service-level clock runs and has under an hour or a quarter of its
// target left, or has passed it (issue 28 item 13).

/**
 * A ticket's priority, lowest first (stored as 0 … 3, so the inbox sorts by it). Every ticket has
 * one; `normal` until an agent says otherwise.
 */
export const ticketPriorities = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof ticketPriorities)[number];

/**
 * The inbox's orders: last activity (newest first), creation (newest first), priority (most urgent
 * first, then last activity), due date (soonest first, tickets without one last).
 */
export const inboxSorts = ['activity', 'created', 'priority', 'due', 'sla'] as const;
export type InboxSort = (typeof inboxSorts)[number];

/** The due-date filter: past due (and open), with a due date, without one. */
export const inboxDueFilters = ['overdue', 'set', 'none'] as const;
export type InboxDueFilter = (typeof inboxDueFilters)[number];
