/**
 * Every time-zone rule of the browser, in one place: instants are shown in the portal's zone (SPEC B3),
 * which the layout (or a public page) sets once it knows it. Calendar days and wall-clock fields are
 * read with one cached Intl formatter per zone. No dayjs here: the shell and My tickets use this module,
 * and dayjs (6 KB gzip with its zone plugins) stays out of the first load; the pages with calendars
 * bring it (lib/dates.ts).
 */

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

/** An instant with an explicit offset (what the API sends): its wall time in a zone is unambiguous. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
type WallClock = { date: string; time: string };
const wallClockFormats = new Map<string, Intl.DateTimeFormat>();
/** Recent answers by zone and string: a row shows the date and the time of one instant. */
const recent = new Map<string, WallClock | null>();

/**
 * A date string as dayjs reads it (the answers carried here before): without a `Z`, its date and time
 * fields in the browser's zone, missing fields taken as the start (`2026-11-20` is local midnight);
 * anything else as `Date` reads it.
 */
const DAYJS_FIELDS =
  /^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt\s]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$/;
function readLikeDayjs(text: string): Date {
  const m = /Z$/i.test(text) ? null : DAYJS_FIELDS.exec(text);
  if (!m) return new Date(text);
  const n = (i: number) => Number(m[i] || 0);
  return new Date(n(1), (n(2) || 1) - 1, n(3) || 1, n(4), n(5), n(6), Number((m[7] || '0').slice(0, 3)));
}

/**
 * The wall clock of an instant in the display zone, read with one cached Intl formatter (dayjs's `.tz()`
 * built its answer through a locale string on every call, about 1 ms each with a slow CPU: a list of 200
 * tickets spent most of its first render there). Null for an invalid date.
 */
function wallClock(iso: string | Date): WallClock | null {
  if (typeof iso !== 'string') return zonedWallClock(iso);
  const key = `${zone} ${iso}`;
  const hit = recent.get(key);
  if (hit !== undefined) return hit;
  const answer = zonedWallClock(INSTANT.test(iso) ? new Date(iso) : readLikeDayjs(iso));
  if (recent.size >= 1000) recent.clear();
  recent.set(key, answer);
  return answer;
}

function zonedWallClock(instant: Date): WallClock | null {
  if (Number.isNaN(instant.getTime())) return null;
  const p: Record<string, string> = {};
  for (const part of wallClockFormat().formatToParts(instant)) p[part.type] = part.value;
  return { date: `${p.day}/${p.month}/${p.year!.padStart(4, '0')}`, time: `${p.hour}:${p.minute}` };
}

const WALL_CLOCK: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/**
 * The display zone's formatter, made once per zone. A zone Intl does not know (never one the server
 * accepted) shows the browser's own wall clock rather than breaking the page.
 */
function wallClockFormat(): Intl.DateTimeFormat {
  let f = wallClockFormats.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', { ...WALL_CLOCK, timeZone: zone });
    } catch {
      f = new Intl.DateTimeFormat('en-US', WALL_CLOCK);
    }
    wallClockFormats.set(zone, f);
  }
  return f;
}

/** What dayjs wrote for an invalid date. */
const INVALID = 'Invalid Date';

/** DD/MM/YYYY */
export const formatDate = (iso: string | Date | null | undefined) =>
  iso ? (wallClock(iso)?.date ?? INVALID) : '';
/** HH:mm */
export const formatTime = (iso: string | Date | null | undefined) =>
  iso ? (wallClock(iso)?.time ?? INVALID) : '';
/** DD/MM/YYYY HH:mm */
export const formatDateTime = (iso: string | Date | null | undefined) => {
  if (!iso) return '';
  const w = wallClock(iso);
  return w ? `${w.date} ${w.time}` : INVALID;
};

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
/** The UTC offset of a zone at an instant, as `+01:00` (to tell apart two slots with one wall time). */
export function zoneOffsetLabel(iso: string | Date, timeZone: string): string {
  let f = offsetFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, f);
  }
  const instant = typeof iso === 'string' && !INSTANT.test(iso) ? readLikeDayjs(iso) : new Date(iso);
  // `GMT+01:00`, `GMT-04:00`, or `GMT` for UTC itself.
  const name = f.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  return name === 'GMT' ? '+00:00' : name.slice(3);
}
