/**
 * The desk's bell and the inbox's saved views (issue 28 items 2 and 5). An agent reads and marks only
 * their own notifications of the portal in the path; a saved view is its owner's, or every member's of
 * the portal once a portal admin shares it.
 */
import { z } from 'zod';
import { cursorText, errorSchema, isoDateTime, rowIdParam } from './common';
import { defineRoute } from './route';
import { inboxQuerySchema, staffPortalParamsSchema } from './staff';

// --- The bell ---

/**
 * What an agent is told of. `sla_breach` and `sla_soon`: a ticket's service-level target passed
 * unmet, or is about to (issue 28 item 13; the breach sweep writes them, `actor` is empty).
 */
export const staffNotificationKinds = [
  'assigned',
  'customer_reply',
  'mention',
  'low_rating',
  'sla_breach',
  'sla_soon',
] as const;
export const staffNotificationKindSchema = z.enum(staffNotificationKinds);
export type StaffNotificationKind = z.infer<typeof staffNotificationKindSchema>;

/** Items per page of the bell's list, at most. */
export const STAFF_NOTIFICATION_PAGE_MAX = 50;
/** The unread count stops here; the bell shows "99+" beyond 99. */
export const STAFF_NOTIFICATION_COUNT_CAP = 100;

export const staffNotificationSchema = z.object({
  /** Opaque id (mark read with it). */
  id: z.string().uuid(),
  kind: staffNotificationKindSchema,
  /** The back office's id of the ticket: its desk page is `/{company}/staff/tickets/{ticketId}`. */
  ticketId: z.number().int(),
  ticketNumber: z.string(),
  title: z.string(),
  /** Who did it: the agent who assigned or mentioned, the customer who replied or rated. */
  actor: z.string(),
  /** A low rating's value (1 to 5). */
  rating: z.number().int().nullable(),
  /**
   * An SLA notice's target (first response or resolution) and its due time; null on the other kinds
   * (and on SLA notices written before the target was kept).
   */
  sla: z.object({ target: z.enum(['first_response', 'resolution']), dueAt: isoDateTime }).nullable(),
  createdAt: isoDateTime,
  read: z.boolean(),
});
export type StaffNotification = z.infer<typeof staffNotificationSchema>;

export const staffNotificationListQuerySchema = z.object({
  /** The previous page's `nextCursor`. */
  cursor: cursorText(2_147_483_647n).optional(),
  limit: z.coerce.number().int().min(1).max(STAFF_NOTIFICATION_PAGE_MAX).default(20),
});

