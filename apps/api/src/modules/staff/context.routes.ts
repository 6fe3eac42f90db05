/**
 * The customer beside a ticket (issue 28 item 10). Every member of the portal sees the requester, the
 * company, the other open tickets, the contracts with their hour banks (what they log time against),
 * the signatures waiting and the appointments; invoices are money, the portal's admins' alone (as the
 * desk's billing screens are).
 */
import { staffContextRoutes, ticketErrorCodes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { route } from '../../platform/route';
import { ticketContext } from './context.queries';
import { portalOf } from './staff.access';

export function registerContextRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, staffContextRoutes.context, async (req, _reply, staff) => {
    const a = portalOf(staff);
    const found = await ticketContext(ctx.database.db, {
      portalId: a.portal.portalId,
      ticketExtId: req.params.ticketid,
      invoices: a.portal.role === 'admin',
      now: ctx.clock.now(),
      timeZone: a.portal.timeZone,
    });
    if (!found) throw notFound('No such ticket in this portal', ticketErrorCodes.ticketNotFound);
    return found;
  });
}
