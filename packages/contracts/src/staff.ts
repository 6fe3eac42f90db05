// Schemas of the staff desk (issue 13): staff accounts and their sign-in. Staff are not contacts:
// their sessions are separate (a contact token is refused on every staff route, a staff token on every
// contact route), and a staff user sees only the portals they belong to.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, sessionAnswerSchema } from './auth';
import {
  dateTimeInput,
  dayOrMinuteString,
  dayString,
  errorSchema,
  extIdParam,
  extIdSchema,
  isoDateTime,
  rowIdParam,
  rowIdSchema,
  uploadResultSchema,
} from './common';
import { defineRoute } from './route';
import { timeSpentSchema } from './staff-merge';
import { NEXT_ACTIVITY_MAX, TICKET_TAG_NAME_MAX, TICKET_TAGS_MAX } from './staff-ticket-limits';
import { inboxDueFilters, inboxSorts, inboxViews, ticketPriorities } from './staff-views';
import { ticketSlaSchema } from './ticket-sla';
import {
  MAX_ATTACHMENTS,
  TICKET_BODY_LIMIT,
  TICKET_DESCRIPTION_MAX,
  attachmentSchema,
  commentChannelSchema,
} from './tickets';

export const staffRoleSchema = z.enum(['agent', 'admin']);
export type StaffRole = z.infer<typeof staffRoleSchema>;

// The staff area's error codes are in their own module: the portal's first load maps one of them (a
// disabled account) and must not carry the staff schemas with it.
export { staffErrorCodes } from './staff-errors';

const email = z.string().trim().min(3).max(320);

/** The name customers see as the author of an agent's replies (issue 28). */
export const STAFF_DISPLAY_NAME_MAX = 120;
export const staffDisplayNameSchema = z.string().trim().min(1).max(STAFF_DISPLAY_NAME_MAX);

export const staffLoginRequestSchema = z.object({
  email,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});
export type StaffLoginRequest = z.infer<typeof staffLoginRequestSchema>;

export const staffPortalSchema = z.object({
  /** The portal key (route value `{company}`). */
  webPortalKey: z.string(),
  webPortalName: z.string(),
  role: staffRoleSchema,
});
export type StaffPortal = z.infer<typeof staffPortalSchema>;

/** `GET /api/staff/me`: the signed-in staff user and the portals they belong to (and nothing else). */
export const staffMeAnswerSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  displayName: z.string(),
  portals: z.array(staffPortalSchema),
});
export type StaffMeAnswer = z.infer<typeof staffMeAnswerSchema>;

export const staffLinkParamsSchema = z.object({ token: z.string().min(1).max(200) });
/** What a staff invitation or recovery link is for; 404 link_invalid, 410 link_expired. */
export const staffLinkAnswerSchema = z.object({
  purpose: z.enum(['invite', 'recovery']),
  email: z.string(),
  displayName: z.string(),
  webPortalKey: z.string(),
});
export type StaffLinkAnswer = z.infer<typeof staffLinkAnswerSchema>;

/** Sets the password from a staff invitation or recovery link (server checks length and equality). */
export const staffConfirmRequestSchema = z.object({
  token: z.string().min(1).max(200),
  password: z.string().max(PASSWORD_MAX_LENGTH),
  passwordRepeat: z.string().max(PASSWORD_MAX_LENGTH),
});
export type StaffConfirmRequest = z.infer<typeof staffConfirmRequestSchema>;

export const staffRecoveryRequestSchema = z.object({
  email,
  /** The portal whose branded staff page the mailed link opens. */
  company: z.string().trim().min(1).max(40),
});
export type StaffRecoveryRequest = z.infer<typeof staffRecoveryRequestSchema>;
export const staffRecoveryAnswerSchema = z.object({ status: z.literal('sent') });

export const staffSessionAnswerSchema = sessionAnswerSchema;
export type StaffSessionAnswer = z.infer<typeof staffSessionAnswerSchema>;

export const staffPortalParamsSchema = z.object({ company: z.string().min(1).max(40) });

// The limits the desk's ticket page checks, without zod (staff-ticket-limits.ts): that page uses them.
export {
  NEXT_ACTIVITY_MAX,
  PRESENCE_HEARTBEAT_S,
  TICKET_TAG_NAME_MAX,
  TICKET_TAGS_MAX,
} from './staff-ticket-limits';

