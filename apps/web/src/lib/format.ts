import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/it';
import 'dayjs/locale/es';
import 'dayjs/locale/en';

dayjs.extend(customParseFormat);

// Dates and times are shown in the portal's zone: time-zone.ts holds those rules, re-exported here
// for the pages that format.
export { formatDate, formatDateTime, formatTime } from './time-zone';

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

/** `YYYY-MM-DD` of a date in the portal's zone, for `from`/`to` query values. */
export const toDayParam = (d: Date | null | undefined) => (d ? dayjs(d).format('YYYY-MM-DD') : undefined);

export { dayjs };
