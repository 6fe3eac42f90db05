import { portalRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { getPortalManifest, getPortalPrivacy, getPortalSettings } from './portals.service';

export function registerPortalRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, portalRoutes.settings, async (req, reply) => {
    // The logo URL is signed for a few hours; a browser may keep the answer only briefly.
    reply.header('Cache-Control', 'no-cache');
    return getPortalSettings(ctx.database.db, ctx.signer, req.params.company, ctx.clock.now());
  });
  route(app, ctx, portalRoutes.manifest, async (req, reply) => {
    reply.type('application/manifest+json; charset=utf-8').header('Cache-Control', 'no-cache');
    return getPortalManifest(ctx.database.db, ctx.signer, req.params.company, ctx.clock.now());
  });
  route(app, ctx, portalRoutes.privacy, (req) => getPortalPrivacy(ctx.database.db, req.params.company));
}
