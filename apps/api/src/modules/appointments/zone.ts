/** Offsets of IANA zones, read from Intl with one cached formatter per zone (dayjs.tz builds one per call). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Minutes to add to UTC to get the zone's wall-clock time at an instant (+60 for Rome in winter). */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const parts = formatterOf(timeZone).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((wall - whole) / 60_000);
}

const DAY = 86_400_000;

/**
 * The instant of a wall-clock time (`YYYY-MM-DD`, `HH:mm`, `24:00` allowed) in a zone, as RFC 5545
 * and Temporal's "compatible" mode read it: a time that happens twice is its first pass, a time that
 * does not exist (spring forward) moves forward by the gap.
 */
export function wallToInstant(day: string, hhmm: string, timeZone: string): Date {
  const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
  const [h, mi] = hhmm.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const before = zoneOffsetMinutes(wall - DAY, timeZone);
  const after = zoneOffsetMinutes(wall + DAY, timeZone);
  const valid = [...new Set([before, after])]
    .map((o) => wall - o * 60_000)
    .filter((t) => wall - zoneOffsetMinutes(t, timeZone) * 60_000 === t);
  if (valid.length > 0) return new Date(Math.min(...valid));
  return new Date(wall - before * 60_000);
}

/** `YYYY-MM-DD` of an instant in a zone. */
export function instantToDay(ms: number, timeZone: string): string {
  return new Date(ms + zoneOffsetMinutes(ms, timeZone) * 60_000).toISOString().slice(0, 10);
}

/** Wall-clock fields of an instant in a zone, as an ISO-like string without offset (`YYYY-MM-DDTHH:mm:ss`). */
export function instantToWall(ms: number, timeZone: string): string {
  return new Date(ms + zoneOffsetMinutes(ms, timeZone) * 60_000).toISOString().slice(0, 19);
}
