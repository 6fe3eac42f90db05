import type { EmailMessage } from '../../platform/outbox';
import { escapeHtml } from '../../platform/account-mail';
import { formatInZone, localDay } from '@sportello/contracts/time-zone';
import { buildIcs, type IcsEvent } from './ics';

type Lang = 'it' | 'en' | 'es';

export function langOf(language: string | undefined): Lang {
  const two = (language ?? 'it').slice(0, 2).toLowerCase();
  return two === 'en' || two === 'es' ? two : 'it';
}

interface Texts {
  confirmedSubject: (title: string) => string;
  confirmedIntro: (name: string) => string;
  cancelHint: string;
  cancelledSubject: (title: string) => string;
  cancelledIntro: (name: string) => string;
  agentBookedSubject: (title: string) => string;
  agentCancelledSubject: (title: string) => string;
  when: string;
  with: string;
  bookedBy: string;
  phone: string;
  email: string;
  company: string;
  notes: string;
  icsDescription: (url: string) => string;
}

const texts: Record<Lang, Texts> = {
  it: {
    confirmedSubject: (t) => `Appuntamento confermato: ${t}`,
    confirmedIntro: (n) => `Gentile ${n},\n\nil tuo appuntamento è confermato.`,
    cancelHint: 'Se non puoi più venire, annulla l’appuntamento da questo link:',
    cancelledSubject: (t) => `Appuntamento annullato: ${t}`,
    cancelledIntro: (n) => `Gentile ${n},\n\nil tuo appuntamento è stato annullato.`,
    agentBookedSubject: (t) => `Nuovo appuntamento: ${t}`,
    agentCancelledSubject: (t) => `Appuntamento annullato: ${t}`,
    when: 'Quando',
    with: 'Con',
    bookedBy: 'Prenotato da',
    phone: 'Telefono',
    email: 'E-mail',
    company: 'Azienda',
    notes: 'Note',
    icsDescription: (u) => `Per annullare l’appuntamento: ${u}`,
  },
  en: {
    confirmedSubject: (t) => `Appointment Confirmed: ${t}`,
    confirmedIntro: (n) => `Dear ${n},\n\nyour appointment is confirmed.`,
    cancelHint: 'If you can no longer make it, cancel the appointment with this link:',
    cancelledSubject: (t) => `Appointment cancelled: ${t}`,
    cancelledIntro: (n) => `Dear ${n},\n\nyour appointment has been cancelled.`,
    agentBookedSubject: (t) => `New appointment: ${t}`,
    agentCancelledSubject: (t) => `Appointment cancelled: ${t}`,
    when: 'When',
    with: 'With',
    bookedBy: 'Booked by',
    phone: 'Phone',
    email: 'E-mail',
    company: 'Company',
    notes: 'Notes',
    icsDescription: (u) => `To cancel the appointment: ${u}`,
  },
  es: {
    confirmedSubject: (t) => `Cita confirmada: ${t}`,
    confirmedIntro: (n) => `Estimado/a ${n}:\n\ntu cita está confirmada.`,
    cancelHint: 'Si ya no puedes asistir, cancela la cita con este enlace:',
    cancelledSubject: (t) => `Cita cancelada: ${t}`,
    cancelledIntro: (n) => `Estimado/a ${n}:\n\ntu cita ha sido cancelada.`,
    agentBookedSubject: (t) => `Nueva cita: ${t}`,
    agentCancelledSubject: (t) => `Cita cancelada: ${t}`,
    when: 'Cuándo',
    with: 'Con',
    bookedBy: 'Reservada por',
    phone: 'Teléfono',
    email: 'Correo electrónico',
    company: 'Empresa',
    notes: 'Notas',
    icsDescription: (u) => `Para cancelar la cita: ${u}`,
  },
};

export interface AppointmentMailData {
  language: string;
  portalName: string;
  title: string;
  timeZone: string;
  start: Date;
  end: Date;
  uid: string;
  stamp: Date;
  cancellationUrl: string;
  agent: { name: string; email: string | null };
  /** Used as ORGANIZER when the agent has no e-mail (iTIP needs one). */
  fallbackOrganizerEmail: string;
  booker: {
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    companyName: string;
    notes: string;
  };
}

/**
 * The text part shows what people typed as it is, so tags in it would reach a mail client that renders
 * text as HTML (or a reader who trusts them): drop tags and comments, keep a lone `<` as in `a < b`.
 */
export function withoutMarkup(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)|<\/?[a-z!?][^<>]*(?:>|$)/gi, '');
}

