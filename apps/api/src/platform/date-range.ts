/**
 * The `from` / `to` filters of the list calls (SPEC B1), and day arithmetic in a portal's time zone.
 * `from` is the start of a day; `to` is the end of a day, or of the given minute. Both are returned as
 * half-open bounds: `from <= x < toExclusive`.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { badRequest } from './errors';

dayjs.extend(utc);
dayjs.extend(timezone);

export interface DateRange {
  from: Date | null;
  toExclusive: Date | null;
}

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

function parse(value: string, field: string, tz: string): { start: Date; end: Date } {
  const m = PATTERN.exec(value.trim());
  if (!m) throw badRequest(`${field}: expected YYYY-MM-DD or YYYY-MM-DD HH:mm`, 'invalid_date');
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x)));
  const probe = new Date(Date.UTC(y!, mo! - 1, d!));
  const validDay =
    probe.getUTCFullYear() === y && probe.getUTCMonth() === mo! - 1 && probe.getUTCDate() === d;
  const validTime = (h ?? 0) <= 23 && (mi ?? 0) <= 59 && (s ?? 0) <= 59;
  if (!validDay || !validTime) throw badRequest(`${field}: ${value} is not a real date`, 'invalid_date');
  const local = `${m[1]}-${m[2]}-${m[3]}T${String(h ?? 0).padStart(2, '0')}:${String(mi ?? 0).padStart(2, '0')}:${String(s ?? 0).padStart(2, '0')}`;
  const start = dayjs.tz(local, tz).toDate();
  // A day ends at the next local midnight: 23 or 25 hours later on the days the clocks change.
  const end =
    h === undefined
      ? dayjs.tz(`${addDays(`${m[1]}-${m[2]}-${m[3]}`, 1)}T00:00:00`, tz).toDate()
      : new Date(start.getTime() + (s === undefined ? 60_000 : 1000));
  return { start, end };
}

/**
 * Results by (zone, from, to). dayjs' zone conversion formats the instant through Intl several times
 * (a quarter of a list request's CPU in the benchmark), and clients ask for the same few ranges again
 * and again. Zone rules do not change while the process runs, so an answer never goes stale.
 */
const memo = new Map<string, DateRange>();
const MEMO_SIZE = 2000;

/** Parses the filters in the portal's time zone; a bad value is 400 `invalid_date`. */
export function parseDateRange(
  q: { from?: string | undefined; to?: string | undefined },
  tz: string,
): DateRange {
  const key = `${tz}|${q.from ?? ''}|${q.to ?? ''}`;
  let r = memo.get(key);
  if (!r) {
    const from = q.from ? parse(q.from, 'from', tz).start : null;
    r = { from, toExclusive: q.to ? parse(q.to, 'to', tz).end : null };
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(key, r);
  }
  // Copies: a caller may not change what the next request gets.
  return {
    from: r.from && new Date(r.from.getTime()),
    toExclusive: r.toExclusive && new Date(r.toExclusive.getTime()),
  };
}

/**
 * One day formatter per zone, built once: dayjs' `.tz()` formats through `toLocaleString`, which
 * builds a new Intl formatter on every call (0.5 ms and more each: lists call it per row, which made
 * the contract lists a fraction of their bare SQL's speed). en-CA writes days as YYYY-MM-DD.
 */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();
function dayFormatter(tz: string): Intl.DateTimeFormat {
  let f = dayFormatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(tz, f);
  }
  return f;
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function localDay(at: Date | string, tz: string): string {
  return dayFormatter(tz).format(typeof at === 'string' ? new Date(at) : at);
}

/** The calendar day `days` after `day` (YYYY-MM-DD arithmetic, no time zone involved). */
export function addDays(day: string, days: number): string {
  return dayjs.utc(`${day}T00:00:00Z`).add(days, 'day').format('YYYY-MM-DD');
}

/** Start of the year containing `at` in `tz`, and start of the next one. */
export function yearBounds(at: Date, tz: string): { year: number; start: Date; end: Date } {
  const year = Number(localDay(at, tz).slice(0, 4));
  return {
    year,
    start: dayjs.tz(`${year}-01-01T00:00:00`, tz).toDate(),
    end: dayjs.tz(`${year + 1}-01-01T00:00:00`, tz).toDate(),
  };
}