// --- Inbox ---

// The views are in their own module, without zod (staff-views.ts): the desk's inbox uses them.
export {
  inboxDueFilters,
  inboxSorts,
  inboxViews,
  ticketPriorities,
  type InboxDueFilter,
  type InboxSort,
  type InboxView,
  type TicketPriority,
} from './staff-views';
export const inboxViewSchema = z.enum(inboxViews);
export const ticketPrioritySchema = z.enum(ticketPriorities);
export const inboxSortSchema = z.enum(inboxSorts);

/** A ticket tag's name (tickets' own tags, issue 28: not the contracts' catalogue). */
export const ticketTagNameSchema = z.string().trim().min(1).max(TICKET_TAG_NAME_MAX);

/**
 * Counts stop at this many (a count of a million closed tickets is slow and says nothing more). Every
 * inbox page carries them: at 10,000 they cost a page of a million-ticket portal 29 ms, more than the
 * page (bench/RESULTS.md, "Search and inbox at a million tickets"); the desk shows "1,000+".
 */
export const INBOX_COUNT_CAP = 1_000;
export const INBOX_PAGE_MAX = 100;

export const inboxRatingFilterSchema = z.enum(['any', 'low']);

/**
 * `GET /api/staff/portals/{company}/tickets`: one page of a view, newest activity first. Every filter
 * is optional and ANDed; ids are the back office's. `cursor` is the `nextCursor` of the previous page.
 */
export const inboxQuerySchema = z.object({
  view: inboxViewSchema.default('open'),
  company: extIdParam.optional(),
  contact: extIdParam.optional(),
  type: extIdParam.optional(),
  step: extIdParam.optional(),
  group: extIdParam.optional(),
  /** An agent id; `0` means unassigned. */
  assignee: extIdParam.optional(),
  /**
   * Rated tickets only: `any` rating, or `low`: at or below the portal's low-rating threshold
   * (`lowRatingThreshold` of the options).
   */
  rating: inboxRatingFilterSchema.optional(),
  /** Tickets of this priority. */
  priority: ticketPrioritySchema.optional(),
  /** Tickets carrying this ticket tag (an id of the options' `ticketTags`). */
  tag: rowIdParam.optional(),
  /** Past due (open tickets whose due date has passed), with a due date, without one. */
  due: z.enum(inboxDueFilters).optional(),
  /** The order of the pages (each keyset-paginated: a cursor holds its order's key). */
  sort: inboxSortSchema.default('activity'),
  /** Creation day range, in the portal's time zone (YYYY-MM-DD). */
  from: dayString.optional(),
  to: dayOrMinuteString.optional(),
  /** Ticket number or id, words of title, description and conversation, or a fragment of a title. */
  q: z.string().trim().max(200).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(INBOX_PAGE_MAX).default(50),
});
export type InboxQuery = z.input<typeof inboxQuerySchema>;

const named = z.object({ id: z.number().int(), name: z.string() });

export const inboxItemSchema = z.object({
  id: z.number().int(),
  ticketNumber: z.string(),
  title: z.string(),
  company: named,
  contact: z.object({ id: z.number().int(), referentName: z.string() }).nullable(),
  type: z.object({ id: z.number().int(), name: z.string(), color: z.string().nullable() }),
  step: z.object({ id: z.number().int(), name: z.string(), taskStatus: z.number().int() }),
  group: named.nullable(),
  assignee: z.object({ id: z.number().int(), displayName: z.string() }).nullable(),
  createdOn: isoDateTime,
  lastActivityAt: isoDateTime,
  waitingOnCustomer: z.boolean(),
  closed: z.boolean(),
  /** The customer's rating of the ticket (1 to 5), null until rated. */
  rating: z.number().int().min(1).max(5).nullable(),
  priority: ticketPrioritySchema,
  /** When the ticket is due (set by an agent), null: no due date. */
  dueAt: isoDateTime.nullable(),
  /** The ticket's tags, by name. */
  tags: z.array(named),
  /** Its service-level clock; null: no policy applied to it. */
  sla: ticketSlaSchema.nullable(),
  /** Activity since this staff user last opened the ticket (or never opened). */
  unread: z.boolean(),
});
export type InboxItem = z.infer<typeof inboxItemSchema>;

