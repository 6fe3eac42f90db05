import { dayjs } from '../lib/dates';

/** The value of the date range picker (SPEC A3): either end may be null. */
export interface DateRange {
  start: Date | null;
  end: Date | null;
}

export const EMPTY_RANGE: DateRange = { start: null, end: null };

export const DATE_PRESETS = [
  'today',
  'yesterday',
  'currentWeek',
  'lastWeek',
  'currentMonth',
  'lastMonth',
  'currentYear',
  'lastYear',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

const startOfDay = (d: Date | dayjs.Dayjs) => dayjs(d).startOf('day');
/** A chosen range ends at 23:59:59 of its last day (SPEC A4). */
const endOfDay = (d: Date | dayjs.Dayjs) => dayjs(d).hour(23).minute(59).second(59).millisecond(0);

/** Weeks start on Monday, as in the Italian calendar, whatever the interface language. */
function startOfWeek(d: dayjs.Dayjs): dayjs.Dayjs {
  const offset = (d.day() + 6) % 7;
  return d.subtract(offset, 'day').startOf('day');
}

/** The complete range a preset stands for, relative to `now` (local calendar days). */
export function presetRange(preset: DatePreset, now: Date = new Date()): { start: Date; end: Date } {
  const today = dayjs(now);
  let from: dayjs.Dayjs;
  let to: dayjs.Dayjs;
  switch (preset) {
    case 'today':
      from = to = today;
      break;
    case 'yesterday':
      from = to = today.subtract(1, 'day');
      break;
    case 'currentWeek':
      from = startOfWeek(today);
      to = from.add(6, 'day');
      break;
    case 'lastWeek':
      from = startOfWeek(today).subtract(7, 'day');
      to = from.add(6, 'day');
      break;
    case 'currentMonth':
      from = today.startOf('month');
      to = today.endOf('month');
      break;
    case 'lastMonth':
      from = today.subtract(1, 'month').startOf('month');
      to = from.endOf('month');
      break;
    case 'currentYear':
      from = today.startOf('year');
      to = today.endOf('year');
      break;
    case 'lastYear':
      from = today.subtract(1, 'year').startOf('year');
      to = from.endOf('year');
      break;
  }
  return { start: startOfDay(from).toDate(), end: endOfDay(to).toDate() };
}

const sameDay = (a: Date | null, b: Date | null) =>
  a === null || b === null ? a === b : dayjs(a).isSame(b, 'day');

/**
 * The preset the value corresponds to, for highlighting: 'none' when both ends are empty, null when
 * the value matches no preset.
 */
export function matchingPreset(value: DateRange, now: Date = new Date()): DatePreset | 'none' | null {
  if (!value.start && !value.end) return 'none';
  for (const preset of DATE_PRESETS) {
    const r = presetRange(preset, now);
    if (sameDay(value.start, r.start) && sameDay(value.end, r.end)) return preset;
  }
  return null;
}

/**
 * A typed date, DD/MM/YYYY (single-digit day and month accepted). Anything else, including impossible
 * dates such as 31/02/2026, gives null.
 */
export function parseTypedDate(text: string): Date | null {
  const s = text.trim();
  if (!/^\d{1,2}\/\d{1,2}\/\d{4}$/.test(s)) return null;
  const d = dayjs(s, ['DD/MM/YYYY', 'D/M/YYYY', 'DD/M/YYYY', 'D/MM/YYYY'], true);
  return d.isValid() ? d.toDate() : null;
}

/**
 * The range as the picker emits it: a start after the end is swapped (SPEC A5), the start is the
 * beginning of its day and the end is 23:59:59 of its day.
 */
export function normalizeRange(start: Date | null, end: Date | null): DateRange {
  let a = start;
  let b = end;
  if (a && b && dayjs(a).isAfter(b)) [a, b] = [b, a];
  return {
    start: a ? startOfDay(a).toDate() : null,
    end: b ? endOfDay(b).toDate() : null,
  };
}

/** DD MMM YYYY in the current date locale, or '...' when unset (SPEC A2). */
export function formatPickerDate(d: Date | null): string {
  return d ? dayjs(d).format('DD MMM YYYY') : '...';
}

/** DD/MM/YYYY for the typed-date boxes, '' when unset. */
export function formatTypedDate(d: Date | null): string {
  return d ? dayjs(d).format('DD/MM/YYYY') : '';
}

/** Mantine's calendars speak `YYYY-MM-DD` strings. */
export const toCalendarValue = (d: Date | null): string | null => (d ? dayjs(d).format('YYYY-MM-DD') : null);
export const fromCalendarValue = (s: string | null): Date | null =>
  s ? dayjs(s, 'YYYY-MM-DD').toDate() : null;

/** True when the two values denote the same days (used to avoid emitting no-op changes). */
export const sameRange = (a: DateRange, b: DateRange) => sameDay(a.start, b.start) && sameDay(a.end, b.end);
