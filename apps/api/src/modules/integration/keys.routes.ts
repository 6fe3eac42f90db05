import { integrationRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { createKey, listKeys, revokeKey, rotateKey } from './keys.service';

/** /api/admin/portals/:portal/keys: portal API keys, with the installation key. */
export function registerKeyRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, integrationRoutes.createKey, async (req) => createKey(ctx, req.params.portal, req.body));
  route(app, ctx, integrationRoutes.listKeys, async (req) => listKeys(ctx, req.params.portal));
  route(app, ctx, integrationRoutes.rotateKey, async (req) =>
    rotateKey(ctx, req.params.portal, req.params.keyId, req.body?.graceHours ?? 24),
  );
  route(app, ctx, integrationRoutes.revokeKey, async (req) =>
    revokeKey(ctx, req.params.portal, req.params.keyId),
  );
}
