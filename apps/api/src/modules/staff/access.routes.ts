/**
 * /api/staff/portals/:company/admin/staff: the portal's staff and roles, for its staff admins; and
 * /api/admin/portals/:portal/staff, the installation key's invitation (the first admin of a portal).
 */
import { accessRoutes, staffInstallationRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { portalOf } from './staff.access';
import * as svc from './access.service';

export function registerAccessRoutes(app: App, ctx: AppContext): void {
  const r = accessRoutes;
  route(app, ctx, r.members, async (_req, _reply, s) => svc.listStaff(ctx, portalOf(s)));
  route(app, ctx, r.invite, async (req, _reply, s) => svc.inviteMember(ctx, portalOf(s), req.body));
  route(app, ctx, r.resend, async (req, _reply, s) =>
    svc.resendInvitation(ctx, portalOf(s), req.params.staffid),
  );
  route(app, ctx, r.setRole, async (req, _reply, s) =>
    svc.setRole(ctx, portalOf(s), req.params.staffid, req.body.role, req.body.revokeMade),
  );
  route(app, ctx, r.made, async (req, _reply, s) => svc.madeByMember(ctx, portalOf(s), req.params.staffid));
  route(app, ctx, r.remove, async (req, _reply, s) => {
    await svc.removeMember(ctx, portalOf(s), req.params.staffid, req.body?.revokeMade ?? false);
  });
  route(app, ctx, staffInstallationRoutes.invite, async (req) =>
    svc.inviteByInstallation(ctx, req.params.portal, req.body),
  );
}
