/**
 * Business time for the service levels (issue 28 item 13): a portal's opening hours per weekday (several
 * intervals a day), its holidays, in its time zone. Pure: instants in, instants out; the wall clock is
 * read only through the one time-zone module, so a day of 23 or 25 hours (Europe/Rome's last Sundays of
 * March and October) counts the hours it really has.
 *
 * Pauses are intervals of real time the clock does not run in (the ticket waited for the customer):
 * business time inside them is not counted.
 */
import { addDays, instantToDay, wallToInstant, weekdayOf } from '@sportello/contracts/time-zone';

/** `HH:mm` to `HH:mm` (`24:00` for the end of the day), end after start. */
export type OpeningInterval = readonly [string, string];

export interface BusinessCalendar {
  timeZone: string;
  /** Seven lists, Sunday (0) to Saturday (6), each of that weekday's intervals. */
  hours: ReadonlyArray<ReadonlyArray<OpeningInterval>>;
  /** Closed days, `YYYY-MM-DD` in the zone. */
  holidays: ReadonlyArray<string>;
}

/** Half-open interval of real time, in milliseconds since the epoch. */
export interface Span {
  start: number;
  end: number;
}

const MINUTE = 60_000;
/**
 * How far the walks look: a calendar with no opening hours (or holidays all year) would otherwise walk
 * for ever. Far beyond any target (targets are at most a few hundred business hours).
 */
const HORIZON_DAYS = 400;

/** Pauses sorted and joined where they overlap or touch. */
function normalize(pauses: ReadonlyArray<Span>): Span[] {
  const sorted = pauses.filter((p) => p.end > p.start).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const p of sorted) {
    const last = out[out.length - 1];
    if (last && p.start <= last.end) last.end = Math.max(last.end, p.end);
    else out.push({ ...p });
  }
  return out;
}

/** The parts of `span` outside the (normalized) pauses. */
function minus(span: Span, pauses: ReadonlyArray<Span>): Span[] {
  const out: Span[] = [];
  let from = span.start;
  for (const p of pauses) {
    if (p.end <= from) continue;
    if (p.start >= span.end) break;
    if (p.start > from) out.push({ start: from, end: p.start });
    from = Math.max(from, p.end);
    if (from >= span.end) break;
  }
  if (from < span.end) out.push({ start: from, end: span.end });
  return out;
}

/**
 * The opening spans of the calendar's days from the day of `from` onwards, in order, clipped to start at
 * `from`, with the pauses taken out; ends after HORIZON_DAYS.
 */
function* openSpans(cal: BusinessCalendar, from: number, pauses: ReadonlyArray<Span>): Generator<Span> {
  const holidays = new Set(cal.holidays);
  const paused = normalize(pauses);
  const first = instantToDay(from, cal.timeZone);
  // The day before too: a zone far west of UTC is still on the previous calendar day at `from`'s UTC day.
  for (let i = -1; i <= HORIZON_DAYS; i++) {
    const day = addDays(first, i);
    if (holidays.has(day)) continue;
    const intervals = [...(cal.hours[weekdayOf(day)] ?? [])].sort((a, b) => a[0].localeCompare(b[0]));
    for (const [open, close] of intervals) {
      const start = Math.max(wallToInstant(day, open, cal.timeZone).getTime(), from);
      const end = wallToInstant(day, close, cal.timeZone).getTime();
      if (end <= start) continue;
      yield* minus({ start, end }, paused);
    }
  }
}

/**
 * The instant `minutes` business minutes after `start` (pauses not counted); `start` itself when it is 0.
 * Null when the calendar has no opening time within HORIZON_DAYS.
 */
export function addBusinessMinutes(
  cal: BusinessCalendar,
  start: Date,
  minutes: number,
  pauses: ReadonlyArray<Span> = [],
): Date | null {
  let left = Math.max(0, minutes) * MINUTE;
  if (left === 0) return new Date(start);
  for (const span of openSpans(cal, start.getTime(), pauses)) {
    const length = span.end - span.start;
    if (length >= left) return new Date(span.start + left);
    left -= length;
  }
  return null;
}

/** Business minutes from `from` to `to` (0 when `to` is not after `from`), pauses not counted. */
export function businessMinutesBetween(
  cal: BusinessCalendar,
  from: Date,
  to: Date,
  pauses: ReadonlyArray<Span> = [],
): number {
  const end = to.getTime();
  if (end <= from.getTime()) return 0;
  let ms = 0;
  for (const span of openSpans(cal, from.getTime(), pauses)) {
    if (span.start >= end) break;
    ms += Math.min(span.end, end) - span.start;
  }
  return ms / MINUTE;
}