export const staffNotificationListSchema = z.object({
  items: z.array(staffNotificationSchema),
  /** Unread notifications of the caller in this portal, counted up to STAFF_NOTIFICATION_COUNT_CAP. */
  unread: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type StaffNotificationList = z.infer<typeof staffNotificationListSchema>;

export const staffNotificationCountSchema = z.object({ unread: z.number().int() });
export type StaffNotificationCount = z.infer<typeof staffNotificationCountSchema>;

export const staffMarkReadRequestSchema = z.union([
  z.object({ ids: z.array(z.string().uuid()).min(1).max(STAFF_NOTIFICATION_PAGE_MAX) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type StaffMarkReadRequest = z.infer<typeof staffMarkReadRequestSchema>;

// --- Saved views ---

/** Personal views per agent and portal, and shared views per portal, at most. */
export const SAVED_VIEWS_MAX = 20;
export const SAVED_VIEW_NAME_MAX = 60;

/**
 * What a saved view keeps: the inbox's view, filters and order (the inbox route's query without the
 * search words, the cursor and the page size: a view's count reads the same indexes as its pages).
 */
export const savedViewQuerySchema = inboxQuerySchema.omit({ q: true, cursor: true, limit: true }).strict();
export type SavedViewQuery = z.input<typeof savedViewQuerySchema>;

export const savedViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  query: savedViewQuerySchema,
  shared: z.boolean(),
  /** The caller's own view (they may rename and delete it). */
  mine: z.boolean(),
  /** Who made it. */
  owner: z.string(),
  /** Tickets it finds now, counted up to INBOX_COUNT_CAP. */
  count: z.number().int(),
});
export type SavedView = z.infer<typeof savedViewSchema>;

export const savedViewListSchema = z.object({
  items: z.array(savedViewSchema),
  countCap: z.number().int(),
});
export type SavedViewList = z.infer<typeof savedViewListSchema>;

const viewName = z.string().trim().min(1).max(SAVED_VIEW_NAME_MAX);

export const savedViewCreateSchema = z.object({ name: viewName, query: savedViewQuerySchema }).strict();
export type SavedViewCreate = z.input<typeof savedViewCreateSchema>;
export const savedViewUpdateSchema = z
  .object({ name: viewName.optional(), query: savedViewQuerySchema.optional() })
  .strict();
export type SavedViewUpdate = z.input<typeof savedViewUpdateSchema>;
export const savedViewShareSchema = z.object({ shared: z.boolean() }).strict();

const viewParams = staffPortalParamsSchema.extend({ viewid: rowIdParam });
const notes = '/api/staff/portals/:company/notifications';
const views = '/api/staff/portals/:company/views';

export const staffBellRoutes = {
  list: defineRoute({
    method: 'GET',
    path: notes,
    params: staffPortalParamsSchema,
    query: staffNotificationListQuerySchema,
    responses: { 200: staffNotificationListSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "The caller's notifications in this portal, newest first (keyset pages), with the unread count",
    description: '400 invalid_cursor.',
  }),
  count: defineRoute({
    method: 'GET',
    path: `${notes}/count`,
    params: staffPortalParamsSchema,
    responses: { 200: staffNotificationCountSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "The caller's unread notifications in this portal (one index range; the bell polls it)",
  }),
  markRead: defineRoute({
    method: 'POST',
    path: `${notes}/read`,
    params: staffPortalParamsSchema,
    body: staffMarkReadRequestSchema,
    responses: { 200: staffNotificationCountSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "Mark notifications read: `{ids}` (others' and unknown ids are ignored) or `{all: true}`",
  }),
};

export const staffSavedViewRoutes = {
  list: defineRoute({
    method: 'GET',
    path: views,
    params: staffPortalParamsSchema,
    responses: { 200: savedViewListSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: "The caller's views and the portal's shared ones, each with its count",
  }),
  create: defineRoute({
    method: 'POST',
    path: views,
    params: staffPortalParamsSchema,
    body: savedViewCreateSchema,
    responses: { 201: savedViewSchema, 409: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: `Save the inbox's view, filters and order as a personal view (${SAVED_VIEWS_MAX} at most)`,
    description: '409 too_many_views.',
  }),
  update: defineRoute({
    method: 'PATCH',
    path: `${views}/:viewid`,
    params: viewParams,
    body: savedViewUpdateSchema,
    responses: { 200: savedViewSchema, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Rename a view of the caller, or save new filters in it',
    description: "404 view_not_found (another's view is not found either; an admin may change a shared one).",
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${views}/:viewid`,
    params: viewParams,
    responses: { 204: null, 404: errorSchema },
    access: { guard: 'staff' },
    tags: ['staff'],
    summary: 'Delete a view of the caller (an admin: a shared view too)',
    description: '404 view_not_found.',
  }),
  share: defineRoute({
    method: 'PUT',
    path: `${views}/:viewid/shared`,
    params: viewParams,
    body: savedViewShareSchema,
    responses: { 200: savedViewSchema, 404: errorSchema, 409: errorSchema },
    access: { guard: 'staff', role: 'admin' },
    tags: ['staff'],
    summary: "Share a view with every member of the portal, or stop sharing it (the portal's admins)",
    description: '404 view_not_found; 409 too_many_views (the portal shares SAVED_VIEWS_MAX at most).',
  }),
};
