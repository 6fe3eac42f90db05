import { settingsAdminRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../../platform/context';
import { route } from '../../../platform/route';
import { portalOf } from '../../staff/staff.access';
import { getSettings, updateSettings } from './settings.service';

export function registerSettingsRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, settingsAdminRoutes.get, (_req, _reply, staff) => getSettings(ctx, portalOf(staff)));
  route(app, ctx, settingsAdminRoutes.update, (req, _reply, staff) =>
    updateSettings(ctx, portalOf(staff), req.body),
  );
}
