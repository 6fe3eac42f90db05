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
  // The zone's first formatter loads its rules (tens of ms on a slow phone): done here, as the layout
  // learns the zone, rather than in the middle of a page's first render.
  wallClockFormat();
}
export function displayTimeZone(): string {
  return zone;
}

const inZone = (iso: string | Date) => dayjs(iso).tz(zone);

/** An instant with an explicit offset (what the API sends): its wall time in a zone is unambiguous. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
type WallClock = { date: string; time: string };
const wallClockFormats = new Map<string, Intl.DateTimeFormat | null>();
/** Recent answers by zone and string: a row shows the date and the time of one instant. */
const recent = new Map<string, WallClock | null>();

/**
 * The wall clock of an instant in the display zone, read with one cached Intl formatter. dayjs's `.tz()`
 * builds its answer through a locale string on every call, about 1 ms each with a slow CPU: a list of
 * 200 tickets spent most of its first render there. Anything else (no offset, a zone Intl refuses)
 * gets null and keeps the dayjs path, with its exact behaviour.
 */
function wallClock(iso: string | Date): WallClock | null {
  if (typeof iso !== 'string') return zonedWallClock(iso);
  const key = `${zone} ${iso}`;
  const hit = recent.get(key);
  if (hit !== undefined) return hit;
  const answer = INSTANT.test(iso) ? zonedWallClock(new Date(iso)) : null;
  if (recent.size >= 1000) recent.clear();
  recent.set(key, answer);
  return answer;
}

function zonedWallClock(instant: Date): WallClock | null {
  if (Number.isNaN(instant.getTime())) return null;
  const f = wallClockFormat();
  if (!f) return null;
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(instant)) p[part.type] = part.value;
  return { date: `${p.day}/${p.month}/${p.year!.padStart(4, '0')}`, time: `${p.hour}:${p.minute}` };
}

/** The display zone's formatter, made once per zone; null for a zone Intl does not know. */
function wallClockFormat(): Intl.DateTimeFormat | null {
  let f = wallClockFormats.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      f = null;
    }
    wallClockFormats.set(zone, f);
  }
  return f;
}

/** DD/MM/YYYY */
export const formatDate = (iso: string | Date | null | undefined) =>
  iso ? (wallClock(iso)?.date ?? inZone(iso).format('DD/MM/YYYY')) : '';
/** HH:mm */
export const formatTime = (iso: string | Date | null | undefined) =>
  iso ? (wallClock(iso)?.time ?? inZone(iso).format('HH:mm')) : '';
/** DD/MM/YYYY HH:mm */
export const formatDateTime = (iso: string | Date | null | undefined) => {
  if (!iso) return '';
  const w = wallClock(iso);
  return w ? `${w.date} ${w.time}` : inZone(iso).format('DD/MM/YYYY HH:mm');
};

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
