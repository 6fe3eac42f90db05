// Schemas of the staff desk (issue 13): staff accounts and their sign-in. Staff are not contacts:
// their sessions are separate (a contact token is refused on every staff route, a staff token on every
// contact route), and a staff user sees only the portals they belong to.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, sessionAnswerSchema } from './auth';
import { errorSchema, isoDateTime } from './common';
import { defineRoute } from './route';

export const staffRoleSchema = z.enum(['agent', 'admin']);
export type StaffRole = z.infer<typeof staffRoleSchema>;

/** Stable error codes of the staff area (besides the auth area's, which staff sign-in reuses). */
export const staffErrorCodes = {
  /** 403: the staff user does not belong to the `:company` portal. */
  notStaffOfPortal: 'not_staff_of_portal',
  /** 403: the route needs the admin role in this portal. */
  adminRequired: 'admin_required',
  /** 409, invitation: the staff user of that e-mail is disabled. */
  staffDisabled: 'staff_disabled',
  /** 400, inbox: a cursor this server did not give. */
  invalidCursor: 'invalid_cursor',
} as const;

const email = z.string().trim().min(3).max(320);

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

// --- Inbox ---

export const inboxViews = ['unassigned', 'mine', 'groups', 'waiting', 'open', 'closed'] as const;
export const inboxViewSchema = z.enum(inboxViews);
export type InboxView = z.infer<typeof inboxViewSchema>;

/** Counts stop at this many (a count of a million closed tickets is slow and says nothing more). */
export const INBOX_COUNT_CAP = 10_000;
export const INBOX_PAGE_MAX = 100;

const extIdParam = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

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
  assignee: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /** Creation day range, in the portal's time zone (YYYY-MM-DD). */
  from: z.string().max(20).optional(),
  to: z.string().max(20).optional(),
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

export const staffTicketParamsSchema = z.object({
  company: z.string().min(1).max(40),
  ticketid: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
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
});
export type StaffComment = z.infer<typeof staffCommentSchema>;

/** `GET /api/staff/portals/{company}/tickets/{ticketid}`: marks the ticket read for the caller. */
export const staffTicketDetailSchema = inboxItemSchema.extend({
  description: z.string(),
  nextPlannedActivityInfo: z.string().nullable(),
  comments: z.array(staffCommentSchema),
});
export type StaffTicketDetail = z.infer<typeof staffTicketDetailSchema>;

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
      'last activity, newest first; keyset pagination with nextCursor. 400 invalid_cursor / invalid_date.',
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
