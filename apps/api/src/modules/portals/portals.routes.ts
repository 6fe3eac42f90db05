import {
  errorSchema,
  portalParamsSchema,
  portalSettingsSchema,
  privacyAnswerSchema,
} from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { getPortalPrivacy, getPortalSettings } from './portals.service';

export function registerPortalRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/Settings/portals/:company',
    {
      schema: {
        tags: ['portals'],
        summary: "A portal's public branding and switches (no token needed: the login page uses it)",
        params: portalParamsSchema,
        response: { 200: portalSettingsSchema, 404: errorSchema },
      },
    },
    async (req, reply) => {
      // The logo URL is signed for a few hours; a browser may keep the answer only briefly.
      reply.header('Cache-Control', 'no-cache');
      return getPortalSettings(ctx.database.db, ctx.signer, req.params.company, ctx.clock.now());
    },
  );

  app.get(
    '/api/settings/:company/privacy',
    {
      schema: {
        tags: ['portals'],
        summary: "The portal's privacy terms as sanitised HTML (public)",
        params: portalParamsSchema,
        response: { 200: privacyAnswerSchema, 404: errorSchema },
      },
    },
    async (req) => getPortalPrivacy(ctx.database.db, req.params.company),
  );
}