export const inboxAnswerSchema = z.object({
  items: z.array(inboxItemSchema),
  /** Tickets per view in the whole portal (filters apply to `items` only), at most INBOX_COUNT_CAP. */
  counts: z.record(inboxViewSchema, z.number().int()),
  countCap: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type InboxAnswer = z.infer<typeof inboxAnswerSchema>;

/** Results per group of the desk's search as one types. */
export const STAFF_SEARCH_GROUP_MAX = 5;

/** `GET /api/staff/portals/{company}/search?q=`: what the desk's search box offers as one types. */
export const staffSearchQuerySchema = z.object({ q: z.string().trim().min(1).max(200) });

export const staffSearchAnswerSchema = z.object({
  /** Tickets found as the inbox's search finds them (open ones first), at most STAFF_SEARCH_GROUP_MAX. */
  tickets: z.array(inboxItemSchema),
  /** Contacts whose name or e-mail holds the text. */
  contacts: z.array(
    z.object({
      id: z.number().int(),
      referentName: z.string(),
      email: z.string().nullable(),
      company: named,
    }),
  ),
  /** Companies whose name holds the text. */
  companies: z.array(named),
});
export type StaffSearchAnswer = z.infer<typeof staffSearchAnswerSchema>;

export const staffTicketParamsSchema = z.object({
  company: z.string().min(1).max(40),
  ticketid: extIdParam,
});

export const staffCommentSchema = z.object({
  id: z.number().int(),
  message: z.string(),
  creationDate: isoDateTime,
  /** Internal notes are for staff only: the customer never sees them. */
  internal: z.boolean(),
  author: z.object({
    kind: z.enum(['agent', 'contact']),
    name: z.string(),
  }),
  /** Files of the comment; `url` is signed and short-lived (1 hour). */
  attachments: z.array(attachmentSchema),
  /** Where it came in (null: imported). */
  channel: commentChannelSchema,
  /** A comment that came by e-mail: a signed link (1 hour) to the message as received ("show full e-mail"). */
  originalEmail: z.string().nullable(),
  /** It came by e-mail and the receiving server said SPF or DKIM failed: the sender may be forged. */
  senderUnverified: z.boolean(),
});
export type StaffComment = z.infer<typeof staffCommentSchema>;

// --- Timeline ---

/**
 * Kinds of ticket change. `step`, `closed` and `reopened` (a step change into or out of a closing
 * step) are public: the customer sees them in the conversation. The others are the staff's.
 */
export const timelineKinds = [
  'step',
  'closed',
  'reopened',
  'assignee',
  'group',
  'type',
  'next_activity',
  /** The customer rated the ticket: `to` is the rating (id) and its comment (name), `from` the one before. */
  'rated',
  /** Merged into another ticket: `to` is the target (its id and number). */
  'merged_into',
  /** Another ticket was merged into this one: `from` is the source. */
  'merged_from',
  /** A merge was undone: `from` is the source, `to` the target. */
  'merge_undone',
] as const;
export const timelineKindSchema = z.enum(timelineKinds);
export type TimelineKind = z.infer<typeof timelineKindSchema>;

/** A value before or after a change: the back office's id and the name it had then (text: id null). */
export const timelineValueSchema = z.object({ id: z.number().int().nullable(), name: z.string() });

/** Who made a change: an agent (staff desk or back office), a contact (portal), or the system (import). */
export const timelineActorSchema = z.object({
  kind: z.enum(['agent', 'contact', 'system']),
  name: z.string(),
});

/** One change of a ticket, as the staff desk shows it (oldest first). */
export const staffTimelineEntrySchema = z.object({
  id: z.number().int(),
  at: isoDateTime,
  kind: timelineKindSchema,
  /** Shown to the customer too. */
  public: z.boolean(),
  /** null: nothing before (first assignment) or after (unassigned, no next activity). */
  from: timelineValueSchema.nullable(),
  to: timelineValueSchema.nullable(),
  by: timelineActorSchema,
});
export type StaffTimelineEntry = z.infer<typeof staffTimelineEntrySchema>;

// --- Presence ---

export const presenceStateSchema = z.enum(['viewing', 'replying']);
export type PresenceState = z.infer<typeof presenceStateSchema>;
/** A heartbeat lasts this long: the desk sends one every PRESENCE_HEARTBEAT_S while the ticket is open. */
export const PRESENCE_TTL_S = 30;

/** Another staff user who has the ticket open, or is writing a reply or note. */
export const presenceSchema = z.object({
  staffUserId: z.number().int(),
  displayName: z.string(),
  state: presenceStateSchema,
  /** Until when the last heartbeat holds. */
  until: isoDateTime,
});
export type Presence = z.infer<typeof presenceSchema>;

/** `POST …/tickets/{ticketid}/presence`: `left` ends the caller's presence at once. */
export const presenceRequestSchema = z.object({
  state: z.enum(['viewing', 'replying', 'left']),
});
export type PresenceRequest = z.infer<typeof presenceRequestSchema>;
/** The others' presence on the ticket (never the caller). */
export const presenceAnswerSchema = z.object({ others: z.array(presenceSchema) });
export type PresenceAnswer = z.infer<typeof presenceAnswerSchema>;

/** `GET /api/staff/portals/{company}/tickets/{ticketid}`: marks the ticket read for the caller. */
export const staffTicketDetailSchema = inboxItemSchema.extend({
  description: z.string(),
  nextPlannedActivityInfo: z.string().nullable(),
  /** The agent who opened the ticket on the desk for its contact (a caller), or null. */
  openedBy: z.string().nullable(),
  comments: z.array(staffCommentSchema),
  /** Files attached when the ticket was opened (signed, 1 hour). */
  attachments: z.array(attachmentSchema),
  /** Opened by an e-mail: the message as received (signed, 1 hour) and its sender mark, as on comments. */
  openingEmail: z.object({ originalEmail: z.string().nullable(), senderUnverified: z.boolean() }).nullable(),
  /** Every change of the ticket, public or not, oldest first. */
  timeline: z.array(staffTimelineEntrySchema),
  /** Other staff users who have the ticket open now (not the caller). */
  presence: z.array(presenceSchema),
  /** The customer's rating with its comment (the last one: a customer may change it). */
  rated: z
    .object({
      rating: z.number().int().min(1).max(5),
      comment: z.string(),
      ratedAt: isoDateTime,
      /** The contact who rated (empty when gone). */
      by: z.string(),
      /** At or below the portal's low-rating threshold. */
      low: z.boolean(),
    })
    .nullable(),
});
export type StaffTicketDetail = z.infer<typeof staffTicketDetailSchema>;

// --- Writes ---

/**
 * `POST …/tickets/{ticketid}/comments`: a public reply (`internal: false`: the customer sees it, is
 * e-mailed, the back office gets `agent.comment_added`, the ticket waits for the customer) or an internal
 * note (`internal: true`: staff only, nothing customer-facing). `internal` has no default on purpose.
 * HTML is sanitised like every user's; needs text or a file (400 empty_comment). `attachments`: ids
 * answered by the staff upload route, each attachable once by its uploader.
 */
export const staffCommentRequestSchema = z.object({
  message: z.string().max(TICKET_DESCRIPTION_MAX),
  internal: z.boolean(),
  attachments: z.array(rowIdSchema).max(MAX_ATTACHMENTS).default([]),
  /** Time spent on it, logged with it in the same transaction (issue 28 item 11). */
  time: timeSpentSchema.optional(),
});
export type StaffCommentRequest = z.input<typeof staffCommentRequestSchema>;

/**
 * `PATCH …/tickets/{ticketid}`: the fields to change (absent: unchanged), by the back office's ids.
 * `assigneeId`/`groupId` null unassigns; `nextPlannedActivityInfo` null or blank clears it. Each
 * change is a timeline entry written in the same transaction; moving into a closing step emits
 * `ticket.closed`, out of one `ticket.reopened`.
 */
export const staffTicketUpdateSchema = z
  .object({
    stepId: extIdSchema.optional(),
    typeId: extIdSchema.optional(),
    assigneeId: extIdSchema.nullable().optional(),
    groupId: extIdSchema.nullable().optional(),
    nextPlannedActivityInfo: z.string().max(NEXT_ACTIVITY_MAX).nullable().optional(),
    priority: ticketPrioritySchema.optional(),
    /** null clears the due date. */
    dueAt: dateTimeInput.nullable().optional(),
    /**
     * The ticket's tags, replaced by these names (a name the portal's ticket tags lack is added to
     * them; compared without regard to case).
     */
    tags: z.array(ticketTagNameSchema).max(TICKET_TAGS_MAX).optional(),
  })
  .strict();
export type StaffTicketUpdate = z.infer<typeof staffTicketUpdateSchema>;

/** At most this many tickets in one bulk action (the inbox's page). */
export const BULK_TICKETS_MAX = 100;

/**
 * `POST …/tickets/bulk`: one change for each listed ticket (issue 28 item 7). `seen` is the ticket's
 * `lastActivityAt` as the agent's list showed it: a ticket whose activity moved since is left alone
 * (409 changed_meanwhile in its result). `close` moves to the portal's closing status.
 */
export const staffBulkRequestSchema = z.object({
  tickets: z
    .array(z.object({ id: extIdSchema, seen: isoDateTime.max(40).optional() }).strict())
    .min(1)
    .max(BULK_TICKETS_MAX),
  change: z
    .object({
      stepId: extIdSchema.optional(),
      assigneeId: extIdSchema.nullable().optional(),
      priority: ticketPrioritySchema.optional(),
      close: z.literal(true).optional(),
      addTags: z.array(ticketTagNameSchema).max(TICKET_TAGS_MAX).optional(),
      removeTags: z.array(ticketTagNameSchema).max(TICKET_TAGS_MAX).optional(),
    })
    .strict(),
});
export type StaffBulkRequest = z.infer<typeof staffBulkRequestSchema>;

export const staffBulkAnswerSchema = z.object({
  done: z.number().int(),
  failed: z.number().int(),
  /** Per ticket, in the order asked: done, or the code and words of why not. */
  results: z.array(
    z.object({
      id: z.number().int(),
      ok: z.boolean(),
      code: z.string().optional(),
      message: z.string().optional(),
    }),
  ),
});
export type StaffBulkAnswer = z.infer<typeof staffBulkAnswerSchema>;

/** `PUT …/tickets/{ticketid}/read`: mark read (as opening it does) or unread again. */
export const staffReadRequestSchema = z.object({ read: z.boolean() });

// --- Portal options (what the desk's pickers offer) ---

export const staffOptionsSchema = z.object({
  steps: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      taskStatus: z.number().int(),
      isDefault: z.boolean(),
      isClosing: z.boolean(),
    }),
  ),
  types: z.array(z.object({ id: z.number().int(), name: z.string(), color: z.string().nullable() })),
  groups: z.array(named),
  /** Every agent of the portal; `staffUserId` when a staff user is that agent (assignable "to me"). */
  agents: z.array(
    z.object({ id: z.number().int(), displayName: z.string(), staffUserId: z.number().int().nullable() }),
  ),
  /** The portal's ticket tags (the inbox's tag filter, the ticket's tag picker), by name. */
  ticketTags: z.array(named),
  /** A customer's rating at or below this is low (the "Rated low" filter, agents told); 0: none is. */
  lowRatingThreshold: z.number().int().min(0).max(5),
  /** The caller in this portal: their agent id (null until they have one) and their group ids. */
  me: z.object({
    staffUserId: z.number().int(),
    agentId: z.number().int().nullable(),
    groupIds: z.array(z.number().int()),
  }),
});
export type StaffOptions = z.infer<typeof staffOptionsSchema>;

