/**
 * The entity routes, twice over one service: under `/api/integration/v1` for a portal key (the key's
 * portal; POSTs honour `Idempotency-Key`) and under `/api/staff/portals/:company/admin` for a staff
 * admin of that portal (the guard refuses agents); and the admins' audit log.
 */
import { auditRoutes, entityKeyRoutes, entityStaffRoutes } from '@sportello/contracts';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../../platform/context';
import type { ApiKeyAccess } from '../../../platform/api-keys';
import { checkIdempotencyKey, type Answer } from '../../../platform/idempotency';
import { route } from '../../../platform/route';
import { exportAudit, listAudit } from './audit.service';
import * as svc from './entities.service';
import type { Actor, Idem } from './entities.service';

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
export function staffActor(s: StaffPortal): Actor {
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

/**
 * The validated id of the path (the contracts are built for two roots by one generic function, which
 * leaves the params typed as a record).
 */
const idOf = (params: Record<string, unknown>, name: string) => params[name] as number;

export const idemOf = (headers: Record<string, unknown>, path: string): Idem => ({
  key: checkIdempotencyKey(headers['idempotency-key'] as string | string[] | undefined),
  route: `POST ${path}`,
});

export function registerEntityRoutes(app: App, ctx: AppContext): void {
  // ---- integration API (a portal key) ----
  const k = entityKeyRoutes;
  route(app, ctx, k.createCompany, async (req, reply, key) =>
    send(
      reply,
      await svc.createCompany(ctx, keyActor(key), req.body, idemOf(req.headers, k.createCompany.path)),
    ),
  );
  route(app, ctx, k.company, async (req, _r, key) =>
    svc.getCompany(ctx, keyActor(key), idOf(req.params, 'id')),
  );
  route(app, ctx, k.updateCompany, async (req, _r, key) =>
    svc.updateCompany(ctx, keyActor(key), idOf(req.params, 'id'), req.body),
  );
  route(app, ctx, k.deleteCompany, async (req, reply, key) => {
    await svc.deleteCompany(ctx, keyActor(key), idOf(req.params, 'id'));
    return reply.code(204).send();
  });
  route(app, ctx, k.createContact, async (req, reply, key) =>
    send(
      reply,
      await svc.createContact(ctx, keyActor(key), req.body, idemOf(req.headers, k.createContact.path)),
    ),
  );
  route(app, ctx, k.contact, async (req, _r, key) =>
    svc.getContact(ctx, keyActor(key), idOf(req.params, 'contactid')),
  );
  route(app, ctx, k.updateContact, async (req, _r, key) =>
    svc.updateContact(ctx, keyActor(key), idOf(req.params, 'contactid'), req.body),
  );
  route(app, ctx, k.deleteContact, async (req, reply, key) => {
    await svc.deleteContact(ctx, keyActor(key), idOf(req.params, 'contactid'));
    return reply.code(204).send();
  });
  route(app, ctx, k.createTicket, async (req, reply, key) =>
    send(
      reply,
      await svc.createTicket(ctx, keyActor(key), req.body, idemOf(req.headers, k.createTicket.path)),
    ),
  );
  route(app, ctx, k.ticket, async (req, _r, key) =>
    svc.getTicket(ctx, keyActor(key), idOf(req.params, 'ticketid')),
  );
  route(app, ctx, k.updateTicket, async (req, _r, key) =>
    svc.updateTicket(ctx, keyActor(key), idOf(req.params, 'ticketid'), req.body),
  );
  route(app, ctx, k.deleteTicket, async (req, reply, key) => {
    await svc.deleteTicket(ctx, keyActor(key), idOf(req.params, 'ticketid'));
    return reply.code(204).send();
  });

  const name = (p: Record<string, unknown>) => p.username as string;
  route(app, ctx, k.inviteUser, async (req, reply, key) =>
    send(reply, await svc.inviteUser(ctx, keyActor(key), req.body, idemOf(req.headers, k.inviteUser.path))),
  );
  route(app, ctx, k.user, async (req, _r, key) => svc.getUser(ctx, keyActor(key), name(req.params)));
  route(app, ctx, k.resendInvitation, async (req, reply, key) =>
    send(
      reply,
      await svc.resendInvitation(
        ctx,
        keyActor(key),
        name(req.params),
        idemOf(req.headers, k.resendInvitation.path),
      ),
    ),
  );
  route(app, ctx, k.revokeInvitation, async (req, reply, key) =>
    send(reply, await svc.revokeInvitation(ctx, keyActor(key), name(req.params))),
  );
  route(app, ctx, k.deactivateUser, async (req, reply, key) =>
    send(
      reply,
      await svc.deactivateUser(
        ctx,
        keyActor(key),
        name(req.params),
        idemOf(req.headers, k.deactivateUser.path),
      ),
    ),
  );
  route(app, ctx, k.passwordReset, async (req, reply, key) =>
    send(
      reply,
      await svc.sendPasswordReset(
        ctx,
        keyActor(key),
        name(req.params),
        idemOf(req.headers, k.passwordReset.path),
      ),
    ),
  );

  route(app, ctx, k.createInvoice, async (req, reply, key) =>
    send(
      reply,
      await svc.createInvoice(ctx, keyActor(key), req.body, idemOf(req.headers, k.createInvoice.path)),
    ),
  );
  route(app, ctx, k.invoice, async (req, _r, key) =>
    svc.getInvoice(ctx, keyActor(key), idOf(req.params, 'invoiceid')),
  );
  route(app, ctx, k.updateInvoice, async (req, _r, key) =>
    svc.updateInvoice(ctx, keyActor(key), idOf(req.params, 'invoiceid'), req.body),
  );
  route(app, ctx, k.deleteInvoice, async (req, reply, key) => {
    await svc.deleteInvoice(ctx, keyActor(key), idOf(req.params, 'invoiceid'));
    return reply.code(204).send();
  });
  route(app, ctx, k.createEstimate, async (req, reply, key) =>
    send(
      reply,
      await svc.createEstimate(ctx, keyActor(key), req.body, idemOf(req.headers, k.createEstimate.path)),
    ),
  );
  route(app, ctx, k.estimate, async (req, _r, key) =>
    svc.getEstimate(ctx, keyActor(key), idOf(req.params, 'estimateid')),
  );
  route(app, ctx, k.updateEstimate, async (req, _r, key) =>
    svc.updateEstimate(ctx, keyActor(key), idOf(req.params, 'estimateid'), req.body),
  );
  route(app, ctx, k.deleteEstimate, async (req, reply, key) => {
    await svc.deleteEstimate(ctx, keyActor(key), idOf(req.params, 'estimateid'));
    return reply.code(204).send();
  });
  route(app, ctx, k.createDocument, async (req, reply, key) =>
    send(
      reply,
      await svc.createDocument(ctx, keyActor(key), req.body, idemOf(req.headers, k.createDocument.path)),
    ),
  );
  route(app, ctx, k.document, async (req, _r, key) =>
    svc.getDocument(ctx, keyActor(key), idOf(req.params, 'documentid')),
  );
  route(app, ctx, k.updateDocument, async (req, _r, key) =>
    svc.updateDocument(ctx, keyActor(key), idOf(req.params, 'documentid'), req.body),
  );
  route(app, ctx, k.deleteDocument, async (req, reply, key) => {
    await svc.deleteDocument(ctx, keyActor(key), idOf(req.params, 'documentid'));
    return reply.code(204).send();
  });
  route(app, ctx, k.createReport, async (req, reply, key) =>
    send(
      reply,
      await svc.createReport(ctx, keyActor(key), req.body, idemOf(req.headers, k.createReport.path)),
    ),
  );
  route(app, ctx, k.report, async (req, _r, key) =>
    svc.getReport(ctx, keyActor(key), idOf(req.params, 'reportid')),
  );
  route(app, ctx, k.updateReport, async (req, _r, key) =>
    svc.updateReport(ctx, keyActor(key), idOf(req.params, 'reportid'), req.body),
  );
  route(app, ctx, k.deleteReport, async (req, reply, key) => {
    await svc.deleteReport(ctx, keyActor(key), idOf(req.params, 'reportid'));
    return reply.code(204).send();
  });

  // ---- staff admin API (a staff user with the admin role of :company) ----
  const s = entityStaffRoutes;
  route(app, ctx, s.createCompany, async (req, reply, st) =>
    send(reply, await svc.createCompany(ctx, staffActor(st), req.body)),
  );
  route(app, ctx, s.company, async (req, _r, st) =>
    svc.getCompany(ctx, staffActor(st), idOf(req.params, 'id')),
  );
  route(app, ctx, s.updateCompany, async (req, _r, st) =>
    svc.updateCompany(ctx, staffActor(st), idOf(req.params, 'id'), req.body),
  );
  route(app, ctx, s.deleteCompany, async (req, reply, st) => {
    await svc.deleteCompany(ctx, staffActor(st), idOf(req.params, 'id'));
    return reply.code(204).send();
  });
  route(app, ctx, s.createContact, async (req, reply, st) =>
    send(reply, await svc.createContact(ctx, staffActor(st), req.body)),
  );
  route(app, ctx, s.contact, async (req, _r, st) =>
    svc.getContact(ctx, staffActor(st), idOf(req.params, 'contactid')),
  );
  route(app, ctx, s.updateContact, async (req, _r, st) =>
    svc.updateContact(ctx, staffActor(st), idOf(req.params, 'contactid'), req.body),
  );
  route(app, ctx, s.deleteContact, async (req, reply, st) => {
    await svc.deleteContact(ctx, staffActor(st), idOf(req.params, 'contactid'));
    return reply.code(204).send();
  });
  route(app, ctx, s.createTicket, async (req, reply, st) =>
    send(reply, await svc.createTicket(ctx, staffActor(st), req.body)),
  );
  route(app, ctx, s.ticket, async (req, _r, st) =>
    svc.getTicket(ctx, staffActor(st), idOf(req.params, 'ticketid')),
  );
  route(app, ctx, s.updateTicket, async (req, _r, st) =>
    svc.updateTicket(ctx, staffActor(st), idOf(req.params, 'ticketid'), req.body),
  );
  route(app, ctx, s.deleteTicket, async (req, reply, st) => {
    await svc.deleteTicket(ctx, staffActor(st), idOf(req.params, 'ticketid'));
    return reply.code(204).send();
  });

  route(app, ctx, s.inviteUser, async (req, reply, st) =>
    send(reply, await svc.inviteUser(ctx, staffActor(st), req.body)),
  );
  route(app, ctx, s.user, async (req, _r, st) => svc.getUser(ctx, staffActor(st), name(req.params)));
  route(app, ctx, s.resendInvitation, async (req, reply, st) =>
    send(reply, await svc.resendInvitation(ctx, staffActor(st), name(req.params))),
  );
  route(app, ctx, s.revokeInvitation, async (req, reply, st) =>
    send(reply, await svc.revokeInvitation(ctx, staffActor(st), name(req.params))),
  );
  route(app, ctx, s.deactivateUser, async (req, reply, st) =>
    send(reply, await svc.deactivateUser(ctx, staffActor(st), name(req.params))),
  );
  route(app, ctx, s.passwordReset, async (req, reply, st) =>
    send(reply, await svc.sendPasswordReset(ctx, staffActor(st), name(req.params))),
  );

  route(app, ctx, s.createInvoice, async (req, reply, st) =>
    send(reply, await svc.createInvoice(ctx, staffActor(st), req.body)),
  );
  route(app, ctx, s.invoice, async (req, _r, st) =>
    svc.getInvoice(ctx, staffActor(st), idOf(req.params, 'invoiceid')),
  );
  route(app, ctx, s.updateInvoice, async (req, _r, st) =>
    svc.updateInvoice(ctx, staffActor(st), idOf(req.params, 'invoiceid'), req.body),
  );
  route(app, ctx, s.deleteInvoice, async (req, reply, st) => {
    await svc.deleteInvoice(ctx, staffActor(st), idOf(req.params, 'invoiceid'));
    return reply.code(204).send();
  });
  route(app, ctx, s.createEstimate, async (req, reply, st) =>
    send(reply, await svc.createEstimate(ctx, staffActor(st), req.body)),
  );
  route(app, ctx, s.estimate, async (req, _r, st) =>
    svc.getEstimate(ctx, staffActor(st), idOf(req.params, 'estimateid')),
  );
  route(app, ctx, s.updateEstimate, async (req, _r, st) =>
    svc.updateEstimate(ctx, staffActor(st), idOf(req.params, 'estimateid'), req.body),
  );
  route(app, ctx, s.deleteEstimate, async (req, reply, st) => {
    await svc.deleteEstimate(ctx, staffActor(st), idOf(req.params, 'estimateid'));
    return reply.code(204).send();
  });
  route(app, ctx, s.createDocument, async (req, reply, st) =>
    send(reply, await svc.createDocument(ctx, staffActor(st), req.body)),
  );
  route(app, ctx, s.document, async (req, _r, st) =>
    svc.getDocument(ctx, staffActor(st), idOf(req.params, 'documentid')),
  );
  route(app, ctx, s.updateDocument, async (req, _r, st) =>
    svc.updateDocument(ctx, staffActor(st), idOf(req.params, 'documentid'), req.body),
  );
  route(app, ctx, s.deleteDocument, async (req, reply, st) => {
    await svc.deleteDocument(ctx, staffActor(st), idOf(req.params, 'documentid'));
    return reply.code(204).send();
  });
  route(app, ctx, s.createReport, async (req, reply, st) =>
    send(reply, await svc.createReport(ctx, staffActor(st), req.body)),
  );
  route(app, ctx, s.report, async (req, _r, st) =>
    svc.getReport(ctx, staffActor(st), idOf(req.params, 'reportid')),
  );
  route(app, ctx, s.updateReport, async (req, _r, st) =>
    svc.updateReport(ctx, staffActor(st), idOf(req.params, 'reportid'), req.body),
  );
  route(app, ctx, s.deleteReport, async (req, reply, st) => {
    await svc.deleteReport(ctx, staffActor(st), idOf(req.params, 'reportid'));
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
