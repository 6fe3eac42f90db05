// Schemas of the tickets area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { TICKET_RATING_COMMENT_MAX, TICKET_TITLE_MAX, ticketErrorCodes } from './ticket-limits';
import {
  dayOrMinuteString,
  dayString,
  errorSchema,
  extIdParam,
  extIdSchema,
  isoDateTime,
  rowIdSchema,
  tenantParams,
  uploadResultSchema,
} from './common';
import { portalParamsSchema } from './portals';
import { defineRoute } from './route';

/** A8: the answer to a new ticket without title, description or type. */
export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';

/** At most this many files per ticket or comment. */
export const MAX_ATTACHMENTS = 20;
export const TICKET_DESCRIPTION_MAX = 500_000;
/**
 * Body limit of the new ticket and comment routes: TICKET_DESCRIPTION_MAX characters of HTML, each of
 * which JSON may spell as `\uXXXX` (6 bytes), plus room for the other fields.
 */
export const TICKET_BODY_LIMIT = TICKET_DESCRIPTION_MAX * 6 + 64 * 1024;

/** `{company}/{contactid}/tickets/{ticketid}` params; `ticketid` is the back office's ticket id. */
export const ticketParamsSchema = tenantParams.extend({ ticketid: extIdParam });

/**
 * `GET …/tickets` query. `from` is a day (start of it), `to` a day (end of it) or `YYYY-MM-DD HH:mm`,
 * both in the portal's time zone. `wikiFilter` is a wiki element id (needs viewContactWiki).
 */
export const ticketListQuerySchema = z.object({
  from: dayString.optional(),
  to: dayOrMinuteString.optional(),
  wikiFilter: extIdParam.optional(),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;

/** `GET …/tickets/all` query: as the list, plus `webUserIds`, a comma list of colleagues' `webUserId`. */
export const allTicketsQuerySchema = ticketListQuerySchema.extend({
  webUserIds: z
    .string()
    .regex(/^\s*\d{1,15}(\s*,\s*\d{1,15})*\s*$/, 'expected a comma list of user ids')
    .optional(),
});
export type AllTicketsQuery = z.infer<typeof allTicketsQuerySchema>;

/**
 * A type's or step's name per language, when the back office gives them (docs/fixture-format.md): the
 * screens show the one of the user's language, else `name`.
 */
export const localizedNamesSchema = z
  .object({ 'it-IT': z.string(), 'en-EN': z.string(), 'es-ES': z.string() })
  .partial()
  .nullish();
export type LocalizedNames = z.infer<typeof localizedNamesSchema>;

export const taskTypeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  names: localizedNamesSchema,
  color: z.string().nullable(),
});
export type TaskType = z.infer<typeof taskTypeSchema>;

/** `GET /api/settings/{company}/tickets/types`: one ticket type (A3: id, name; plus its colour). */
export const ticketTypeSchema = taskTypeSchema;
export type TicketType = TaskType;
export const ticketTypeListSchema = z.array(ticketTypeSchema);

/** The status step; `taskStatus` 2 means closed (the open filter hides those). */
export const taskStatusSchema = z.object({
  step: z.object({
    id: z.number().int(),
    name: z.string(),
    names: localizedNamesSchema,
    taskStatus: z.number().int(),
  }),
});
export type TaskStatus = z.infer<typeof taskStatusSchema>;

/** Who opened the ticket from the portal; null when an agent opened it ('created by agent'). */
export const creatorContactWebUserSchema = z.object({
  contactId: z.number().int(),
  referentName: z.string(),
  companyName: z.string(),
});
export type CreatorContactWebUser = z.infer<typeof creatorContactWebUserSchema>;

/** The latest activity report of a ticket; present only when the contact has viewContactActivityReports. */
export const ticketActivityReportSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  dateTime: isoDateTime,
  /** Signed, expiring URL of the report document. */
  documentUrl: z.string(),
});
export type TicketActivityReport = z.infer<typeof ticketActivityReportSchema>;

export const ticketWikiElementSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  folderName: z.string(),
});

