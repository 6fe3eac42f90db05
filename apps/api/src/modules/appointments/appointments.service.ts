import { randomBytes } from 'node:crypto';
import {
  APPOINTMENT_DURATION_STEP,
  APPOINTMENT_FIELDS_REQUIRED_MESSAGE,
  APPOINTMENT_MAX_DURATION_MINUTES,
  APPOINTMENT_MAX_RANGE_DAYS,
  APPOINTMENT_REQUIRED_FIELDS,
  appointmentEmailPattern,
  appointmentErrorCodes as codes,
  type AppointmentBooking,
  type AppointmentBookingRequest,
  type AppointmentLink,
  type AppointmentSlots,
  type AppointmentSlotsQuery,
  type AppointmentSummary,
} from '@sportello/contracts';
import type { Tx } from '../../db/client';
import { sha256 } from '../../platform/auth';
import { emitAppointmentEvent, visitorSource, type EventSource } from '../../platform/events';
import type { AppContext } from '../../platform/context';
import { AppError, badRequest, conflict, notFound, tooMany } from '../../platform/errors';
import { DEFAULT_MAIL_FROM } from '../../platform/mail';
import { enqueueEmail, kickOutbox } from '../../platform/outbox';
import { addressKey, hit } from '../../platform/rate-limit';
import {
  agentBookedEmail,
  agentCancelledEmail,
  cancellationEmail,
  confirmationEmail,
  type AppointmentMailData,
} from './appointments.mail';
import {
  deleteClaims,
  findAppointment,
  findBusy,
  findLink,
  insertAppointment,
  insertClaims,
  markCancelled,
  type AppointmentRow,
  type LinkRow,
} from './appointments.queries';
import {
  claimStarts,
  daysRange,
  freeSlots,
  offeredStarts,
  parseWeeklyHours,
  type Interval,
  type SlotRules,
} from './slots';
import { addDays, daysBetween, localDay } from '@sportello/contracts/time-zone';

/** Confirmation e-mails one address (IP) may cause per hour: the booking page is public. */
/**
 * Successful bookings, counted in the booking's transaction. Each one mails the address it names with
 * the portal's branding: the address limit stops one sender, the link limit a spread-out sender, the
 * recipient limit mail to one victim from anywhere.
 */
export const BOOKING_LIMITS = {
  perAddress: { limit: 20, windowSeconds: 3600 },
  perLink: { limit: 30, windowSeconds: 3600 },
  perRecipient: { limit: 5, windowSeconds: 24 * 3600 },
};

const linkNotFound = () => notFound('No appointment link with this key', codes.linkNotFound);
const appointmentNotFound = () => notFound('No appointment with this key', codes.appointmentNotFound);
const slotTaken = () => conflict('This slot has just been taken', codes.slotTaken);

async function requireLink(ctx: AppContext, company: string, eventKey: string): Promise<LinkRow> {
  const link = await findLink(ctx.database.db, company, eventKey);
  if (!link) throw linkNotFound();
  return link;
}

const rulesOf = (link: LinkRow): SlotRules => ({
  weeklyHours: parseWeeklyHours(link.weeklyHours),
  slotMinutes: link.slotMinutes,
  timeZone: link.timeZone,
});

/** The bookable window: today … today + daysAhead − 1, in the portal's zone. */
function window(link: LinkRow, now: Date): { firstDay: string; lastDay: string } {
  const firstDay = localDay(now, link.timeZone);
  return { firstDay, lastDay: addDays(firstDay, Math.max(0, link.daysAhead - 1)) };
}

export async function getLink(ctx: AppContext, company: string, eventKey: string): Promise<AppointmentLink> {
  const link = await requireLink(ctx, company, eventKey);
  return {
    title: link.title,
    agentName: link.agentName,
    timeZone: link.timeZone,
    defaultDurationMinutes: link.defaultDurationMinutes,
    slotMinutes: link.slotMinutes,
    daysAhead: link.daysAhead,
    ...window(link, ctx.clock.now()),
  };
}