// --- Staff members and their groups ---

export const staffMemberParamsSchema = z.object({
  company: z.string().min(1).max(40),
  staffid: rowIdParam,
});

export const staffMemberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  displayName: z.string(),
  role: staffRoleSchema,
  status: z.enum(['invited', 'active', 'disabled']),
  /** The portal's agent this member is (tickets name it as assignee). */
  agentId: z.number().int().nullable(),
  /** The assignee groups the member works in (the inbox's "My groups", group notifications). */
  groupIds: z.array(z.number().int()),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;
export const staffMemberListSchema = z.array(staffMemberSchema);

/** `PUT …/staff/{staffid}/groups`: the member's groups, replaced by this list (back office ids). */
export const staffGroupsRequestSchema = z.object({
  groupIds: z.array(extIdSchema).max(200),
});

// --- Preferences and notifications ---

/** What the staff user is e-mailed about (all portals they belong to). */
export const staffPreferencesSchema = z.object({
  /** A customer opens a ticket the user is to hear of (assignee, else group, else every agent). */
  emailNewTicket: z.boolean(),
  /** A customer replies on such a ticket. */
  emailCustomerReply: z.boolean(),
  /** A customer rates such a ticket at or below the portal's low-rating threshold. */
  emailLowRating: z.boolean(),
  /** A ticket is assigned to the user (by someone else). */
  emailAssigned: z.boolean(),
  /** Someone mentions the user (`@handle`) in an internal note. */
  emailMention: z.boolean(),
  /** A ticket the user is to hear of breached, or is about to breach, a service-level target. */
  emailSla: z.boolean(),
});
export type StaffPreferences = z.infer<typeof staffPreferencesSchema>;
export const staffPreferencesUpdateSchema = staffPreferencesSchema.partial().strict();

