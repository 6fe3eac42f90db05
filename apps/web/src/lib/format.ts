// Dates and times are shown in the portal's zone: time-zone.ts holds those rules, re-exported here
// for the pages that format. Calendar arithmetic (pickers, presets, typed dates) is dayjs's, in
// lib/dates.ts: this module is part of the first load, and dayjs is not.
export { formatDate, formatDateTime, formatTime } from './time-zone';

/**
 * A ticket's number as every screen shows it: the number the back office (or the portal, in the same
 * format) gave it, and none when it has no yearly progressive (SPEC A2's number badge).
 */
export const ticketNumberText = (ticket: { ticketNumber: string; internalAnnualProgressive: number }) =>
  ticket.internalAnnualProgressive > 0 ? ticket.ticketNumber : '';

/** Intl's locale of an interface language (`en-EN` is ours, not a real one: British English). */
const localeOf = (language: string) => (language === 'en-EN' ? 'en-GB' : language);

const numberFormats = new Map<string, Intl.NumberFormat>();
/**
 * One formatter per locale and options, built once. Thousands are always grouped: Italian and Spanish
 * by default group only from five digits (CLDR's minimum grouping digits), so 1234,50 € stood beside
 * 12.345,50 € in one list.
 */
function numberFormat(language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(localeOf(language), { ...options, useGrouping: 'always' });
    numberFormats.set(key, f);
  }
  return f;
}

/** Euro in the interface language, always two decimals (SPEC A9). */
export const formatEuro = (value: number, language = 'it-IT'): string =>
  numberFormat(language, {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(value);

/** A quantity or amount in the interface language, at most two decimals: `1.234,5` in Italian. */
export const formatNumber = (value: number, language = 'it-IT'): string =>
  numberFormat(language, { maximumFractionDigits: 2 }).format(value);

const SIZE_UNITS = ['KB', 'MB', 'GB'] as const;
/** A file size in KB (at least 1), MB or GB (binary multiples), one decimal in the language's way. */
export function formatFileSize(bytes: number, language = 'it-IT'): string {
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : 1;
  const shown = unit === 0 ? Math.max(1, Math.round(value)) : value;
  return `${numberFormat(language, { maximumFractionDigits: digits }).format(shown)} ${SIZE_UNITS[unit]}`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DD` of a calendar day as the pickers give it (a local date), for `from`/`to` query values. */
export const toDayParam = (d: Date | null | undefined) =>
  d ? `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : undefined;

/** `YYYY-MM-DD HH:mm` of a local date and time (the end of a chosen range, SPEC A7). */
export const toMinuteParam = (d: Date) => `${toDayParam(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;

/**
 * The local date of a `YYYY-MM-DD` day (its start, or 23:59:59 with `end`, as the picker gives a range's
 * end, SPEC A4); null for anything else, '2026-02-30' included.
 */
export function fromDayParam(s: string | null | undefined, end = false): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s ?? '');
  if (!m) return null;
  const d = new Date(2000, 0, 1);
  d.setFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (end) d.setHours(23, 59, 59, 0);
  return toDayParam(d) === s ? d : null;
}