/**
 * The heading of a booking link (its title and agent), for the page the server draws before the app:
 * part of what `getLink` answers anyone holding the key. Null for an unknown key: the app's own request
 * then answers 404 and the page shows its not-found state, as before.
 */
export async function bookingHeading(
  ctx: AppContext,
  company: string,
  eventKey: string,
): Promise<{ title: string; agentName: string } | null> {
  const link = await findLink(ctx.database.db, company, eventKey);
  return link ? { title: link.title, agentName: link.agentName } : null;
}

/** Durations go in 5-minute steps (what the page offers); the link's own default is always accepted. */
function checkDuration(minutes: number, link: LinkRow): void {
  const isStep = minutes % APPOINTMENT_DURATION_STEP === 0 || minutes === link.defaultDurationMinutes;
  if (!Number.isInteger(minutes) || minutes <= 0 || minutes > APPOINTMENT_MAX_DURATION_MINUTES || !isStep) {
    throw badRequest(
      `The duration must be a positive multiple of ${APPOINTMENT_DURATION_STEP} minutes, at most ${APPOINTMENT_MAX_DURATION_MINUTES}`,
      codes.invalidDuration,
    );
  }
}

/** Free slots of the days from … to (clamped to the bookable window), one query for the bookings. */
export async function getSlots(
  ctx: AppContext,
  company: string,
  eventKey: string,
  q: AppointmentSlotsQuery,
): Promise<AppointmentSlots> {
  const link = await requireLink(ctx, company, eventKey);
  const duration = q.duration ?? link.defaultDurationMinutes;
  checkDuration(duration, link);
  const span = daysBetween(q.from, q.to);
  if (Number.isNaN(span) || span < 0 || span >= APPOINTMENT_MAX_RANGE_DAYS) {
    throw badRequest(
      `from must not be after to, and the range must be under ${APPOINTMENT_MAX_RANGE_DAYS} days`,
      codes.invalidRange,
    );
  }
  const now = ctx.clock.now();
  const { firstDay, lastDay } = window(link, now);
  const from = q.from < firstDay ? firstDay : q.from;
  const to = q.to > lastDay ? lastDay : q.to;
  const answer: AppointmentSlots = { timeZone: link.timeZone, durationMinutes: duration, days: [] };
  if (from > to || link.daysAhead <= 0) return answer;
  const rules = rulesOf(link);
  const busy = await findBusy(ctx.database.db, link.agentId, daysRange(from, to, link.timeZone));
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const slots = freeSlots(rules, day, duration, now, busy);
    if (slots.length > 0) {
      answer.days.push({
        date: day,
        slots: slots.map((s) => ({ start: s.start.toISOString(), end: s.end.toISOString() })),
      });
    }
  }
  return answer;
}

type BookingFields = {
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  companyName: string;
  notes: string;
};

function checkFields(body: AppointmentBookingRequest): BookingFields {
  const f: BookingFields = {
    firstName: (body.firstName ?? '').trim(),
    lastName: (body.lastName ?? '').trim(),
    phone: (body.phone ?? '').trim(),
    email: (body.email ?? '').trim(),
    companyName: (body.companyName ?? '').trim(),
    notes: (body.notes ?? '').trim(),
  };
  const missing = APPOINTMENT_REQUIRED_FIELDS.filter((k) => f[k] === '');
  if (missing.length > 0) {
    throw badRequest(
      APPOINTMENT_FIELDS_REQUIRED_MESSAGE,
      codes.fieldsRequired,
      missing.map((path) => ({ path, message: 'required' })),
    );
  }
  const bad = (['firstName', 'lastName', 'companyName'] as const).filter((k) =>
    /[<>]|:\/\/|\bwww\./i.test(f[k]),
  );
  if (bad.length > 0) {
    throw badRequest(
      'A name may not contain markup or a web address',
      codes.invalidName,
      bad.map((path) => ({ path, message: 'invalid' })),
    );
  }
  if (!appointmentEmailPattern.test(f.email)) {
    throw badRequest('Please enter a valid e-mail address', codes.invalidEmail, [
      { path: 'email', message: 'invalid' },
    ]);
  }
  return f;
}

