// Limits and error codes of the tickets area that the web's ticket pages need without zod (tickets.ts
// re-exports them).

/** `PUT …/tickets/{ticketid}/rating`: the longest comment of a rating. */
export const TICKET_RATING_COMMENT_MAX = 2000;

/** The longest ticket title. */
export const TICKET_TITLE_MAX = 255;

/** Stable error codes of the tickets area; the client maps them to translated texts. */
export const ticketErrorCodes = {
  /** 400, new ticket: title, description or type missing ('Please fill in all required fields'). */
  requiredFields: 'required_fields',
  /** 400: the type is not one of the portal's ticket types. */
  unknownTicketType: 'unknown_ticket_type',
  /** 400: the wiki element is not one of the company's. */
  unknownWikiElement: 'unknown_wiki_element',
  /** 400: an attachment id was not uploaded by this contact, or is already attached. */
  attachmentUnavailable: 'attachment_unavailable',
  /** 404: no such ticket among those the contact may open (never 403, so ids do not leak). */
  ticketNotFound: 'ticket_not_found',
  /** 400, reply: no text (markup and spaces do not count) and no attachment. */
  emptyComment: 'empty_comment',
  /** 409: the portal has no closing status step. */
  noClosingStep: 'no_closing_step',
  /** 400, colleagues: the contact id exists in several portals the user holds; add ?company=. */
  companyRequired: 'company_required',
  /** 409, rating: only a closed ticket can be rated. */
  ticketNotClosed: 'ticket_not_closed',
  /** 400, followers: a user id is not a colleague (a user holding a contact of the same company). */
  unknownColleague: 'unknown_colleague',
  /**
   * 409, a customer's reply, reopen, close, rating or followers: the ticket was merged into another
   * (its `mergedInto`, which the message names); the change belongs there.
   */
  ticketMerged: 'ticket_merged',
} as const;
