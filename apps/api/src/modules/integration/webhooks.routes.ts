import { webhookAdminRoutes, webhookKeyRoutes, webhookStaffRoutes } from '@sportello/contracts';
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
 * (its own portal), `/api/admin/portals/:portal` with the installation key (the named portal), and
 * `/api/staff/portals/:company/admin` for a staff admin of that portal (the guard resolved it).
 */
// The loop below sees the union of both roots' contracts, whose params differ only by `portal`.
const endpointOf = (req: { params: unknown }) => (req.params as { endpointId: number }).endpointId;

export function registerWebhookRoutes(app: App, ctx: AppContext): void {
  for (const routes of [webhookKeyRoutes, webhookAdminRoutes, webhookStaffRoutes]) {
    const portalOf = async (req: FastifyRequest, access: unknown): Promise<number> => {
      if (access && typeof access === 'object') {
        if ('apiKeyId' in access) return (access as ApiKeyAccess).portalId;
        // The staff guard resolved the `:company` portal (read by shape: modules do not import each other).
        const staffPortal = (access as { portal?: { portalId: number } | null }).portal;
        if ('staffUserId' in access && staffPortal) return staffPortal.portalId;
      }
      return portalIdOf(ctx.database.db, String((req.params as { portal?: string }).portal ?? ''));
    };

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