/** PostgreSQL's unique_violation, however deep the driver or ORM wrapped it. */
function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

function senderAddress(ctx: AppContext): string {
  const from = ctx.config.MAIL_FROM ?? DEFAULT_MAIL_FROM;
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}

/** Stable per appointment, derived from the cancellation key without revealing it. */
function uidOf(ctx: AppContext, cancelKey: string): string {
  return `${sha256(`appointment:${cancelKey}`).slice(0, 32)}@${new URL(ctx.config.publicUrl).hostname}`;
}

const cancellationUrlOf = (ctx: AppContext, portalKey: string, cancelKey: string) =>
  `${ctx.config.publicUrl}/appointments/${encodeURIComponent(portalKey)}/cancellation/${cancelKey}`;

function mailData(
  ctx: AppContext,
  link: LinkRow,
  a: { cancelKey: string; start: Date; end: Date } & BookingFields,
): AppointmentMailData {
  return {
    language: link.defaultLanguage,
    portalName: link.portalName,
    title: link.title,
    timeZone: link.timeZone,
    start: a.start,
    end: a.end,
    uid: uidOf(ctx, a.cancelKey),
    stamp: ctx.clock.now(),
    cancellationUrl: cancellationUrlOf(ctx, link.portalKey, a.cancelKey),
    agent: { name: link.agentName, email: link.agentEmail },
    fallbackOrganizerEmail: senderAddress(ctx),
    booker: a,
  };
}

/**
 * Books one slot. The start must be one the link's hours offer; whether it is still free is left to
 * the database: the claim rows inserted in the same transaction as the appointment collide with those
 * of any overlapping active appointment of the agent (from any link), so whichever transaction
 * commits its claims first wins and every other one gets a unique violation, answers 409 and keeps
 * nothing. No read-then-write check is made first: it could only disagree with the database.
 */
