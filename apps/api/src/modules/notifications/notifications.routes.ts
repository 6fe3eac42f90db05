import { notificationRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { bell, preferences, readNotifications, savePreferences } from './notifications.service';

export function registerNotificationRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, notificationRoutes.list, (_req, _reply, t) => bell(ctx, t));
  route(app, ctx, notificationRoutes.markRead, (req, _reply, t) => readNotifications(ctx, t, req.body));
  route(app, ctx, notificationRoutes.preferences, (_req, _reply, t) => preferences(ctx, t));
  route(app, ctx, notificationRoutes.savePreferences, (req, _reply, t) => savePreferences(ctx, t, req.body));
}
