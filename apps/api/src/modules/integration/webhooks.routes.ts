import { webhookAdminRoutes, webhookKeyRoutes } from '@sportello/contracts';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyAccess } from '../../platform/api-keys';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { portalIdOf } from './keys.service';
import {
  createEndpoint,
  deleteEndpoint,
  endpointAttempts,
  listEndpoints,
  replay,
  updateEndpoint,
} from './webhooks.service';

/**
 * The same webhook routes under two roots: `/api/integration/v1` with a portal key holding `events`
 * (its own portal), and `/api/admin/portals/:portal` with the installation key (the named portal).
 */
// The loop below sees the union of both roots' contracts, whose params differ only by `portal`.
const endpointOf = (req: { params: unknown }) => (req.params as { endpointId: number }).endpointId;

export function registerWebhookRoutes(app: App, ctx: AppContext): void {
  for (const routes of [webhookKeyRoutes, webhookAdminRoutes]) {
    const portalOf = async (req: FastifyRequest, access: unknown): Promise<number> =>
      access && typeof access === 'object' && 'apiKeyId' in access
        ? (access as ApiKeyAccess).portalId
        : portalIdOf(ctx.database.db, String((req.params as { portal?: string }).portal ?? ''));

    route(app, ctx, routes.list, async (req, _reply, access) =>
      listEndpoints(ctx, await portalOf(req as FastifyRequest, access)),
    );
    route(app, ctx, routes.create, async (req, _reply, access) =>
      createEndpoint(ctx, await portalOf(req as FastifyRequest, access), req.body),
    );
    route(app, ctx, routes.update, async (req, _reply, access) =>
      updateEndpoint(ctx, await portalOf(req as FastifyRequest, access), endpointOf(req), req.body),
    );
    route(app, ctx, routes.remove, async (req, _reply, access) => {
      await deleteEndpoint(ctx, await portalOf(req as FastifyRequest, access), endpointOf(req));
    });
    route(app, ctx, routes.attempts, async (req, _reply, access) =>
      endpointAttempts(ctx, await portalOf(req as FastifyRequest, access), endpointOf(req), req.query.limit),
    );
    route(app, ctx, routes.replay, async (req, _reply, access) =>
      replay(ctx, await portalOf(req as FastifyRequest, access), endpointOf(req), req.body?.after),
    );
  }
}