/** `DD/MM/YYYY HH:mm–HH:mm (Europe/Rome)`, in the portal's zone as the booking page shows it. */
export function formatWhen(start: Date, end: Date, tz: string): string {
  const sameDay = localDay(start, tz) === localDay(end, tz);
  const endText = formatInZone(end, tz, sameDay ? 'HH:mm' : 'DD/MM/YYYY HH:mm');
  return `${formatInZone(start, tz, 'DD/MM/YYYY HH:mm')}–${endText} (${tz})`;
}

function icsFor(d: AppointmentMailData, method: IcsEvent['method'], cancelled: boolean): string {
  const booker = `${d.booker.firstName} ${d.booker.lastName}`.trim();
  return buildIcs({
    method,
    uid: d.uid,
    sequence: cancelled ? 1 : 0,
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
    stamp: d.stamp,
    start: d.start,
    end: d.end,
    timeZone: d.timeZone,
    summary: `${d.title} – ${d.portalName}`,
    description: texts[langOf(d.language)].icsDescription(d.cancellationUrl),
    url: d.cancellationUrl,
    organizer: { name: d.agent.name, email: d.agent.email ?? d.fallbackOrganizerEmail },
    attendees: [{ name: booker, email: d.booker.email }],
  });
}

const icsAttachment = (ics: string, method: IcsEvent['method']) => ({
  filename: method === 'CANCEL' ? 'cancel.ics' : 'invite.ics',
  contentType: `text/calendar; charset=utf-8; method=${method}`,
  contentBase64: Buffer.from(ics, 'utf8').toString('base64'),
});

function message(
  to: string,
  subject: string,
  paragraphs: string[],
  link: string | null,
  ics: string,
  method: IcsEvent['method'],
): EmailMessage {
  const text = withoutMarkup(paragraphs.join('\n\n')) + (link ? `\n\n${link}` : '') + '\n';
  const html =
    paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('') +
    (link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : '');
  return { to, subject, text, html, attachments: [icsAttachment(ics, method)] };
}

function details(d: AppointmentMailData, t: Texts, forAgent: boolean): string {
  const rows = [`${t.when}: ${formatWhen(d.start, d.end, d.timeZone)}`, `${t.with}: ${d.agent.name}`];
  if (forAgent) {
    rows.push(`${t.bookedBy}: ${d.booker.firstName} ${d.booker.lastName}`);
    rows.push(`${t.email}: ${d.booker.email}`, `${t.phone}: ${d.booker.phone}`);
    if (d.booker.companyName) rows.push(`${t.company}: ${d.booker.companyName}`);
    if (d.booker.notes) rows.push(`${t.notes}: ${d.booker.notes}`);
  }
  return `${d.title}\n${rows.join('\n')}`;
}

/** To the booker: the confirmation with the invitation (METHOD:REQUEST) and the cancellation link. */
export function confirmationEmail(d: AppointmentMailData): EmailMessage {
  const t = texts[langOf(d.language)];
  return message(
    d.booker.email,
    t.confirmedSubject(d.title),
    [t.confirmedIntro(d.booker.firstName), details(d, t, false), t.cancelHint],
    d.cancellationUrl,
    icsFor(d, 'REQUEST', false),
    'REQUEST',
  );
}

/** To the booker: the cancellation (METHOD:CANCEL, same UID, higher SEQUENCE) so calendars drop it. */
export function cancellationEmail(d: AppointmentMailData): EmailMessage {
  const t = texts[langOf(d.language)];
  return message(
    d.booker.email,
    t.cancelledSubject(d.title),
    [t.cancelledIntro(d.booker.firstName), details(d, t, false)],
    null,
    icsFor(d, 'CANCEL', true),
    'CANCEL',
  );
}

/** To the agent: who booked, with the event to add (METHOD:PUBLISH: the agent is not being invited). */
export function agentBookedEmail(d: AppointmentMailData & { agent: { email: string } }): EmailMessage {
  const t = texts[langOf(d.language)];
  return message(
    d.agent.email,
    t.agentBookedSubject(d.title),
    [details(d, t, true)],
    null,
    icsFor(d, 'PUBLISH', false),
    'PUBLISH',
  );
}

export function agentCancelledEmail(d: AppointmentMailData & { agent: { email: string } }): EmailMessage {
  const t = texts[langOf(d.language)];
  return message(
    d.agent.email,
    t.agentCancelledSubject(d.title),
    [details(d, t, true)],
    null,
    icsFor(d, 'CANCEL', true),
    'CANCEL',
  );
}
