// Schemas of the appointments area: requests and answers, shared by the API and the web app.
// Every route of this area is public: an unguessable key in the URL is the only credential.
import { z } from 'zod';
import { dateTimeInput, dayString, isoDateTime } from './common';
import { errorSchema } from './common';
import { portalLanguageSchema } from './portals';
import { defineRoute } from './route';
import {
  appointmentErrorCodes,
  APPOINTMENT_FIELDS_REQUIRED_MESSAGE,
  APPOINTMENT_DURATION_STEP,
  APPOINTMENT_MAX_DURATION_MINUTES,
  APPOINTMENT_TEXT_MAX,
  APPOINTMENT_NOTES_MAX,
  APPOINTMENT_REQUIRED_FIELDS,
  appointmentEmailPattern,
} from './appointment-codes';

export {
  appointmentErrorCodes,
  APPOINTMENT_FIELDS_REQUIRED_MESSAGE,
  APPOINTMENT_DURATION_STEP,
  APPOINTMENT_MAX_DURATION_MINUTES,
  APPOINTMENT_TEXT_MAX,
  APPOINTMENT_NOTES_MAX,
  APPOINTMENT_REQUIRED_FIELDS,
  appointmentEmailPattern,
};

/**
 * A duration in minutes: whole 5-minute steps (APPOINTMENT_DURATION_STEP), at most the maximum. The
 * refinement names the code the API answers (`invalid_duration`); `multipleOf` states it in OpenAPI.
 */
export const appointmentDurationSchema = z
  .number()
  .int()
  .min(APPOINTMENT_DURATION_STEP)
  .max(APPOINTMENT_MAX_DURATION_MINUTES)
  .refine((m) => m % APPOINTMENT_DURATION_STEP === 0, {
    message: `must be a multiple of ${APPOINTMENT_DURATION_STEP} minutes`,
    params: { code: 'invalid_duration' },
  })
  .meta({ multipleOf: APPOINTMENT_DURATION_STEP });

/** The widest slots range one request may ask for, in days. */
export const APPOINTMENT_MAX_RANGE_DAYS = 62;

/** `/api/appointments/{company}/{eventkey}` params. */
export const appointmentLinkParamsSchema = z.object({
  company: z.string().min(1).max(40),
  eventkey: z.string().min(1).max(200),
});

/** `/api/appointments/{company}/cancellation/{cancelkey}` params. */
export const appointmentCancelParamsSchema = z.object({
  company: z.string().min(1).max(40),
  cancelkey: z.string().min(1).max(200),
});

/** `GET /api/appointments/{company}/{eventkey}`: what the booking page needs to start. */
export const appointmentLinkSchema = z.object({
  title: z.string(),
  /** The agent's display name. */
  agentName: z.string(),
  /** IANA zone of the portal: every slot is expressed in it. */
  timeZone: z.string(),
  defaultDurationMinutes: z.number().int(),
  slotMinutes: z.number().int(),
  daysAhead: z.number().int(),
  /** First and last day (YYYY-MM-DD, portal zone) that can hold a slot: today … today + daysAhead − 1. */
  firstDay: dayString,
  lastDay: dayString,
});
export type AppointmentLink = z.infer<typeof appointmentLinkSchema>;

/** `GET …/{eventkey}/slots` query: days in the portal's zone, both included; duration in minutes. */
export const appointmentSlotsQuerySchema = z.object({
  from: dayString,
  to: dayString,
  duration: z.coerce.number().pipe(appointmentDurationSchema).optional(),
});
export type AppointmentSlotsQuery = z.infer<typeof appointmentSlotsQuerySchema>;

export const appointmentSlotSchema = z.object({ start: isoDateTime, end: isoDateTime });
export type AppointmentSlot = z.infer<typeof appointmentSlotSchema>;

/** Free slots per day. Only days with at least one slot are listed. */
export const appointmentSlotsSchema = z.object({
  timeZone: z.string(),
  durationMinutes: z.number().int(),
  days: z.array(z.object({ date: dayString, slots: z.array(appointmentSlotSchema) })),
});
export type AppointmentSlots = z.infer<typeof appointmentSlotsSchema>;

/**
 * The booking form's fields with their rules: the web form validates with it, the server checks it
 * again and answers `fields_required` / `invalid_email`.
 */
export const appointmentFormSchema = z.object({
  firstName: z.string().trim().min(1).max(APPOINTMENT_TEXT_MAX),
  lastName: z.string().trim().min(1).max(APPOINTMENT_TEXT_MAX),
  phone: z.string().trim().min(1).max(40),
  email: z.string().trim().min(1).max(254),
  companyName: z.string().trim().max(APPOINTMENT_TEXT_MAX),
  notes: z.string().trim().max(APPOINTMENT_NOTES_MAX),
});
export type AppointmentForm = z.infer<typeof appointmentFormSchema>;

