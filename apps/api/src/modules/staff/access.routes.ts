/** /api/staff/portals/:company/admin/staff: the portal's staff and roles, for its staff admins. */
import { accessRoutes } from '@sportello/contracts';
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
    svc.setRole(ctx, portalOf(s), req.params.staffid, req.body.role),
  );
  route(app, ctx, r.remove, async (req, _reply, s) => {
    await svc.removeMember(ctx, portalOf(s), req.params.staffid);
  });
}