// --- The agent's own profile (issue 28) ---

/** Plain text, appended to each public reply the agent writes on the desk (never to a note). */
export const STAFF_SIGNATURE_MAX = 1000;
/** The largest avatar image, as the portal's logo. */
export const AVATAR_MAX_BYTES = 1024 * 1024;

/**
 * `GET …/profile`: how customers see the agent. The name and the avatar are the agent's in every
 * portal of theirs (each portal's agent row takes them); the signature follows each public reply.
 */
export const staffProfileSchema = z.object({
  email: z.string(),
  displayName: z.string(),
  signature: z.string(),
  /** A signed link (1 hour) to the avatar; null: the desk and the portal show the initials. */
  avatarUrl: z.string().nullable(),
});
export type StaffProfile = z.infer<typeof staffProfileSchema>;

/**
 * `PATCH …/profile`: the fields to change. `avatar` is `{uploadId}` of the caller's upload in this
 * portal (a PNG, JPEG, GIF or WebP by its bytes, at most AVATAR_MAX_BYTES) or null: back to initials.
 */
export const staffProfileUpdateSchema = z
  .object({
    displayName: staffDisplayNameSchema.optional(),
    signature: z.string().max(STAFF_SIGNATURE_MAX).optional(),
    avatar: z.object({ uploadId: rowIdSchema }).strict().nullable().optional(),
  })
  .strict();
