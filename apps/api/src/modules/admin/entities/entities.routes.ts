/**
 * The entity routes, twice over one service: under `/api/integration/v1` for a portal key (the key's
 * portal; POSTs honour `Idempotency-Key`) and under `/api/staff/portals/:company/admin` for a staff
 * admin of that portal (the guard refuses agents); and the admins' audit log.
 */
import {
  auditRoutes,
  catalogAdminRoutes,
  deskEntityRoutes,
  entityCrudRoutes,
  entityKeyRoutes,
  entityStaffRoutes,
  type EntityCrud,
} from '@sportello/contracts';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../../platform/context';
import type { ApiKeyAccess } from '../../../platform/api-keys';
import { checkIdempotencyKey, type Answer } from '../../../platform/idempotency';
import { route } from '../../../platform/route';
import { exportAudit, listAudit } from './audit.service';
import * as catalog from './catalog.service';
import * as svc from './entities.service';
import type { Actor, EntityService, Idem } from './entities.service';

export const keyActor = (k: ApiKeyAccess): Actor => ({
  type: 'api_key',
  apiKeyId: k.apiKeyId,
  portalId: k.portalId,
  portalKey: k.portalKey,
  timeZone: k.timeZone,
});

/** The staff guard resolved the `:company` portal and the admin role in it. */
export interface StaffPortal {
  staffUserId: number;
  displayName: string;
  portal: { portalId: number; portalKey: string; timeZone: string } | null;
}
export function staffActor(s: StaffPortal): Actor & { type: 'staff' } {
  if (!s.portal) throw new Error('staff admin route without :company');
  return {
    type: 'staff',
    staffUserId: s.staffUserId,
    name: s.displayName,
    portalId: s.portal.portalId,
    portalKey: s.portal.portalKey,
    timeZone: s.portal.timeZone,
  };
}

