/**
 * The `from` / `to` filters of the list calls (SPEC B1), read in the portal's time zone (time-zone.ts).
 * `from` is the start of a day; `to` is the end of a day, or of the given minute. Both are returned as
 * half-open bounds: `from <= x < toExclusive`.
 */
import { MAX_FILTER_YEAR, MIN_FILTER_YEAR } from '@sportello/contracts';
import { badRequest } from './errors';
import { addDays, wallToInstant } from '@sportello/contracts/time-zone';

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
  // Far from today the time-zone arithmetic breaks (year 0100 came out as an invalid instant).
  if (y! < MIN_FILTER_YEAR || y! > MAX_FILTER_YEAR)
    throw badRequest(
      `${field}: ${value} is outside the years ${MIN_FILTER_YEAR}–${MAX_FILTER_YEAR}`,
      'invalid_date',
    );
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  const hms = [h ?? 0, mi ?? 0, s ?? 0].map((x) => String(x).padStart(2, '0')).join(':');
  const start = wallToInstant(day, hms, tz);
  // A day ends at the next local midnight: 23 or 25 hours later on the days the clocks change.
  const end =
    h === undefined
      ? wallToInstant(addDays(day, 1), '00:00', tz)
      : new Date(start.getTime() + (s === undefined ? 60_000 : 1000));
  // Zone rules far from today are where date libraries give up: never hand an invalid instant on.
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()))
    throw badRequest(`${field}: ${value} is not a date we can place in time`, 'invalid_date');
  return { start, end };
}

/**
 * Results by (zone, from, to). A zone conversion formats instants through Intl several times, and
 * clients ask for the same few ranges again and again. Zone rules do not change while the
 * process runs, so an answer never goes stale.
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