/** One row of my tickets / all tickets (newest first). */
export const ticketListItemSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  ticketNumber: z.string(),
  /** The number badge shows when above 0. */
  internalAnnualProgressive: z.number().int(),
  createdOn: isoDateTime,
  taskType: taskTypeSchema,
  taskStatus: taskStatusSchema,
  nextPlannedActivityInfo: z.string().nullable(),
  creatorContactWebUser: creatorContactWebUserSchema.nullable(),
  activityReport: ticketActivityReportSchema.nullable(),
  wikiElement: ticketWikiElementSchema.nullable(),
  /** The last public message is the staff's and the ticket is open: the customer's turn (issue 13). */
  waitingOnCustomer: z.boolean(),
  /** The newest of the creation and the public messages (internal notes do not count): sort key. */
  lastActivityAt: isoDateTime,
});
export type TicketListItem = z.infer<typeof ticketListItemSchema>;
export const ticketListSchema = z.array(ticketListItemSchema);

/** A file attached to a ticket or comment; `url` is signed. Images: names ending jpg, png, jpeg, bmp. */
export const attachmentSchema = z.object({ id: z.number().int(), name: z.string(), url: z.string() });
export type Attachment = z.infer<typeof attachmentSchema>;

/**
 * The portal user who wrote a comment (or who holds the sender contact). The client shows 'you' when
 * `webUser.id` is the current user's id. `webUser` is null when no user holds the contact.
 */
export const senderContactWebUserSchema = z.object({
  webUser: z.object({ id: z.number().int(), userName: z.string() }).nullable(),
  referentName: z.string(),
});
/** An agent who wrote a comment: display name and a signed profile image URL (or null: show the initial). */
export const senderUserSchema = z.object({
  displayName: z.string(),
  hasProfileImage: z.boolean(),
  profileImage: z.string().nullable(),
});

/**
 * Where a comment came in: the portal, the staff desk, the integration API or an e-mail (issue 26); null
 * for comments imported from the back office.
 */
export const commentChannelSchema = z.enum(['portal', 'desk', 'api', 'email']).nullable();
export type CommentChannelValue = z.infer<typeof commentChannelSchema>;

export const ticketCommentSchema = z.object({
  id: z.number().int(),
  /** Sanitised HTML. */
  message: z.string(),
  creationDate: isoDateTime,
  senderContactWebUser: senderContactWebUserSchema.nullable(),
  senderUser: senderUserSchema.nullable(),
  attachments: z.array(attachmentSchema),
  /** Optional only so that answers written before it (fixtures) stay valid; this server always sends it. */
  channel: commentChannelSchema.optional(),
});
export type TicketComment = z.infer<typeof ticketCommentSchema>;

/** `PUT …/tickets/{ticketid}/rating`: 1 to 5 and an optional comment; once per ticket, changeable. */
export const ticketRatingRequestSchema = z.object({
  rating: z.number().int().min(1).max(5),
  comment: z.string().max(TICKET_RATING_COMMENT_MAX).optional(),
});
export type TicketRatingRequest = z.infer<typeof ticketRatingRequestSchema>;
export const ticketRatingSchema = z.object({
  rating: z.number().int().min(1).max(5),
  comment: z.string(),
  ratedAt: isoDateTime,
});
export type TicketRating = z.infer<typeof ticketRatingSchema>;

/**
 * A public change of the ticket shown in the conversation (issue 13): its step changed, it was closed
 * or reopened. Oldest first. `by.kind`: `agent` (staff or back office), `contact`, `system` (import).
 */
export const ticketTimelineEntrySchema = z.object({
  id: z.number().int(),
  at: isoDateTime,
  kind: z.enum(['step', 'closed', 'reopened']),
  fromStep: z.object({ id: z.number().int().nullable(), name: z.string() }).nullable(),
  toStep: z.object({ id: z.number().int().nullable(), name: z.string() }).nullable(),
  by: z.object({ kind: z.enum(['agent', 'contact', 'system']), name: z.string() }),
});
export type TicketTimelineEntry = z.infer<typeof ticketTimelineEntrySchema>;

