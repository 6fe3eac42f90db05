import { contractRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { route } from '../../platform/route';
import { listPortalTags } from './contracts.queries';
import { activityContracts, serviceContracts } from './contracts.service';

export function registerContractsRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, contractRoutes.activity, (req, _reply, tenant) =>
    activityContracts(ctx, tenant, req.query),
  );
  route(app, ctx, contractRoutes.service, (req, _reply, tenant) => serviceContracts(ctx, tenant, req.query));
  route(app, ctx, contractRoutes.tags, async (req) => {
    const tags = await listPortalTags(ctx.database.db, req.params.company);
    if (!tags) throw notFound('No such portal', 'portal_not_found');
    return tags;
  });
}
