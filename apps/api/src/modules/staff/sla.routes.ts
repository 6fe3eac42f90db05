import { staffSlaCompanyRoutes, staffSlaRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { removeSlaCompany, setSlaCompany, slaCompanies } from './sla-companies.service';
import { replaceSlaPolicy, slaPolicy } from './sla.service';
import { portalOf } from './staff.access';

/**
 * The service-level policy (issue 28 item 13): agents read it, admins replace it; the companies'
 * own targets are the admins'.
 */
export function registerSlaRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, staffSlaRoutes.get, (_req, _reply, staff) => slaPolicy(ctx, portalOf(staff)));
  route(app, ctx, staffSlaRoutes.put, (req, _reply, staff) =>
    replaceSlaPolicy(ctx, portalOf(staff), req.body),
  );
  const c = staffSlaCompanyRoutes;
  route(app, ctx, c.list, (_req, _reply, staff) => slaCompanies(ctx, portalOf(staff)));
  route(app, ctx, c.put, (req, _reply, staff) =>
    setSlaCompany(ctx, portalOf(staff), req.params.id, req.body),
  );
  route(app, ctx, c.remove, async (req, _reply, staff) => {
    await removeSlaCompany(ctx, portalOf(staff), req.params.id);
  });
}