/** `GET …/tickets/{ticketid}`: the ticket with its original description and conversation (oldest first). */
export const ticketDetailSchema = ticketListItemSchema.extend({
  /** Sanitised HTML, shown as the first message 'from you'. */
  description: z.string(),
  /**
   * The display name of the agent who opened the ticket for the contact (a customer who phoned), or
   * null. Optional only so that answers written before it (fixtures) stay valid.
   */
  openedBy: z.string().nullable().optional(),
  /** Files attached when the ticket was opened. */
  attachments: z.array(attachmentSchema),
  assignedGroup: z.object({ name: z.string() }).nullable(),
  assignedUser: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
  /** True when the status step has taskStatus 2 (closed). */
  isClosed: z.boolean(),
  comments: z.array(ticketCommentSchema),
  /**
   * Public changes (step, closed, reopened), oldest first; the web merges them with the comments. This
   * server always sends it; optional only so that answers written before it (fixtures) stay valid.
   */
  timeline: z.array(ticketTimelineEntrySchema).optional(),
  /** The customer's rating (closed tickets), or null. */
  rating: ticketRatingSchema.nullable(),
  /**
   * The ticket was merged into another (issue 28): its number, and whether this contact may open it
   * (`reachable`: then the page links to it). Absent on answers other than the detail's.
   */
  mergedInto: z
    .object({ id: z.number().int(), ticketNumber: z.string(), reachable: z.boolean() })
    .nullable()
    .optional(),
});
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

/**
 * `POST …/tickets` → 201 TicketDetail. Title, description and type are required (blank → 400
 * `required_fields`); the description is HTML (or plain text) and is sanitised by the server.
 * `attachments` are ids answered by `POST …/documents/upload`, each usable once by its uploader.
 */
export const newTicketRequestSchema = z.object({
  title: z
    .string()
    .max(TICKET_TITLE_MAX)
    .refine((s) => s.trim() !== '', {
      message: REQUIRED_FIELDS_MESSAGE,
      params: { code: 'required_fields' },
    }),
  /** null is accepted by the shape (the form sends it when nothing is chosen) and refused as required. */
  taskTypeId: extIdSchema
    .nullable()
    .refine((v) => v !== null, { message: REQUIRED_FIELDS_MESSAGE, params: { code: 'required_fields' } }),
  description: z.string().max(TICKET_DESCRIPTION_MAX),
  wikiElementId: extIdSchema.nullable().optional(),
  attachments: z.array(rowIdSchema).max(MAX_ATTACHMENTS).optional(),
});
export type NewTicketRequest = z.infer<typeof newTicketRequestSchema>;

/**
 * `POST …/Comments` → 201 TicketComment. `message` is sanitised HTML; a reply needs text or an attachment
 * (400 `empty_comment`). A reply to a closed ticket reopens it. `commentType` is always 0. The e-mail reply fields are accepted for compatibility with A7 and are not used: replies
 * by e-mail are sent by the back office, never relayed by the portal.
 */
export const newCommentRequestSchema = z.object({
  taskId: extIdSchema,
  message: z.string().max(TICKET_DESCRIPTION_MAX),
  commentType: z.literal(0).optional(),
  ticketEmailReply_Recipient: z.string().max(320).nullable().optional(),
  ticketEmailReply_CCList: z
    .union([z.string().max(4000), z.array(z.string().max(320)).max(50)])
    .nullable()
    .optional(),
  attachments: z.array(rowIdSchema).max(MAX_ATTACHMENTS).optional(),
});
export type NewCommentRequest = z.infer<typeof newCommentRequestSchema>;

/** `GET /api/users/{contactid}/colleagues`: other users holding a contact of the same company. */
export const colleagueSchema = z.object({
  /** A users' id: the value to put in `webUserIds`. */
  webUserId: z.number().int(),
  referentName: z.string(),
});
export type Colleague = z.infer<typeof colleagueSchema>;
export const colleagueListSchema = z.array(colleagueSchema);
export const colleaguesParamsSchema = z.object({ contactid: extIdParam });
/**
 * `company` is needed only when the user holds that contact id in more than one portal
 * (400 `company_required` otherwise); the web app always sends it.
 */
export const colleaguesQuerySchema = z.object({ company: z.string().min(1).max(40).optional() });

// --- Following a ticket (issue 16) ---

/** `GET …/tickets/unread`: the tickets of the caller's lists with a public message they have not read. */
export const unreadTicketsSchema = z.object({ ticketIds: z.array(z.number().int()) });
export type UnreadTickets = z.infer<typeof unreadTicketsSchema>;

