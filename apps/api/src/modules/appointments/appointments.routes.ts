import {
  appointmentBookingRequestSchema,
  appointmentBookingSchema,
  appointmentCancelParamsSchema,
  appointmentLinkParamsSchema,
  appointmentLinkSchema,
  appointmentSlotsQuerySchema,
  appointmentSlotsSchema,
  appointmentSummarySchema,
  errorSchema,
} from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { book, cancel, getAppointment, getLink, getSlots } from './appointments.service';

/**
 * Public routes (no token): the event key of a link, or the cancellation key of an appointment, is
 * the only credential. Answers are not cached: slots change with every booking.
 */
export function registerAppointmentsRoutes(app: App, ctx: AppContext): void {
  const tags = ['appointments'];

  // Registered before `/:eventkey` routes only for readability: the static segment wins anyway.
  app.get(
    '/api/appointments/:company/cancellation/:cancelkey',
    {
      schema: {
        tags,
        summary: 'An appointment by its cancellation key (public)',
        params: appointmentCancelParamsSchema,
        response: { 200: appointmentSummarySchema, 404: errorSchema },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return getAppointment(ctx, req.params.company, req.params.cancelkey);
    },
  );

  app.post(
    '/api/appointments/:company/cancellation/:cancelkey',
    {
      schema: {
        tags,
        summary:
          'Cancels an appointment and frees its slot; cancelling again answers the same state (public)',
        params: appointmentCancelParamsSchema,
        response: { 200: appointmentSummarySchema, 404: errorSchema },
      },
    },
    async (req) => cancel(ctx, req.params.company, req.params.cancelkey),
  );

  app.get(
    '/api/appointments/:company/:eventkey',
    {
      schema: {
        tags,
        summary: 'An appointment link: title, agent, time zone, durations and the bookable days (public)',
        params: appointmentLinkParamsSchema,
        response: { 200: appointmentLinkSchema, 404: errorSchema },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return getLink(ctx, req.params.company, req.params.eventkey);
    },
  );

  app.get(
    '/api/appointments/:company/:eventkey/slots',
    {
      schema: {
        tags,
        summary: 'Free slots per day in the portal time zone for a duration (public)',
        params: appointmentLinkParamsSchema,
        querystring: appointmentSlotsQuerySchema,
        response: { 200: appointmentSlotsSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return getSlots(ctx, req.params.company, req.params.eventkey, req.query);
    },
  );

  app.post(
    '/api/appointments/:company/:eventkey',
    {
      schema: {
        tags,
        summary:
          'Books a slot; e-mails the confirmation with an .ics invitation and the cancellation link (public)',
        params: appointmentLinkParamsSchema,
        body: appointmentBookingRequestSchema,
        response: {
          201: appointmentBookingSchema,
          400: errorSchema,
          404: errorSchema,
          409: errorSchema,
          429: errorSchema,
        },
      },
    },
    async (req, reply) => {
      const booked = await book(ctx, req.params.company, req.params.eventkey, req.body, req.ip);
      return reply.code(201).send(booked);
    },
  );
}