export type StaffProfileUpdate = z.infer<typeof staffProfileUpdateSchema>;

/**
 * `GET …/unread?since=&wait=`: the caller's unread tickets per view (capped at INBOX_COUNT_CAP) and a
 * `version` of that answer. With `since` = the version the desk holds and `wait` seconds, the request
 * waits until the counts change (or `wait` passes) before answering: the desk updates without reload.
 */
export const unreadQuerySchema = z.object({
  since: z.string().max(100).optional(),
  wait: z.coerce.number().int().min(0).max(60).default(0),
});
export const unreadAnswerSchema = z.object({
  unread: z.record(inboxViewSchema, z.number().int()),
  /** Tickets per view, as in the inbox answer. */
  counts: z.record(inboxViewSchema, z.number().int()),
  countCap: z.number().int(),
  version: z.string(),
});
export type UnreadAnswer = z.infer<typeof unreadAnswerSchema>;

// --- Routes (see route.ts) ---

export const staffAuthRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/api/staff/auth/login',
    body: staffLoginRequestSchema,
    responses: { 200: staffSessionAnswerSchema, 401: errorSchema, 429: errorSchema },
    access: { guard: 'public' },
    tags: ['staff'],
    summary: 'Staff sign-in with e-mail and password (a staff session, never a contact session)',
    description:
      '401 wrong_credentials for a wrong password, an unknown e-mail, an invited user without a password ' +
      'or a disabled one alike. 429 too_many_attempts (with Retry-After) after 5 failures for one ' +
      'account or 30 attempts from one address in 15 minutes.',
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/staff/auth/logout',
    responses: { 204: null },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Revoke the staff token of this request',
  }),
  me: defineRoute({
    method: 'GET',
    path: '/api/staff/me',
    responses: { 200: staffMeAnswerSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'The signed-in staff user and the portals they belong to, with their role in each',
  }),
  recovery: defineRoute({
    method: 'POST',
    path: '/api/staff/auth/recovery',
    body: staffRecoveryRequestSchema,
    responses: { 202: staffRecoveryAnswerSchema, 429: errorSchema },
    access: { guard: 'public' },
    tags: ['staff'],
    summary: 'Mail a single-use password link (valid 1 hour) to a staff user of the portal, if there is one',
    description: 'Always 202 {status:"sent"}, whether the staff user exists or not.',
  }),
  link: defineRoute({
    method: 'GET',
    path: '/api/staff/auth/links/:token',
    params: staffLinkParamsSchema,
    responses: { 200: staffLinkAnswerSchema, 404: errorSchema, 410: errorSchema },
    // The single-use link token is the capability.
    access: { guard: 'public' },
    tags: ['staff'],
    summary: 'What a staff invitation or recovery link is for (it is not consumed)',
  }),
  confirm: defineRoute({
    method: 'POST',
    path: '/api/staff/auth/confirm',
    body: staffConfirmRequestSchema,
    responses: { 200: staffSessionAnswerSchema, 404: errorSchema, 410: errorSchema },
    access: { guard: 'public' },
    tags: ['staff'],
    summary: 'Accept a staff invitation (7 days) or recovery link (1 hour): set the password and sign in',
    description:
      '400 passwords_differ / password_too_short; 404 link_invalid (unknown or used); 410 link_expired. ' +
      'Every earlier staff session of the user is revoked.',
  }),
};

