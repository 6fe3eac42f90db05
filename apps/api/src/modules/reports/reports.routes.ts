import { reportRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { activityReports } from './reports.service';

export function registerReportsRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, reportRoutes.list, (req, _reply, tenant) => activityReports(ctx, tenant, req.query));
}
