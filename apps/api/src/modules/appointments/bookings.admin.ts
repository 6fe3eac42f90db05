/**
 * The staff admin's bookings (issue 14 item 4): the portal's list, or one link's, and a cancellation by
 * the desk. The cancellation is the customer's own (`cancel`: slot freed, `appointment.cancelled`, the
 * customer's and the agent's e-mails), by the staff user, with the audit row in its transaction.
 */
import { catalogAdminRoutes, entityErrorCodes, type Booking, type BookingsQuery } from '@sportello/contracts';
import { insertAudit } from '../../platform/audit';
import type { App, AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { staffSource } from '../../platform/events';
import { route } from '../../platform/route';
import { cancel } from './appointments.service';
import { listBookings, readBooking } from './bookings.queries';

/** The staff guard resolved the `:company` portal and the admin role in it. */
interface StaffPortal {
  staffUserId: number;
  displayName: string;
  portal: { portalId: number; portalKey: string } | null;
}
function portalOf(s: StaffPortal) {
  if (!s.portal) throw new Error('staff admin route without :company');
  return s.portal;
}

export async function bookings(
  ctx: AppContext,
  portalId: number,
  q: BookingsQuery,
): Promise<{ items: Booking[] }> {
  const from = q.when === 'all' ? null : ctx.clock.now();
  return { items: await listBookings(ctx.database.db, portalId, { eventKey: q.eventKey, from }) };
}

/** Cancelled already: the stored state, nothing sent or written again. */
export async function cancelBooking(ctx: AppContext, staff: StaffPortal, id: number): Promise<Booking> {
  const { portalId, portalKey } = portalOf(staff);
  const found = await readBooking(ctx.database.db, portalId, id);
  if (!found) throw notFound(`No booking ${id} in this portal`, entityErrorCodes.entityNotFound);
  const { cancelKey, ...before } = found;
  await cancel(ctx, portalKey, cancelKey, {
    source: staffSource(staff.staffUserId, staff.displayName),
    also: async (tx) => {
      const { cancelKey: _k, ...after } = (await readBooking(tx, portalId, id))!;
      await insertAudit(tx, {
        portalId,
        occurredAt: ctx.clock.now(),
        actorType: 'staff',
        apiKeyId: null,
        staffUserId: staff.staffUserId,
        entity: 'appointment',
        entityId: String(id),
        action: 'cancelled',
        before,
        after,
      });
    },
  });
  const { cancelKey: _k, ...after } = (await readBooking(ctx.database.db, portalId, id))!;
  return after;
}

export function registerBookingAdminRoutes(app: App, ctx: AppContext): void {
  const c = catalogAdminRoutes;
  route(app, ctx, c.bookings, async (req, _r, st) => bookings(ctx, portalOf(st).portalId, req.query));
  route(app, ctx, c.cancelBooking, async (req, _r, st) => cancelBooking(ctx, st, req.params.bookingid));
}
