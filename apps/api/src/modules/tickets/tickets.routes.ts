import { ticketRoutes } from '@sportello/contracts';
import { sendJsonText } from '../../platform/answer-cache';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { receiveUpload } from '../../platform/uploads';
import { listTicketTypes } from './tickets.queries';
import {
  addComment,
  allTickets,
  closeTicket,
  colleagues,
  createTicket,
  markRead,
  myTickets,
  rateTicket,
  reopenTicket,
  setTicketFollowers,
  ticketDetail,
  ticketFollowers,
  unreadTickets,
} from './tickets.service';

export function registerTicketsRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, ticketRoutes.list, async (req, reply, tenant) =>
    sendJsonText(reply, await myTickets(ctx, tenant, req.query)),
  );
  route(app, ctx, ticketRoutes.all, async (req, reply, tenant) =>
    sendJsonText(reply, await allTickets(ctx, tenant, req.query)),
  );
  route(app, ctx, ticketRoutes.detail, (req, _reply, tenant) =>
    ticketDetail(ctx, tenant, req.params.ticketid),
  );
  route(app, ctx, ticketRoutes.create, (req, _reply, tenant) => createTicket(ctx, tenant, req.body));
  route(app, ctx, ticketRoutes.close, (req, _reply, tenant) => closeTicket(ctx, tenant, req.params.ticketid));
  route(app, ctx, ticketRoutes.reopen, (req, _reply, tenant) =>
    reopenTicket(ctx, tenant, req.params.ticketid),
  );
  route(app, ctx, ticketRoutes.rate, (req, _reply, tenant) =>
    rateTicket(ctx, tenant, req.params.ticketid, req.body),
  );
  route(app, ctx, ticketRoutes.unread, (_req, _reply, tenant) => unreadTickets(ctx, tenant));
  route(app, ctx, ticketRoutes.markRead, async (req, _reply, tenant) => {
    await markRead(ctx, tenant, req.params.ticketid);
  });
  route(app, ctx, ticketRoutes.followers, (req, _reply, tenant) =>
    ticketFollowers(ctx, tenant, req.params.ticketid),
  );
  route(app, ctx, ticketRoutes.setFollowers, (req, _reply, tenant) =>
    setTicketFollowers(ctx, tenant, req.params.ticketid, req.body.webUserIds),
  );
  route(app, ctx, ticketRoutes.comment, (req, _reply, tenant) => addComment(ctx, tenant, req.body));
  for (const contract of [ticketRoutes.uploadTicketAttachment, ticketRoutes.uploadCommentAttachment]) {
    route(app, ctx, contract, async (req, _reply, tenant) => {
      const stored = await receiveUpload(req as never, ctx, tenant, async (_tx, file) => file);
      return { id: stored.id, url: ctx.signer.sign(stored.id, stored.name, ctx.clock.now()) };
    });
  }
  route(app, ctx, ticketRoutes.colleagues, (_req, _reply, tenant) => colleagues(ctx, tenant));
  route(app, ctx, ticketRoutes.types, (_req, _reply, portal) =>
    listTicketTypes(ctx.database.db, portal.portalId),
  );
}
