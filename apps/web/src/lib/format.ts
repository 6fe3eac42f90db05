import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/it';
import 'dayjs/locale/es';
import 'dayjs/locale/en';

dayjs.extend(customParseFormat);

// Dates and times are shown in the portal's zone: time-zone.ts holds those rules, re-exported here
// for the pages that format.
export { formatDate, formatDateTime, formatTime } from './time-zone';

const euroFormatters = new Map<string, Intl.NumberFormat>();
/** Euro in the interface language, always two decimals (SPEC A9). */
export function formatEuro(value: number, language = 'it-IT'): string {
  const locale = language === 'en-EN' ? 'en-GB' : language;
  let f = euroFormatters.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    euroFormatters.set(locale, f);
  }
  return f.format(value);
}

/** `YYYY-MM-DD` of a date in the portal's zone, for `from`/`to` query values. */
export const toDayParam = (d: Date | null | undefined) => (d ? dayjs(d).format('YYYY-MM-DD') : undefined);

export { dayjs };
