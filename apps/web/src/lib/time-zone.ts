/**
 * The browser's display zone: instants are shown in the portal's zone (SPEC B3), which the layout (or a
 * public page) sets once it knows it. The zone rules themselves are the server's
 * (`@sportello/contracts/time-zone`: one cached Intl formatter per zone). No dayjs here: the shell and
 * My tickets use this module, and dayjs (6 KB gzip with its zone plugins) stays out of the first load;
 * the pages with calendars bring it (lib/dates.ts).
 */
import { instantToWall, isTimeZone, systemTimeZone } from '@sportello/contracts/time-zone';

/**
 * The zone shown until the layout knows the portal's. A zone Intl does not know (never one the server
 * accepted) shows the browser's own wall clock rather than breaking the page.
 */
let zone = 'Europe/Rome';
/** The portal's time zone decides how instants are shown (SPEC B3); set by the layout. */
export function setDisplayTimeZone(tz: string): void {
  // Checking builds the zone's formatter, which loads its rules (tens of ms on a slow phone): done here,
  // as the layout learns the zone, rather than in the middle of a page's first render.
  zone = isTimeZone(tz) ? tz : systemTimeZone();
}
export function displayTimeZone(): string {
  return zone;
}

/** An instant with an explicit offset (what the API sends): its wall time in a zone is unambiguous. */
export const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
type WallClock = { date: string; time: string };
/** Recent answers by zone and string: a row shows the date and the time of one instant. */
const recent = new Map<string, WallClock | null>();

/**
 * A date string as dayjs reads it (the answers carried here before): without a `Z`, its date and time
 * fields in the browser's zone, missing fields taken as the start (`2026-11-20` is local midnight);
 * anything else as `Date` reads it.
 */
const DAYJS_FIELDS =
  /^(\d{4})[-/]?(\d{1,2})?[-/]?(\d{0,2})[Tt\s]*(\d{1,2})?:?(\d{1,2})?:?(\d{1,2})?[.:]?(\d+)?$/;
export function readLikeDayjs(text: string): Date {
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
  const w = instantToWall(instant.getTime(), zone); // YYYY-MM-DDTHH:mm:ss
  return { date: `${w.slice(8, 10)}/${w.slice(5, 7)}/${w.slice(0, 4)}`, time: w.slice(11, 16) };
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
