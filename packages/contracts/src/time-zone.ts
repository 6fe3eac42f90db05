/**
 * Every time-zone rule, in one place for the server and the browser: a portal's `timeZone` decides where
 * its days begin and end ("today" included), how imported local times and the `from`/`to` filters are
 * read, the hours of appointments, and how instants are written in e-mails, PDFs and on screen (SPEC
 * B3). Nothing else builds a zoned `Intl.DateTimeFormat` (lint). One reading of wall-clock times throughout:
 * RFC 5545's and Temporal's "compatible" one, so a time that happens twice (clocks going back) is its
 * first pass and a time that does not exist (clocks going forward) moves forward by the gap.
 *
 * Offsets come from Intl, with one cached formatter per zone (building one costs far more than using it).
 * Calendar days travel as `YYYY-MM-DD` strings; their arithmetic is done in UTC, where no day is 23 or
 * 25 hours long.
 */
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

/** The zone of this machine (the browser's, on a phone: the user's own). */
export function systemTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Whether Intl knows the zone (an IANA name such as `Europe/Rome`). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds to add to UTC to get the zone's wall-clock time at an instant, to the second. */
function offsetMs(ms: number, timeZone: string): number {
  const parts = formatterOf(timeZone).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wall = new Date(
    Date.UTC(2000, get('month') - 1, get('day'), get('hour'), get('minute'), get('second')),
  ).setUTCFullYear(get('year'), get('month') - 1, get('day'));
  return wall - Math.floor(ms / 1000) * 1000;
}

/** Minutes to add to UTC to get the zone's wall-clock time at an instant (+60 for Rome in winter). */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  return Math.round(offsetMs(ms, timeZone) / 60_000);
}

const DAY = 86_400_000;

/**
 * The instant of a wall-clock time (`YYYY-MM-DD` and `HH:mm` or `HH:mm:ss`; `24:00` is the next
 * midnight) in a zone: a time that happens twice is its first pass, one that does not exist moves
 * forward by the gap.
 */
export function wallToInstant(day: string, time: string, timeZone: string): Date {
  if (time === '24:00') return wallToInstant(addDays(day, 1), '00:00', timeZone);
  const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
  const [h, mi, s = 0] = time.split(':').map(Number) as [number, number, number?];
  // Date.UTC reads years 0-99 as 1900-1999: set the year on its own.
  const wall = new Date(Date.UTC(2000, mo - 1, d, h, mi, s)).setUTCFullYear(y, mo - 1, d);
  const before = offsetMs(wall - DAY, timeZone);
  const after = offsetMs(wall + DAY, timeZone);
  const valid = [...new Set([before, after])]
    .map((o) => wall - o)
    .filter((t) => wall - offsetMs(t, timeZone) === t);
  if (valid.length > 0) return new Date(Math.min(...valid));
  return new Date(wall - before);
}

const LOCAL = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?)?$/;

/** A local date (`YYYY-MM-DD`, midnight) or date-time (`YYYY-MM-DD[T ]HH:mm[:ss]`) of a zone, as an instant. */
export function zonedDate(local: string, timeZone: string): Date {
  const m = LOCAL.exec(local);
  if (!m) throw new Error(`not a local date-time: ${local}`);
  return wallToInstant(m[1]!, m[2] ?? '00:00', timeZone);
}

/** Wall-clock fields of an instant in a zone, as `YYYY-MM-DDTHH:mm:ss` (no offset). */
export function instantToWall(ms: number, timeZone: string): string {
  // To the second: before 1900 a zone's offset was its local mean time (Rome's +00:49:56).
  return new Date(ms + offsetMs(ms, timeZone)).toISOString().slice(0, 19);
}

/** `YYYY-MM-DD` of an instant in a zone. */
export function instantToDay(ms: number, timeZone: string): string {
  return instantToWall(ms, timeZone).slice(0, 10);
}

/** The calendar day of an instant in a zone. */
export function localDay(at: Date | string, timeZone: string): string {
  return instantToDay(new Date(at).getTime(), timeZone);
}

/**
 * Today in a zone, `YYYY-MM-DD`. Never `new Date().toISOString().slice(0, 10)`, which is today in UTC:
 * from 23:00 in Rome (22:00 in summer) until midnight, tomorrow (lint refuses it).
 */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return instantToDay(now.getTime(), timeZone);
}

/** The UTC offset of a zone at an instant, as `+01:00` (to tell apart two slots with one wall time). */
export function zoneOffsetLabel(ms: number, timeZone: string): string {
  const minutes = zoneOffsetMinutes(ms, timeZone);
  const abs = Math.abs(minutes);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/** The calendar day `n` days after `day` (negative: before). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to`. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
}

/** Day of the week of a calendar day: 0 Sunday … 6 Saturday. */
export function weekdayOf(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}

/** The year containing `at` in a zone, its first instant and the next year's. */
export function yearBounds(at: Date, timeZone: string): { year: number; start: Date; end: Date } {
  const year = Number(localDay(at, timeZone).slice(0, 4));
  return {
    year,
    start: wallToInstant(`${year}-01-01`, '00:00', timeZone),
    end: wallToInstant(`${year + 1}-01-01`, '00:00', timeZone),
  };
}

/**
 * An instant written in a zone, for texts people read (e-mails, PDFs): `DD`, `MM`, `YYYY`, `HH`, `mm`,
 * `ss` in the pattern are replaced by the wall clock's fields.
 */
export function formatInZone(at: Date, timeZone: string, pattern: string): string {
  const w = instantToWall(at.getTime(), timeZone);
  const fields: Record<string, string> = {
    YYYY: w.slice(0, 4),
    MM: w.slice(5, 7),
    DD: w.slice(8, 10),
    HH: w.slice(11, 13),
    mm: w.slice(14, 16),
    ss: w.slice(17, 19),
  };
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (k) => fields[k] ?? k);
}
