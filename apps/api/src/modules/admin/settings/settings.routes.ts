import { settingsAdminRoutes } from '@sportello/contracts';
import { staffActorOf as actorOf } from '../../../platform/audit';
import type { App, AppContext } from '../../../platform/context';
import { route } from '../../../platform/route';
import { getSettings, updateSettings } from './settings.service';

export function registerSettingsRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, settingsAdminRoutes.get, (_req, _reply, s) => getSettings(ctx, actorOf(s)));
  route(app, ctx, settingsAdminRoutes.update, (req, _reply, s) => updateSettings(ctx, actorOf(s), req.body));
}
