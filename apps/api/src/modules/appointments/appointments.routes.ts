import { appointmentRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { book, cancel, getAppointment, getLink, getSlots } from './appointments.service';
import { registerBookingAdminRoutes } from './bookings.admin';

/** Answers are not cached: slots change with every booking. */
export function registerAppointmentsRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, appointmentRoutes.appointment, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return getAppointment(ctx, req.params.company, req.params.cancelkey);
  });
  route(app, ctx, appointmentRoutes.cancel, (req) => cancel(ctx, req.params.company, req.params.cancelkey));
  route(app, ctx, appointmentRoutes.link, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return getLink(ctx, req.params.company, req.params.eventkey);
  });
  route(app, ctx, appointmentRoutes.slots, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return getSlots(ctx, req.params.company, req.params.eventkey, req.query);
  });
  route(app, ctx, appointmentRoutes.book, (req) =>
    book(ctx, req.params.company, req.params.eventkey, req.body, req.ip),
  );
  registerBookingAdminRoutes(app, ctx);
}
