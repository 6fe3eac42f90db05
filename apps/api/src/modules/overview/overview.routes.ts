import { overviewRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { overview } from './overview.service';

export function registerOverviewRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, overviewRoutes.overview, (_req, _reply, tenant) => overview(ctx, tenant));
}