export const staffInboxRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/tickets',
    params: staffPortalParamsSchema,
    query: inboxQuerySchema,
    responses: { 200: inboxAnswerSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'The inbox: one page of a view of every ticket of the portal, with the count of each view',
    description:
      'Views: unassigned, mine, groups (my groups), waiting (for the customer), open, closed. Sorted by ' +
      '`sort`: last activity (default), created, priority or due date; keyset pagination with ' +
      'nextCursor. 400 invalid_cursor / invalid_date.',
  }),
  search: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/search',
    params: staffPortalParamsSchema,
    query: staffSearchQuerySchema,
    responses: { 200: staffSearchAnswerSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'The desk search as one types: tickets, contacts and companies of the portal, a few of each',
    description:
      'Tickets by number as agents say it ("118", "0118", "2026/0118", "T-2026-00118"), id, words, ' +
      "title fragment, requester's name or e-mail, company name; contacts by name or e-mail; companies " +
      'by name (fragments of 3 characters or more).',
  }),
  detail: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/tickets/:ticketid',
    params: staffTicketParamsSchema,
    responses: { 200: staffTicketDetailSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'A ticket with its whole conversation, internal notes included; marks it read',
  }),
};

const ticketPath = '/api/staff/portals/:company/tickets/:ticketid';

