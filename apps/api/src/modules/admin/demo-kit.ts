/**
 * What every part of the demo document is built with: dates relative to `now` in the demo's zone, the
 * files (PDFs drawn for the demo, PNGs), and small builders for the rows the demo repeats.
 */
import { permissionFlags, type FileRef, type ImportDocumentInput } from '@sportello/contracts';
import { addDays, localDay, wallToInstant, weekdayOf } from '@sportello/contracts/time-zone';
import { makePdf, type PdfSpec } from './demo-assets';

export const DEMO_PORTAL_KEY = 'demo';
export const DEMO_PASSWORD = 'Sportello-Demo-2026';
export const DEMO_TIME_ZONE = 'Europe/Rome';

type Input<K extends keyof NonNullable<ImportDocumentInput['portals']>[number]> = NonNullable<
  NonNullable<ImportDocumentInput['portals']>[number][K]
>;
export type CompanyInput = Input<'companies'>[number];
export type TicketInput = NonNullable<CompanyInput['tickets']>[number];
type CommentInput = NonNullable<TicketInput['comments']>[number];
type UserInput = NonNullable<ImportDocumentInput['users']>[number];
type PermissionFlag = (typeof permissionFlags)[number];

/** A contact's permissions: the flags named are on, the others off. */
export const permissions = (...flags: PermissionFlag[]) =>
  Object.fromEntries(flags.map((f) => [f, true])) as Partial<Record<PermissionFlag, true>>;
export const ALL_PERMISSIONS = permissions(...permissionFlags);

/** A message of the conversation, from an agent or from a contact. */
export const fromAgent = (
  id: number,
  senderAgentId: number,
  creationDate: string,
  message: string,
  attachments: CommentInput['attachments'] = [],
): CommentInput => ({ id, message, creationDate, senderAgentId, attachments });
export const fromContact = (
  id: number,
  senderContactId: number,
  creationDate: string,
  message: string,
  attachments: CommentInput['attachments'] = [],
): CommentInput => ({ id, message, creationDate, senderContactId, attachments });

/** A demo user: the demo password, contacts of the demo portal. */
export const demoUser = (userName: string, email: string, ...contactIds: number[]): UserInput => ({
  userName,
  email,
  password: DEMO_PASSWORD,
  contacts: contactIds.map((contactId) => ({ webPortalKey: DEMO_PORTAL_KEY, contactId })),
});

export type DemoKit = ReturnType<typeof demoKit>;

export function demoKit(now: Date) {
  const today = localDay(now, DEMO_TIME_ZONE);
  const year = Number(today.slice(0, 4));
  const pad = (n: number) => String(n).padStart(2, '0');
  /** A day relative to today (negative: past), as YYYY-MM-DD in the portal's zone. */
  const day = (offset: number) => addDays(today, offset);
  /** The same day as DD/MM/YYYY, as the demo's PDFs write it. */
  const itDate = (offset: number) => day(offset).split('-').reverse().join('/');
  /**
   * A moment `days` ago at a local time of day, as an ISO date-time. A time of today that has not come
   * yet (the demo loaded at 00:30 holds "today at 08:05") is taken from the day before: nothing in the
   * demo happens in the future, so what a user or a journey does now is always the newest.
   */
  const ago = (days: number, hour = 9, minute = 0) => {
    const at = (d: number) => wallToInstant(day(-d), `${pad(hour)}:${pad(minute)}`, DEMO_TIME_ZONE);
    const instant = at(days);
    return (instant.getTime() > now.getTime() ? at(days + 1) : instant).toISOString();
  };
  /** The next given weekday after today (1 = Monday … 7 = Sunday). */
  const nextWeekday = (isoDay: number) => {
    const weekday = weekdayOf(today) || 7;
    return day(((isoDay - weekday + 6) % 7) + 1);
  };
  /** The next occurrence of a day of the year, after today. */
  const nextYearly = (month: number, dayOfMonth: number) => {
    const thisYear = `${year}-${pad(month)}-${pad(dayOfMonth)}`;
    return thisYear > today ? thisYear : `${year + 1}-${pad(month)}-${pad(dayOfMonth)}`;
  };

  const png = (name: string, bytes: Buffer): FileRef => ({
    name,
    contentType: 'image/png',
    base64: bytes.toString('base64'),
  });
  const pdf = async (name: string, spec: PdfSpec): Promise<FileRef> => ({
    name,
    contentType: 'application/pdf',
    base64: (await makePdf(spec, now)).toString('base64'),
  });
  const report = (
    n: string,
    what: string,
    asset: string,
    technician: string,
    daysAgo: number,
    hours: string,
  ) =>
    pdf(`rapporto-${n.replace('/', '-')}.pdf`, {
      title: `Rapporto di intervento n. ${n}`,
      subtitle: `Data intervento: ${itDate(-daysAgo)}  -  Tecnico: ${technician}`,
      lines: [
        `Cliente: Rossi Impianti Srl, Via Emilia 120, Modena`,
        `Apparato: ${asset}`,
        '',
        'Descrizione del lavoro svolto:',
        what,
        '',
        `Ore impiegate: ${hours}`,
        'Esito: intervento concluso, impianto funzionante.',
        '',
        'Firma del tecnico ______________________     Firma del cliente ______________________',
      ],
    });

  /** An invoice's PDF: its number in this year's series, its date, what it bills. */
  const invoicePdf = (seq: string, daysAgo: number, lines: string[]) =>
    pdf(`fattura-${seq}.pdf`, {
      title: `Fattura n. ${year}/${seq}`,
      subtitle: `Data: ${itDate(-daysAgo)}`,
      lines,
    });

  return { now, year, ago, day, itDate, nextWeekday, nextYearly, png, pdf, report, invoicePdf };
}
