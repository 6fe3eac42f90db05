/**
 * The bell and the e-mail switches of the signed-in user. Notifications are written by the triggers of
 * migration 0013 (see modules/tickets/core/notifications.ts); this module only reads them and marks them read.
 */
import type { MarkReadRequest, NotificationList, NotificationPreferences } from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import type { TenantContext } from '../../platform/tenancy';
import {
  getPreferences,
  listNotifications,
  markRead,
  setPreferences,
  type Recipient,
} from './notifications.queries';

const recipientOf = (t: TenantContext): Recipient => ({ userId: t.userId, contactId: t.contactId });

export const bell = (ctx: AppContext, t: TenantContext): Promise<NotificationList> =>
  listNotifications(ctx.database.db, recipientOf(t));

export async function readNotifications(
  ctx: AppContext,
  t: TenantContext,
  body: MarkReadRequest,
): Promise<NotificationList> {
  await markRead(ctx.database.db, recipientOf(t), 'all' in body ? null : body.ids, ctx.clock.now());
  return bell(ctx, t);
}

export const preferences = (ctx: AppContext, t: TenantContext): Promise<NotificationPreferences> =>
  getPreferences(ctx.database.db, t.userId);

export const savePreferences = (
  ctx: AppContext,
  t: TenantContext,
  body: NotificationPreferences,
): Promise<NotificationPreferences> => setPreferences(ctx.database.db, t.userId, body);