/** What agents do on a ticket, and the desk's own data (issue 13). */
export const staffDeskRoutes = {
  comment: defineRoute({
    method: 'POST',
    bodyLimit: TICKET_BODY_LIMIT,
    path: `${ticketPath}/comments`,
    params: staffTicketParamsSchema,
    body: staffCommentRequestSchema,
    responses: { 201: staffCommentSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Reply to the customer (internal: false) or write an internal note (internal: true)',
    description:
      'A reply: the customer sees it and is e-mailed (unless they turned agent answers off), ' +
      '`agent.comment_added` is emitted, the ticket waits for the customer; a reply to a closed ticket ' +
      'does not reopen it. A note: staff only, no e-mail, no event. 400 empty_comment / ' +
      'attachment_unavailable; 404 ticket_not_found.',
  }),
  update: defineRoute({
    method: 'PATCH',
    path: ticketPath,
    params: staffTicketParamsSchema,
    body: staffTicketUpdateSchema,
    responses: { 200: staffTicketDetailSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Change step, type, assignee, group, next planned activity, priority, due date or tags',
    description:
      "400 unknown_reference (an id that is not the portal's) / nothing_to_change; 404 ticket_not_found.",
  }),
  bulk: defineRoute({
    method: 'POST',
    path: '/api/staff/portals/:company/tickets/bulk',
    params: staffPortalParamsSchema,
    body: staffBulkRequestSchema,
    responses: { 200: staffBulkAnswerSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'One change (assign, status, priority, tags, close) of many tickets, each on its own',
    description:
      'Each ticket in a transaction of its own with its own event (ticket.closed, ticket.reopened or ' +
      'ticket.updated); the answer lists what failed and why (ticket_not_found, changed_meanwhile, ' +
      'unknown_reference). 400 nothing_to_change.',
  }),
  read: defineRoute({
    method: 'PUT',
    path: `${ticketPath}/read`,
    params: staffTicketParamsSchema,
    body: staffReadRequestSchema,
    responses: { 204: null, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Mark a ticket read or unread for the caller',
  }),
  presence: defineRoute({
    method: 'POST',
    path: `${ticketPath}/presence`,
    params: staffTicketParamsSchema,
    body: presenceRequestSchema,
    responses: { 200: presenceAnswerSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary:
      'Heartbeat: the caller views or replies to the ticket (lasts PRESENCE_TTL_S); answers the others',
  }),
  upload: defineRoute({
    method: 'POST',
    path: '/api/staff/portals/:company/uploads',
    params: staffPortalParamsSchema,
    bodyKind: 'multipart',
    responses: { 201: uploadResultSchema, 429: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Upload a file to attach to a reply or note',
    description:
      'multipart/form-data with one field `file` (at most MAX_UPLOAD_MB, else 413). The id can be ' +
      'listed once, by the same staff user, in `attachments` of a comment; unattached uploads go after ' +
      '24 hours and count against a quota (429).',
  }),
  options: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/options',
    params: staffPortalParamsSchema,
    responses: { 200: staffOptionsSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "The portal's steps, types, groups and agents (the desk's pickers), and the caller's own",
  }),
  unread: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/unread',
    params: staffPortalParamsSchema,
    query: unreadQuerySchema,
    responses: { 200: unreadAnswerSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Unread tickets per view; long-polls with since + wait until they change',
  }),
  members: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/staff',
    params: staffPortalParamsSchema,
    responses: { 200: staffMemberListSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'The staff of the portal with their role, agent and groups',
  }),
  setGroups: defineRoute({
    method: 'PUT',
    path: '/api/staff/portals/:company/staff/:staffid/groups',
    params: staffMemberParamsSchema,
    body: staffGroupsRequestSchema,
    responses: { 200: staffMemberSchema, 404: errorSchema },
    access: { guard: 'staff', role: 'admin' },
    tags: ['staff'],
    summary: "Set a staff member's assignee groups (admins)",
    description: "400 unknown_reference for a group that is not the portal's; 404 staff_not_found.",
  }),
  preferences: defineRoute({
    method: 'GET',
    path: '/api/staff/me/preferences',
    responses: { 200: staffPreferencesSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'What the caller is e-mailed about',
  }),
  profile: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/profile',
    params: staffPortalParamsSchema,
    responses: { 200: staffProfileSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "The caller's name, avatar and signature: how customers see their replies",
  }),
  setProfile: defineRoute({
    method: 'PATCH',
    path: '/api/staff/portals/:company/profile',
    params: staffPortalParamsSchema,
    body: staffProfileUpdateSchema,
    responses: { 200: staffProfileSchema, 413: errorSchema, 422: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "Change the caller's display name, avatar or signature (fields absent stay)",
    description:
      "The name and avatar become those of the caller's agent in every portal of theirs (customers see " +
      'them on replies, agents as assignee). 422 upload_not_found / avatar_not_image; 413 ' +
      'avatar_too_large.',
  }),
  setPreferences: defineRoute({
    method: 'PUT',
    path: '/api/staff/me/preferences',
    body: staffPreferencesUpdateSchema,
    responses: { 200: staffPreferencesSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Change what the caller is e-mailed about (fields absent stay)',
  }),
};
