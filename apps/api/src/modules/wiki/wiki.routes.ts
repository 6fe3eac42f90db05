import { wikiRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { wikiElements } from './wiki.service';

export function registerWikiRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, wikiRoutes.list, (req, _reply, tenant) => wikiElements(ctx, tenant, req.query));
}
