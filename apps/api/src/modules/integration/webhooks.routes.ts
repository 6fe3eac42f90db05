import {
  WEBHOOK_ROTATION_OVERLAP_HOURS,
  webhookAdminRoutes,
  webhookKeyRoutes,
  webhookStaffRoutes,
} from '@sportello/contracts';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyAccess } from '../../platform/api-keys';
import { staffActorOf, type AdminActor } from '../../platform/audit';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { portalIdOf } from './keys.service';
import {
  createEndpoint,
  deleteEndpoint,
  endpointAttempts,
  listEndpoints,
  replay,
  rotateSecret,
  updateEndpoint,
} from './webhooks.service';

/**
 * The same webhook routes under three roots: `/api/integration/v1` with a portal key holding `events`
 * (its own portal), `/api/admin/portals/:portal` with the installation key (the named portal), and
 * `/api/staff/portals/:company/admin` for a staff admin of that portal (the guard resolved it). Each
 * change is audited under whoever made it.
 */
// The loop below sees the union of the roots' contracts, whose params differ only by `portal`.
const endpointOf = (req: { params: unknown }) => (req.params as { endpointId: number }).endpointId;

type StaffAccess = Parameters<typeof staffActorOf>[0];

export function registerWebhookRoutes(app: App, ctx: AppContext): void {
  /** Who calls, in which portal: the key's, the staff guard's `:company`, or the admin key's `:portal`. */
  const actorOf = async (req: FastifyRequest, access: unknown): Promise<AdminActor> => {
    if (access && typeof access === 'object') {
      if ('apiKeyId' in access) {
        const k = access as ApiKeyAccess;
        return { type: 'api_key', apiKeyId: k.apiKeyId, portalId: k.portalId };
      }
      // Read by shape: modules do not import each other.
      if ('staffUserId' in access) return { type: 'staff', ...staffActorOf(access as StaffAccess) };
    }
    const portal = String((req.params as { portal?: string }).portal ?? '');
    return { type: 'admin_key', portalId: await portalIdOf(ctx.database.db, portal) };
  };

  for (const routes of [webhookKeyRoutes, webhookAdminRoutes, webhookStaffRoutes]) {
    route(app, ctx, routes.list, async (req, _reply, access) =>
      listEndpoints(ctx, (await actorOf(req as FastifyRequest, access)).portalId),
    );
    route(app, ctx, routes.create, async (req, _reply, access) =>
      createEndpoint(ctx, await actorOf(req as FastifyRequest, access), req.body),
    );
    route(app, ctx, routes.update, async (req, _reply, access) =>
      updateEndpoint(ctx, await actorOf(req as FastifyRequest, access), endpointOf(req), req.body),
    );
    route(app, ctx, routes.remove, async (req, _reply, access) => {
      await deleteEndpoint(ctx, await actorOf(req as FastifyRequest, access), endpointOf(req));
    });
    route(app, ctx, routes.attempts, async (req, _reply, access) =>
      endpointAttempts(
        ctx,
        (await actorOf(req as FastifyRequest, access)).portalId,
        endpointOf(req),
        req.query.limit,
      ),
    );
    route(app, ctx, routes.replay, async (req, _reply, access) =>
      replay(ctx, await actorOf(req as FastifyRequest, access), endpointOf(req), req.body?.after),
    );
    route(app, ctx, routes.rotate, async (req, _reply, access) =>
      rotateSecret(
        ctx,
        await actorOf(req as FastifyRequest, access),
        endpointOf(req),
        req.body?.overlapHours ?? WEBHOOK_ROTATION_OVERLAP_HOURS,
      ),
    );
  }
}
