import { settingsAdminRoutes } from '@sportello/contracts';
import type { StaffActor } from '../../../platform/audit';
import type { App, AppContext } from '../../../platform/context';
import { route } from '../../../platform/route';
import { getSettings, updateSettings } from './settings.service';

/** The staff guard resolved the `:company` portal and the admin role in it (as people.routes.ts). */
interface StaffPortal {
  staffUserId: number;
  displayName: string;
  portal: { portalId: number } | null;
}
const actorOf = (s: StaffPortal): StaffActor => {
  if (!s.portal) throw new Error('staff admin route without :company');
  return { staffUserId: s.staffUserId, displayName: s.displayName, portalId: s.portal.portalId };
};

export function registerSettingsRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, settingsAdminRoutes.get, (_req, _reply, s) => getSettings(ctx, actorOf(s)));
  route(app, ctx, settingsAdminRoutes.update, (req, _reply, s) => updateSettings(ctx, actorOf(s), req.body));
}
