import { inboundRoutes, mailboxAdminRoutes, mailboxStaffRoutes } from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { staffActorOf, type AdminActor } from '../../platform/audit';
import type { App, AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { contentDisposition } from '../../platform/files';
import { route } from '../../platform/route';
import { queryRows } from '../../platform/sql-json';
import {
  attachInbound,
  clearBounce,
  discardInbound,
  inboundRaw,
  listBounces,
  listInbound,
} from './inbound.service';
import { inviteInbound, type PeopleWriters } from './inbound.invite';
import { deleteMailbox, getMailbox, putMailbox, testMailbox } from './mailbox.service';

type StaffAccess = Parameters<typeof staffActorOf>[0];

async function portalIdOfKey(ctx: AppContext, key: string): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`select id from portals where key = ${key.toLowerCase()}`,
  );
  if (!row) throw notFound('No portal with this key', 'portal_not_found');
  return Number(row.id);
}

/**
 * The support mailbox under two roots: `/api/staff/portals/:company/admin` (a staff admin of that
 * portal, resolved by the guard) and `/api/admin/portals/:portal` (the installation key). The messages
 * that wait for someone are the desk's, for every agent of the portal.
 */
export function registerEmailRoutes(app: App, ctx: AppContext, people: PeopleWriters): void {
  const actorOf = async (req: FastifyRequest, access: unknown): Promise<AdminActor> => {
    if (access && typeof access === 'object' && 'staffUserId' in access)
      return { type: 'staff', ...staffActorOf(access as StaffAccess) };
    const portal = String((req.params as { portal?: string }).portal ?? '');
    return { type: 'admin_key', portalId: await portalIdOfKey(ctx, portal) };
  };

  for (const routes of [mailboxStaffRoutes, mailboxAdminRoutes]) {
    route(app, ctx, routes.get, async (req, _reply, access) =>
      getMailbox(ctx, (await actorOf(req as FastifyRequest, access)).portalId),
    );
    route(app, ctx, routes.put, async (req, _reply, access) =>
      putMailbox(ctx, await actorOf(req as FastifyRequest, access), req.body),
    );
    route(app, ctx, routes.remove, async (req, _reply, access) => {
      await deleteMailbox(ctx, await actorOf(req as FastifyRequest, access));
    });
    route(app, ctx, routes.test, async (req, _reply, access) =>
      testMailbox(ctx, (await actorOf(req as FastifyRequest, access)).portalId, req.body),
    );
  }

  route(app, ctx, inboundRoutes.list, async (req, _reply, access) =>
    listInbound(ctx, access.portal!.portalId, req.query),
  );
  route(app, ctx, inboundRoutes.discard, async (req, _reply, access) => {
    await discardInbound(ctx, access.portal!.portalId, access.staffUserId, req.params.inboundId);
  });
  route(app, ctx, inboundRoutes.attach, async (req, _reply, access) =>
    attachInbound(ctx, access.portal!.portalId, access.staffUserId, req.params.inboundId, req.body),
  );
  route(app, ctx, inboundRoutes.invite, async (req, _reply, access) =>
    inviteInbound(
      ctx,
      people,
      {
        type: 'staff',
        staffUserId: access.staffUserId,
        name: access.displayName,
        portalId: access.portal!.portalId,
        portalKey: access.portal!.portalKey,
        timeZone: access.portal!.timeZone,
      },
      req.params.inboundId,
      req.body,
    ),
  );
  route(app, ctx, inboundRoutes.bounces, async (req, _reply, access) =>
    listBounces(ctx, access.portal!.portalId, req.query),
  );
  route(app, ctx, inboundRoutes.clearBounce, async (req, _reply, access) => {
    await clearBounce(ctx, access.portal!.portalId, req.params.address);
  });
  route(app, ctx, inboundRoutes.raw, async (req, reply, access) => {
    const raw = await inboundRaw(ctx, access.portal!.portalId, req.params.inboundId);
    reply
      .header('Content-Type', 'message/rfc822')
      .header('Content-Disposition', contentDisposition('attachment', raw.name))
      .header('Content-Length', String(raw.size))
      .header('X-Content-Type-Options', 'nosniff');
    return reply.send(await ctx.fileStore.read(raw.sha256));
  });
}
