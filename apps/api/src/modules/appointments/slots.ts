import { wallToInstant, weekdayOf } from '@sportello/contracts/time-zone';

/** `{"mon": [["09:00","13:00"], …], …}` in the portal's zone (fixture-format.md, AppointmentLink). */
export type WeeklyHours = Partial<Record<Weekday, [string, string][]>>;
export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

const WEEKDAYS: Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MINUTE = 60_000;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/**
 * Slot claims are cut on one fixed grid of UTC minutes, whatever the link's slotMinutes: two links of
 * one agent with different slot lengths still collide on the same claim rows when they overlap.
 */
export const CLAIM_GRAIN_MINUTES = 5;

export interface Interval {
  start: Date;
  end: Date;
}

export interface SlotRules {
  weeklyHours: WeeklyHours;
  slotMinutes: number;
  timeZone: string;
}

/** The intervals of one local day, as instants. Malformed or empty intervals are skipped. */
export function dayIntervals(rules: SlotRules, day: string): Interval[] {
  const weekday = WEEKDAYS[weekdayOf(day)] as Weekday;
  const out: Interval[] = [];
  for (const pair of rules.weeklyHours[weekday] ?? []) {
    const [a, b] = pair;
    if (!HHMM.test(a) || !HHMM.test(b)) continue;
    const start = wallToInstant(day, a, rules.timeZone);
    const end = wallToInstant(day, b, rules.timeZone);
    if (end > start) out.push({ start, end });
  }
  return out.sort((x, y) => x.start.getTime() - y.start.getTime());
}

/**
 * The slot starts one day offers for a duration: every slotMinutes of elapsed time from the start of
 * each interval, as long as the whole [start, start + duration) fits inside that interval and starts
 * no earlier than `now`. Stepping in elapsed time (not wall-clock time) is what makes daylight-saving
 * days right: the hour that does not exist yields no slot, the hour that happens twice yields both
 * (distinct instants), and no instant is listed twice.
 */
export function offeredStarts(rules: SlotRules, day: string, durationMinutes: number, now: Date): Interval[] {
  const step = rules.slotMinutes * MINUTE;
  const length = durationMinutes * MINUTE;
  const seen = new Set<number>();
  const out: Interval[] = [];
  if (step <= 0 || length <= 0) return out;
  for (const iv of dayIntervals(rules, day)) {
    for (let t = iv.start.getTime(); t + length <= iv.end.getTime(); t += step) {
      if (t < now.getTime() || seen.has(t)) continue;
      seen.add(t);
      out.push({ start: new Date(t), end: new Date(t + length) });
    }
  }
  return out.sort((x, y) => x.start.getTime() - y.start.getTime());
}

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

/** Offered starts minus those overlapping a busy interval (the agent's active appointments). */
export function freeSlots(
  rules: SlotRules,
  day: string,
  durationMinutes: number,
  now: Date,
  busy: Interval[],
): Interval[] {
  return offeredStarts(rules, day, durationMinutes, now).filter((s) => !busy.some((b) => overlaps(s, b)));
}

/** The instant range covering the local days from … to (both included). */
export function daysRange(from: string, to: string, timeZone: string): Interval {
  return { start: wallToInstant(from, '00:00', timeZone), end: wallToInstant(to, '24:00', timeZone) };
}

/** The claim rows an appointment occupies: every grain cell its [start, end) touches. */
export function claimStarts(iv: Interval): Date[] {
  const grain = CLAIM_GRAIN_MINUTES * MINUTE;
  const first = Math.floor(iv.start.getTime() / grain) * grain;
  const out: Date[] = [];
  for (let t = first; t < iv.end.getTime(); t += grain) out.push(new Date(t));
  return out;
}

/** Reads the jsonb column defensively: a malformed entry offers nothing rather than failing the page. */
export function parseWeeklyHours(value: unknown): WeeklyHours {
  const out: WeeklyHours = {};
  if (!value || typeof value !== 'object') return out;
  for (const day of WEEKDAYS) {
    const list = (value as Record<string, unknown>)[day];
    if (!Array.isArray(list)) continue;
    out[day] = list.filter(
      (p): p is [string, string] =>
        Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string',
    );
  }
  return out;
}
