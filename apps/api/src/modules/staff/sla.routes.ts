import { staffSlaRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { replaceSlaPolicy, slaPolicy } from './sla.service';
import { portalOf } from './staff.access';

/** The service-level policy (issue 28 item 13): agents read it, admins replace it. */
export function registerSlaRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, staffSlaRoutes.get, (_req, _reply, staff) => slaPolicy(ctx, portalOf(staff)));
  route(app, ctx, staffSlaRoutes.put, (req, _reply, staff) =>
    replaceSlaPolicy(ctx, portalOf(staff), req.body),
  );
}
