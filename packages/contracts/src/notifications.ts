// Schemas of the customer's notifications (issue 16 part 5): the bell's list and the e-mail switches.
import { z } from 'zod';
import { tenantParams } from './common';
import { defineRoute } from './route';

export const notificationKinds = [
  'agentReply',
  'statusChange',
  'newDocument',
  'newInvoice',
  'signatureRequest',
] as const;
export const notificationKindSchema = z.enum(notificationKinds);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** Items the bell lists, newest first. */
export const NOTIFICATION_LIST_LIMIT = 30;

export const notificationSchema = z.object({
  /** Opaque id (mark read with it). */
  id: z.string().uuid(),
  kind: notificationKindSchema,
  /** The ticket's title, the document's name, the invoice's number. */
  title: z.string(),
  /** A status change: the new step's name. */
  detail: z.string().nullable(),
  /** The back office's id of the ticket, document or invoice (null for a signature request). */
  refId: z.number().int().nullable(),
  /** The document key of a signature request (its page is `/{company}/documents/{key}`). */
  refKey: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.object({
  /** Unread notifications of this user and contact, all of them (not only the listed ones). */
  unread: z.number().int(),
  items: z.array(notificationSchema),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const markReadRequestSchema = z.union([
  z.object({ ids: z.array(z.string().uuid()).min(1).max(100) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkReadRequest = z.infer<typeof markReadRequestSchema>;

/** The e-mail switches of the signed-in user (each on unless turned off); the bell shows everything. */
export const notificationPreferencesSchema = z
  .object({
    agentReply: z.boolean(),
    statusChange: z.boolean(),
    newDocument: z.boolean(),
    newInvoice: z.boolean(),
    signatureRequest: z.boolean(),
  })
  .strict();
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/**
 * Where a notification leads, from the portal's root (`/{company}/…`): the same path in the e-mail and
 * in the bell.
 */
export function notificationPath(
  n: Pick<Notification, 'kind' | 'refId' | 'refKey'>,
  company: string,
  contactId: number,
): string {
  const base = `/${encodeURIComponent(company)}/${contactId}`;
  switch (n.kind) {
    case 'agentReply':
    case 'statusChange':
      return n.refId === null ? `${base}/tickets` : `${base}/tickets/${n.refId}`;
    case 'newDocument':
      return `${base}/documents`;
    case 'newInvoice':
      return `${base}/invoices`;
    case 'signatureRequest':
      return `/${encodeURIComponent(company)}/documents/${encodeURIComponent(n.refKey ?? '')}`;
  }
}

// --- Routes (see route.ts) ---

export const notificationRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/notifications',
    params: tenantParams,
    responses: { 200: notificationListSchema },
    access: { guard: 'tenant' },
    tags: ['notifications'],
    summary: `The bell: the unread count and the latest ${NOTIFICATION_LIST_LIMIT} notifications of this user and contact`,
  }),
  markRead: defineRoute({
    method: 'POST',
    path: '/api/:company/:contactid/notifications/read',
    params: tenantParams,
    body: markReadRequestSchema,
    responses: { 200: notificationListSchema },
    access: { guard: 'tenant' },
    tags: ['notifications'],
    summary: 'Mark notifications read: `{ids}` (unknown ids are ignored) or `{all: true}`; answers the bell',
  }),
  preferences: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/notifications/preferences',
    params: tenantParams,
    responses: { 200: notificationPreferencesSchema },
    access: { guard: 'tenant' },
    tags: ['notifications'],
    summary: "The signed-in user's e-mail switches",
  }),
  savePreferences: defineRoute({
    method: 'PUT',
    path: '/api/:company/:contactid/notifications/preferences',
    params: tenantParams,
    body: notificationPreferencesSchema,
    responses: { 200: notificationPreferencesSchema },
    access: { guard: 'tenant' },
    tags: ['notifications'],
    summary: "Set the signed-in user's e-mail switches (they apply to every portal and company of the user)",
  }),
};
