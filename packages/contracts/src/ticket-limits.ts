// Limits of the tickets area that the web's ticket page needs without zod (tickets.ts re-exports them).

/** `PUT …/tickets/{ticketid}/rating`: the longest comment of a rating. */
export const TICKET_RATING_COMMENT_MAX = 2000;
