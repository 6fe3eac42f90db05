/**
 * The limits a desk ticket's page checks as it is typed (tags, next activity) and its presence heartbeat,
 * without zod: the ticket page imports them, and staff.ts, which builds the schemas with them, would
 * bring zod and every staff schema into that page's chunk (most of its code on a phone's first load).
 */

/** A ticket tag's name (tickets' own tags, issue 28: not the contracts' catalogue). */
export const TICKET_TAG_NAME_MAX = 60;
export const TICKET_TAGS_MAX = 20;
export const NEXT_ACTIVITY_MAX = 1000;
/** The desk sends a presence heartbeat every this many seconds while a ticket is open. */
export const PRESENCE_HEARTBEAT_S = 10;