/**
 * `POST /api/appointments/{company}/{eventkey}`. The required texts may arrive empty or absent in the
 * shape, and are refused with 400 `fields_required` (the A8 message); a malformed e-mail address with
 * `invalid_email`.
 */
export const appointmentBookingRequestSchema = z
  .object({
    /** One of the offered slot starts (ISO instant). */
    start: dateTimeInput,
    durationMinutes: appointmentDurationSchema,
    firstName: z.string().max(APPOINTMENT_TEXT_MAX).optional(),
    lastName: z.string().max(APPOINTMENT_TEXT_MAX).optional(),
    phone: z.string().max(40).optional(),
    /** Where the confirmation and its .ics go (required). */
    email: z.string().max(254).optional(),
    companyName: z.string().max(APPOINTMENT_TEXT_MAX).optional(),
    notes: z.string().max(APPOINTMENT_NOTES_MAX).optional(),
    /** The language of the booking page: the booker's confirmation is written in it (else the portal's). */
    language: portalLanguageSchema.optional(),
  })
  .superRefine((b, ctx) => {
    for (const k of APPOINTMENT_REQUIRED_FIELDS) {
      if ((b[k] ?? '').trim() === '')
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: APPOINTMENT_FIELDS_REQUIRED_MESSAGE,
          params: { code: 'fields_required' },
        });
    }
    const email = (b.email ?? '').trim();
    if (email !== '' && !appointmentEmailPattern.test(email))
      ctx.addIssue({
        code: 'custom',
        path: ['email'],
        message: 'Please enter a valid e-mail address',
        params: { code: 'invalid_email' },
      });
  });
export type AppointmentBookingRequest = z.infer<typeof appointmentBookingRequestSchema>;

/** 201 answer of a booking ('Appointment Confirmed'). */
export const appointmentBookingSchema = z.object({
  start: isoDateTime,
  end: isoDateTime,
  timeZone: z.string(),
  /** The page that cancels this appointment; also in the confirmation e-mail. */
  cancellationUrl: z.string(),
});
export type AppointmentBooking = z.infer<typeof appointmentBookingSchema>;

/** `GET`/`POST /api/appointments/{company}/cancellation/{cancelkey}`: one appointment, booked or cancelled. */
export const appointmentSummarySchema = z.object({
  title: z.string(),
  agentName: z.string(),
  start: isoDateTime,
  end: isoDateTime,
  timeZone: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  companyName: z.string(),
  status: z.enum(['booked', 'cancelled']),
  cancelledAt: isoDateTime.nullable(),
});
export type AppointmentSummary = z.infer<typeof appointmentSummarySchema>;

// --- Routes (see route.ts) ---

// Public routes (no token): the event key of a link, or the cancellation key of an appointment, is
// the only credential.
export const appointmentRoutes = {
  appointment: defineRoute({
    method: 'GET',
    path: '/api/appointments/:company/cancellation/:cancelkey',
    params: appointmentCancelParamsSchema,
    responses: { 200: appointmentSummarySchema, 404: errorSchema },
    access: { guard: 'public' },
    tags: ['appointments'],
    summary: 'An appointment by its cancellation key (public)',
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/api/appointments/:company/cancellation/:cancelkey',
    params: appointmentCancelParamsSchema,
    responses: { 200: appointmentSummarySchema, 404: errorSchema },
    access: { guard: 'public' },
    tags: ['appointments'],
    summary: 'Cancels an appointment and frees its slot; cancelling again answers the same state (public)',
  }),
  link: defineRoute({
    method: 'GET',
    path: '/api/appointments/:company/:eventkey',
    params: appointmentLinkParamsSchema,
    responses: { 200: appointmentLinkSchema, 404: errorSchema },
    access: { guard: 'public' },
    tags: ['appointments'],
    summary: 'An appointment link: title, agent, time zone, durations and the bookable days (public)',
  }),
  slots: defineRoute({
    method: 'GET',
    path: '/api/appointments/:company/:eventkey/slots',
    params: appointmentLinkParamsSchema,
    query: appointmentSlotsQuerySchema,
    responses: { 200: appointmentSlotsSchema, 404: errorSchema },
    access: { guard: 'public' },
    tags: ['appointments'],
    summary: 'Free slots per day in the portal time zone for a duration (public)',
  }),
  book: defineRoute({
    method: 'POST',
    path: '/api/appointments/:company/:eventkey',
    params: appointmentLinkParamsSchema,
    body: appointmentBookingRequestSchema,
    responses: { 201: appointmentBookingSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema },
    access: { guard: 'public' },
    tags: ['appointments'],
    summary:
      'Books a slot; e-mails the confirmation with an .ics invitation and the cancellation link (public)',
  }),
};
