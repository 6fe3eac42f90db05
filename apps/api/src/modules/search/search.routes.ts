import { searchRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { search } from './search.service';

export function registerSearchRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, searchRoutes.search, (req, _reply, tenant) => search(ctx, tenant, req.query));
}