export function send<T>(reply: FastifyReply, a: Answer<T>) {
  if (a.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.code(a.status).send(a.body);
}

export const idemOf = (headers: Record<string, unknown>, path: string): Idem => ({
  key: checkIdempotencyKey(headers['idempotency-key'] as string | string[] | undefined),
  route: `POST ${path}`,
});

/** The service of each entity kind of `entityCrudRoutes` (the compiler checks that none is missing). */
const entityServices: Record<
  keyof typeof entityCrudRoutes.key,
  EntityService<never, never, never, object>
> = {
  company: svc.companies,
  contact: svc.contacts,
  ticket: svc.tickets,
  invoice: svc.invoices,
  estimate: svc.estimates,
  document: svc.documents,
  report: svc.reports,
  publicFile: svc.publicFiles,
  activityContract: catalog.activityContracts,
  serviceContract: catalog.serviceContracts,
  subscription: catalog.subscriptions,
  appointmentLink: catalog.appointmentLinks,
  taskLink: catalog.taskLinks,
  tag: catalog.tags,
  wikiFolder: catalog.wikiFolders,
  wikiElement: catalog.wikiElements,
};

/** The two roots: who acts, and whether a POST honours `Idempotency-Key` (keys only). */
interface Root {
  routes: Record<string, EntityCrud>;
  users: typeof entityKeyRoutes | typeof entityStaffRoutes;
  actor: (access: never) => Actor;
  idempotent: boolean;
}
const roots: Root[] = [
  { routes: entityCrudRoutes.key, users: entityKeyRoutes, actor: keyActor, idempotent: true },
  { routes: entityCrudRoutes.staff, users: entityStaffRoutes, actor: staffActor, idempotent: false },
];

/** The entity's id in the path: the last path parameter (`:id`, `:contactid`, `:eventkey`…). */
const idOf = (contract: EntityCrud['get'], params: Record<string, unknown>) =>
  params[contract.path.slice(contract.path.lastIndexOf(':') + 1)] as never;

function registerCrud(
  app: App,
  ctx: AppContext,
  root: Root,
  routes: EntityCrud,
  service: EntityService<never, never, never, object>,
) {
  const actorOf = (access: unknown) => root.actor(access as never);
  route(app, ctx, routes.create, async (req, reply, access) =>
    send(
      reply,
      await service.create(
        ctx,
        actorOf(access),
        req.body as never,
        root.idempotent ? idemOf(req.headers, routes.create.path) : undefined,
      ),
    ),
  );
  route(app, ctx, routes.get, async (req, reply, access) =>
    reply.send(
      await service.get(ctx, actorOf(access), idOf(routes.get, req.params as Record<string, unknown>)),
    ),
  );
  route(app, ctx, routes.update, async (req, reply, access) =>
    reply.send(
      await service.update(
        ctx,
        actorOf(access),
        idOf(routes.update, req.params as Record<string, unknown>),
        req.body as never,
      ),
    ),
  );
  route(app, ctx, routes.remove, async (req, reply, access) => {
    await service.remove(ctx, actorOf(access), idOf(routes.remove, req.params as Record<string, unknown>));
    return reply.code(204).send();
  });
}

/** The actions on a user named in the path (`:username`), each answering the user. */
const userActions = {
  resendInvitation: svc.resendInvitation,
  revokeInvitation: (ctx: AppContext, actor: Actor, name: string) => svc.revokeInvitation(ctx, actor, name),
  deactivateUser: svc.deactivateUser,
  passwordReset: svc.sendPasswordReset,
} satisfies Record<
  string,
  (ctx: AppContext, a: Actor, name: string, idem?: Idem) => Promise<Answer<unknown>>
>;

function registerUsers(app: App, ctx: AppContext, root: Root) {
  const u = root.users as typeof entityKeyRoutes;
  const actorOf = (access: unknown) => root.actor(access as never);
  const idem = (headers: Record<string, unknown>, path: string) =>
    root.idempotent ? idemOf(headers, path) : undefined;
  const name = (p: Record<string, unknown>) => p.username as string;
  route(app, ctx, u.inviteUser, async (req, reply, access) =>
    send(reply, await svc.inviteUser(ctx, actorOf(access), req.body, idem(req.headers, u.inviteUser.path))),
  );
  route(app, ctx, u.user, async (req, _r, access) => svc.getUser(ctx, actorOf(access), name(req.params)));
  for (const [action, run] of Object.entries(userActions)) {
    const contract = u[action as keyof typeof userActions];
    // Revoking is a DELETE: no Idempotency-Key.
    route(app, ctx, contract, async (req, reply, access) =>
      send(
        reply,
        await run(
          ctx,
          actorOf(access),
          name(req.params),
          contract.method === 'POST' ? idem(req.headers, contract.path) : undefined,
        ),
      ),
    );
  }
}

export function registerEntityRoutes(app: App, ctx: AppContext): void {
  for (const root of roots)
    for (const [kind, routes] of Object.entries(root.routes))
      registerCrud(app, ctx, root, routes, entityServices[kind as keyof typeof entityServices]);

  for (const root of roots) registerUsers(app, ctx, root);

  // ---- the catalogue's lists (staff admins; the bookings are the appointments module's) ----
  const c = catalogAdminRoutes;
  const portalOf = (st: StaffPortal) => staffActor(st).portalId;
  route(app, ctx, c.appointmentLinks, async (_q, _r, st) => catalog.listLinks(ctx, portalOf(st)));
  route(app, ctx, c.companies, async (req, _r, st) => catalog.companyPicker(ctx, portalOf(st), req.query.q));
  route(app, ctx, c.wiki, async (req, _r, st) => catalog.listWikiOf(ctx, portalOf(st), req.query.companyId));
  route(app, ctx, c.taskLinks, async (_q, _r, st) => catalog.listTasks(ctx, portalOf(st)));
  route(app, ctx, c.activityContracts, async (req, _r, st) =>
    catalog.listContractsOf(ctx, portalOf(st), req.query.companyId),
  );
  route(app, ctx, c.serviceContracts, async (req, _r, st) =>
    catalog.listServiceContractsOf(ctx, portalOf(st), req.query.companyId),
  );
  route(app, ctx, c.subscriptions, async (req, _r, st) =>
    catalog.listSubscriptionsOf(ctx, portalOf(st), req.query.companyId),
  );

  // ---- the desk's own routes (every staff member of the portal): the same services ----
  const d = deskEntityRoutes;
  route(app, ctx, d.createTicket, async (req, reply, st) =>
    reply.code(201).send(await svc.createDeskTicket(ctx, staffActor(st), req.body)),
  );
  route(app, ctx, d.companies, async (req, _r, st) => catalog.companyPicker(ctx, portalOf(st), req.query.q));
  route(app, ctx, d.taskLinks, async (req, _r, st) =>
    catalog.listTasksOf(ctx, portalOf(st), req.params.ticketid),
  );
  route(app, ctx, d.createTaskLink, async (req, reply, st) => {
    const actor = staffActor(st);
    await svc.getTicket(ctx, actor, req.params.ticketid); // 404 for a ticket the portal lacks
    return send(reply, await catalog.taskLinks.create(ctx, actor, { ticketId: req.params.ticketid }));
  });
  route(app, ctx, d.deleteTaskLink, async (req, reply, st) => {
    const actor = staffActor(st);
    // Only a link of the ticket in the path (another ticket's key is unknown here).
    const link = await catalog.taskLinks.get(ctx, actor, req.params.eventkey);
    if (link.ticketId !== req.params.ticketid) throw svc.missing('task link', req.params.eventkey);
    await catalog.taskLinks.remove(ctx, actor, req.params.eventkey);
    return reply.code(204).send();
  });

  // ---- audit log (staff admins) ----
  route(app, ctx, auditRoutes.list, async (req, _r, st) =>
    listAudit(ctx.database.db, staffActor(st).portalId, req.query),
  );
  route(app, ctx, auditRoutes.export, async (req, reply, st) => {
    const stream = exportAudit(ctx.database.db, staffActor(st).portalId, req.query);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="audit-log-${req.params.company}.csv"`)
      .header('Cache-Control', 'private, no-store')
      .send(stream);
  });
}
