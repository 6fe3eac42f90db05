import { staffAuthRoutes, staffInboxRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { portalOf } from './staff.access';
import { inbox, staffTicket } from './inbox.service';
import {
  checkStaffLink,
  confirmStaffLink,
  staffLogin,
  staffLogout,
  staffMe,
  staffRecovery,
} from './staff.service';

export function registerStaffRoutes(app: App, ctx: AppContext): void {
  // Nothing of a staff session or a staff answer may be cached by a browser or a proxy.
  app.addHook('onSend', async (req, reply) => {
    if (/^\/api\/staff(\/|$|\?)/i.test(req.url)) reply.header('Cache-Control', 'no-store');
  });

  route(app, ctx, staffAuthRoutes.login, (req) => staffLogin(ctx, req.body.email, req.body.password, req.ip));
  route(app, ctx, staffAuthRoutes.logout, async (_req, _reply, staff) => {
    await staffLogout(ctx, staff.sessionId);
  });
  route(app, ctx, staffAuthRoutes.me, (_req, _reply, staff) => staffMe(ctx, staff));
  route(app, ctx, staffAuthRoutes.recovery, async (req) => {
    await staffRecovery(ctx, req.body.email, req.body.company, req.ip);
    return { status: 'sent' as const };
  });
  route(app, ctx, staffAuthRoutes.link, (req) => checkStaffLink(ctx, req.params.token));
  route(app, ctx, staffAuthRoutes.confirm, (req) =>
    confirmStaffLink(ctx, req.body.token, req.body.password, req.body.passwordRepeat),
  );

  route(app, ctx, staffInboxRoutes.list, (req, _reply, staff) => inbox(ctx, portalOf(staff), req.query));
  route(app, ctx, staffInboxRoutes.detail, (req, _reply, staff) =>
    staffTicket(ctx, portalOf(staff), req.params.ticketid),
  );
}