export async function book(
  ctx: AppContext,
  company: string,
  eventKey: string,
  body: AppointmentBookingRequest,
  ip: string,
): Promise<AppointmentBooking> {
  const link = await requireLink(ctx, company, eventKey);
  const fields = checkFields(body);
  checkDuration(body.durationMinutes, link);
  const start = new Date(body.start);
  if (Number.isNaN(start.getTime())) throw badRequest('start is not a date-time', codes.slotNotOffered);
  const now = ctx.clock.now();
  const { firstDay, lastDay } = window(link, now);
  const day = localDay(start, link.timeZone);
  const offered =
    day >= firstDay && day <= lastDay
      ? offeredStarts(rulesOf(link), day, body.durationMinutes, now).find(
          (s) => s.start.getTime() === start.getTime(),
        )
      : undefined;
  if (!offered) throw badRequest('This time is not one of the offered slots', codes.slotNotOffered);
  const slot: Interval = offered;

  const cancelKey = randomBytes(24).toString('base64url');
  const data = mailData(ctx, link, { cancelKey, start: slot.start, end: slot.end, ...fields });
  try {
    await ctx.database.db.transaction(async (tx) => {
      const appointmentId = await insertAppointment(tx, {
        portalId: link.portalId,
        linkId: link.linkId,
        agentId: link.agentId,
        cancelKey,
        startsAt: slot.start,
        endsAt: slot.end,
        ...fields,
        createdAt: now,
      });
      await insertClaims(tx, link.agentId, appointmentId, claimStarts(slot));
      await emitAppointmentEvent(tx, ctx, 'appointment.booked', appointmentId, visitorSource);
      // Counted only for bookings that got their slot: a refused race costs the caller nothing.
      for (const [key, rule] of [
        [`appointments:book:${addressKey(ip)}`, BOOKING_LIMITS.perAddress],
        [`appointments:link:${link.linkId}`, BOOKING_LIMITS.perLink],
        [`appointments:to:${fields.email.toLowerCase()}`, BOOKING_LIMITS.perRecipient],
      ] as const) {
        const limit = await hit(tx, key, rule.limit, rule.windowSeconds, now);
        if (!limit.allowed)
          throw tooMany(
            'Too many bookings; please try again later',
            codes.tooManyBookings,
            limit.retryAfterSeconds,
          );
      }
      // The booker reads the language of the page they booked on; the agent, the portal's.
      await enqueueEmail(tx, confirmationEmail({ ...data, language: body.language ?? data.language }), now);
      if (link.agentEmail)
        await enqueueEmail(
          tx,
          agentBookedEmail({ ...data, agent: { name: link.agentName, email: link.agentEmail } }),
          now,
        );
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isUniqueViolation(err)) throw slotTaken();
    throw err;
  }
  kickOutbox();
  return {
    start: slot.start.toISOString(),
    end: slot.end.toISOString(),
    timeZone: link.timeZone,
    cancellationUrl: data.cancellationUrl,
  };
}

function summaryOf(a: AppointmentRow, cancelledAt: Date | null): AppointmentSummary {
  return {
    title: a.title,
    agentName: a.agentName,
    start: a.startsAt.toISOString(),
    end: a.endsAt.toISOString(),
    timeZone: a.timeZone,
    firstName: a.firstName,
    lastName: a.lastName,
    companyName: a.companyName,
    status: cancelledAt ? 'cancelled' : 'booked',
    cancelledAt: cancelledAt ? cancelledAt.toISOString() : null,
  };
}

export async function getAppointment(
  ctx: AppContext,
  company: string,
  cancelKey: string,
): Promise<AppointmentSummary> {
  const a = await findAppointment(ctx.database.db, company, cancelKey);
  if (!a) throw appointmentNotFound();
  return summaryOf(a, a.cancelledAt);
}

/**
 * Cancels and frees the slot in one transaction, and e-mails the cancellation. A second call finds
 * nothing to update and answers the same cancelled state without sending anything again.
 */
export async function cancel(
  ctx: AppContext,
  company: string,
  cancelKey: string,
  /**
   * Who cancels (default: the visitor holding the key); `also` runs in the cancellation's transaction
   * when it does cancel (a staff cancellation writes its audit row there).
   */
  by: { source: EventSource; also?: (tx: Tx) => Promise<void> } = { source: visitorSource },
): Promise<AppointmentSummary> {
  const a = await findAppointment(ctx.database.db, company, cancelKey);
  if (!a) throw appointmentNotFound();
  if (a.cancelledAt) return summaryOf(a, a.cancelledAt);
  const now = ctx.clock.now();
  const cancelledAt = await ctx.database.db.transaction(async (tx) => {
    const at = await markCancelled(tx, a.appointmentId, now);
    if (!at) return undefined;
    await deleteClaims(tx, a.appointmentId);
    await emitAppointmentEvent(tx, ctx, 'appointment.cancelled', a.appointmentId, by.source);
    await by.also?.(tx);
    const fields = {
      firstName: a.firstName,
      lastName: a.lastName,
      phone: a.phone,
      email: a.email ?? '',
      companyName: a.companyName,
      notes: a.notes,
    };
    const data = mailData(ctx, a, { cancelKey: a.cancelKey, start: a.startsAt, end: a.endsAt, ...fields });
    if (a.email) await enqueueEmail(tx, cancellationEmail(data), now);
    if (a.agentEmail)
      await enqueueEmail(
        tx,
        agentCancelledEmail({ ...data, agent: { name: a.agentName, email: a.agentEmail } }),
        now,
      );
    return at;
  });
  if (cancelledAt) {
    kickOutbox();
    return summaryOf(a, cancelledAt);
  }
  // Another request cancelled it between our read and our update: answer what is stored now.
  const again = await findAppointment(ctx.database.db, company, cancelKey);
  if (!again) throw appointmentNotFound();
  return summaryOf(again, again.cancelledAt);
}