/** `GET/PUT …/tickets/{ticketid}/followers`: who follows, and who could (colleagues of the company). */
export const MAX_FOLLOWERS = 50;
export const ticketFollowersSchema = z.object({
  followers: colleagueListSchema,
  candidates: colleagueListSchema,
});
export type TicketFollowers = z.infer<typeof ticketFollowersSchema>;
export const ticketFollowersRequestSchema = z.object({
  webUserIds: z.array(rowIdSchema).max(MAX_FOLLOWERS),
});
export type TicketFollowersRequest = z.infer<typeof ticketFollowersRequestSchema>;

// --- Routes (see route.ts) ---

const uploadDescription =
  'multipart/form-data with one field `file` (at most MAX_UPLOAD_MB, else 413 and nothing is kept). ' +
  'The answered id can be listed once, by the same contact, in `attachments` of a new ticket or comment. ' +
  '429 too_many_pending_uploads (20 files or 4 × MAX_UPLOAD_MB not attached yet) or too_many_uploads (200 ' +
  'files or 40 × MAX_UPLOAD_MB in 24 hours, attached or not), with Retry-After.';

export const ticketRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/tickets',
    params: tenantParams,
    query: ticketListQuerySchema,
    responses: { 200: ticketListSchema },
    access: { guard: 'tenant', flag: 'manageTickets' },
    tags: ['tickets'],
    summary: 'My tickets: the tickets of the company created by this contact, newest first',
    description: 'Also used without query by the header search, which filters by title.',
  }),
  all: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/tickets/all',
    params: tenantParams,
    query: allTicketsQuerySchema,
    responses: { 200: ticketListSchema },
    access: { guard: 'tenant', flag: 'administrator' },
    tags: ['tickets'],
    summary: "All tickets of the contact's company (administrators), newest first",
  }),
  detail: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/tickets/:ticketid',
    params: ticketParamsSchema,
    responses: { 200: ticketDetailSchema, 404: errorSchema },
    access: { guard: 'tenant', flag: ['manageTickets', 'administrator'] },
    tags: ['tickets'],
    summary: 'Ticket detail with description, attachments and conversation',
    description: 'Administrators open any ticket of the company, other contacts their own (else 404).',
  }),
  create: defineRoute({
    method: 'POST',
    bodyLimit: TICKET_BODY_LIMIT,
    path: '/api/:company/:contactid/tickets',
    params: tenantParams,
    body: newTicketRequestSchema,
    responses: { 201: ticketDetailSchema, 409: errorSchema },
    access: { guard: 'tenant', flag: 'manageTickets' },
    tags: ['tickets'],
    summary: 'Open a ticket (status: the portal default step)',
  }),
  close: defineRoute({
    method: 'POST',
    path: '/api/:company/:contactid/tickets/:ticketid/close',
    params: ticketParamsSchema,
    responses: { 200: ticketDetailSchema, 404: errorSchema, 409: errorSchema },
    access: { guard: 'tenant', flag: 'manageTickets' },
    tags: ['tickets'],
    summary: "Close a ticket: moves it to the portal's closing step (idempotent)",
    description:
      '409 `no_closing_step` when the portal has none; 409 `ticket_merged` when the ticket was merged into another (the message names it).',
  }),
  reopen: defineRoute({
    method: 'POST',
    path: '/api/:company/:contactid/tickets/:ticketid/reopen',
    params: ticketParamsSchema,
    responses: { 200: ticketDetailSchema, 404: errorSchema, 409: errorSchema },
    access: { guard: 'tenant', flag: 'manageTickets' },
    tags: ['tickets'],
    summary: "Reopen a closed ticket: moves it to the portal's default step (idempotent)",
    description: '409 `ticket_merged` when the ticket was merged into another (the message names it).',
  }),
  rate: defineRoute({
    method: 'PUT',
    path: '/api/:company/:contactid/tickets/:ticketid/rating',
    params: ticketParamsSchema,
    body: ticketRatingRequestSchema,
    responses: { 200: ticketRatingSchema, 404: errorSchema, 409: errorSchema },
    access: { guard: 'tenant', flag: 'manageTickets' },
    tags: ['tickets'],
    summary: 'Rate a closed ticket (1–5 and a comment); a new rating replaces the last one',
    description:
      'Each rating is sent to the back office as a `ticket.rated` event. 409 ticket_not_closed;' +
      ' 409 `ticket_merged` when the ticket was merged into another (the message names it).',
  }),
  unread: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/tickets/unread',
    params: tenantParams,
    responses: { 200: unreadTicketsSchema },
    access: { guard: 'tenant', flag: ['manageTickets', 'administrator'] },
    tags: ['tickets'],
    summary: "Ids of the caller's tickets whose newest public message is someone else's and unread",
  }),
  markRead: defineRoute({
    method: 'POST',
    path: '/api/:company/:contactid/tickets/:ticketid/read',
    params: ticketParamsSchema,
    responses: { 204: null, 404: errorSchema },
    access: { guard: 'tenant', flag: ['manageTickets', 'administrator'] },
    tags: ['tickets'],
    summary: 'Mark a ticket read by the signed-in user',
  }),
  followers: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/tickets/:ticketid/followers',
    params: ticketParamsSchema,
    responses: { 200: ticketFollowersSchema, 404: errorSchema },
    access: { guard: 'tenant', flag: ['manageTickets', 'administrator'] },
    tags: ['tickets'],
    summary: "The ticket's followers and the colleagues who could follow it",
  }),
  setFollowers: defineRoute({
    method: 'PUT',
    path: '/api/:company/:contactid/tickets/:ticketid/followers',
    params: ticketParamsSchema,
    body: ticketFollowersRequestSchema,
    responses: { 200: ticketFollowersSchema, 404: errorSchema, 409: errorSchema },
    access: { guard: 'tenant', flag: 'manageTickets' },
    tags: ['tickets'],
    summary: "Set the ticket's followers: colleagues who may open it and get its e-mails",
    description:
      'Every id must be a colleague (a user holding a contact of the company), else 400 unknown_colleague.' +
      ' 409 `ticket_merged` when the ticket was merged into another (the message names it).',
  }),
  comment: defineRoute({
    method: 'POST',
    bodyLimit: TICKET_BODY_LIMIT,
    path: '/api/:company/:contactid/comments',
    params: tenantParams,
    body: newCommentRequestSchema,
    responses: { 201: ticketCommentSchema, 404: errorSchema, 409: errorSchema },
    access: { guard: 'tenant', flag: 'manageTickets' },
    tags: ['tickets'],
    summary: 'Add a comment to a ticket (A7: POST …/Comments)',
  }),
  uploadTicketAttachment: defineRoute({
    method: 'POST',
    path: '/api/:company/:contactid/documents/upload',
    params: tenantParams,
    bodyKind: 'multipart',
    responses: { 201: uploadResultSchema },
    access: { guard: 'tenant', flag: 'manageTickets' },
    tags: ['tickets'],
    summary: 'Upload a ticket attachment',
    description: uploadDescription,
  }),
  uploadCommentAttachment: defineRoute({
    method: 'POST',
    path: '/api/:company/:contactid/comments/attachments',
    params: tenantParams,
    bodyKind: 'multipart',
    responses: { 201: uploadResultSchema },
    access: { guard: 'tenant', flag: 'manageTickets' },
    tags: ['tickets'],
    summary: 'Upload a comment attachment',
    description: uploadDescription,
  }),
  colleagues: defineRoute({
    method: 'GET',
    path: '/api/users/:contactid/colleagues',
    params: colleaguesParamsSchema,
    query: colleaguesQuerySchema,
    responses: { 200: colleagueListSchema },
    access: { guard: 'contact', flag: 'administrator' },
    tags: ['tickets'],
    summary: 'Other users holding a contact of the same company (the all-tickets user filter)',
    description:
      "The contact is looked up among the caller's contacts; when the caller holds that contact id in " +
      'several portals, `company` is required (400 company_required).',
  }),
  types: defineRoute({
    method: 'GET',
    path: '/api/settings/:company/tickets/types',
    params: portalParamsSchema,
    responses: { 200: ticketTypeListSchema },
    access: { guard: 'portal' },
    tags: ['tickets'],
    summary: "The portal's ticket types",
  }),
};

export { TICKET_RATING_COMMENT_MAX, TICKET_TITLE_MAX, ticketErrorCodes };
