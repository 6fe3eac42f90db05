import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/it';
import 'dayjs/locale/es';
import 'dayjs/locale/en';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(customParseFormat);

/** The portal's time zone decides how instants are shown (SPEC B3); set by the layout. */
let zone = 'Europe/Rome';
export function setDisplayTimeZone(tz: string): void {
  zone = tz;
}
export function displayTimeZone(): string {
  return zone;
}

const inZone = (iso: string | Date) => dayjs(iso).tz(zone);

/** DD/MM/YYYY */
export const formatDate = (iso: string | Date | null | undefined) =>
  iso ? inZone(iso).format('DD/MM/YYYY') : '';
/** HH:mm */
export const formatTime = (iso: string | Date | null | undefined) => (iso ? inZone(iso).format('HH:mm') : '');
/** DD/MM/YYYY HH:mm */
export const formatDateTime = (iso: string | Date | null | undefined) =>
  iso ? inZone(iso).format('DD/MM/YYYY HH:mm') : '';

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
