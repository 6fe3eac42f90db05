import type { DeskReportQueryRead, ReportBreakdown, ReportGranularity } from '@sportello/contracts';
import { addDays, daysBetween } from '@sportello/contracts/time-zone';

/** The report's state as the URL holds it (`?from=…&to=…&granularity=week&group=2`). */
export interface ReportFilters {
  from: string;
  to: string;
  granularity: ReportGranularity;
  group?: number;
  agent?: number;
  company?: number;
  type?: number;
  priority?: 'low' | 'normal' | 'high' | 'urgent';
  breakdown?: ReportBreakdown;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^\d{1,15}$/;
export const REPORT_ID_FILTERS = ['group', 'agent', 'company', 'type'] as const;
const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
const BREAKDOWNS = ['agent', 'group', 'company', 'type'] as const;
/** The range a first visit shows: the last 30 days, today included. */
export const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;

const realDay = (v: string | null): v is string =>
  v !== null && DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && addDays(v, 0) === v;

/**
 * Reads the URL; what the desk cannot have written (a bad day, a word for an id, a range over 366 days)
 * falls back to the default rather than reaching the server.
 */
export function reportFiltersOf(params: URLSearchParams, today: string): ReportFilters {
  let from = params.get('from');
  let to = params.get('to');
  if (!realDay(to)) to = today;
  if (!realDay(from) || from > to || daysBetween(from, to) >= MAX_DAYS)
    from = addDays(to, -(DEFAULT_DAYS - 1));
  const f: ReportFilters = { from, to, granularity: params.get('granularity') === 'week' ? 'week' : 'day' };
  for (const k of REPORT_ID_FILTERS) {
    const v = params.get(k);
    if (v !== null && ID.test(v)) f[k] = Number(v);
  }
  const p = params.get('priority');
  if ((PRIORITIES as readonly string[]).includes(p ?? '')) f.priority = p as ReportFilters['priority'];
  const b = params.get('breakdown');
  if ((BREAKDOWNS as readonly string[]).includes(b ?? '')) f.breakdown = b as ReportBreakdown;
  return f;
}

/** The URL of a state: every value but the defaults' granularity. */
export function reportParamsOf(f: ReportFilters): URLSearchParams {
  const p = new URLSearchParams({ from: f.from, to: f.to });
  if (f.granularity !== 'day') p.set('granularity', f.granularity);
  for (const k of REPORT_ID_FILTERS) if (f[k] !== undefined) p.set(k, String(f[k]));
  if (f.priority) p.set('priority', f.priority);
  if (f.breakdown) p.set('breakdown', f.breakdown);
  return p;
}

/** What the report routes are asked (the same for the three and their CSV). */
export function reportQueryOf(f: ReportFilters, withBreakdown: boolean): DeskReportQueryRead {
  const q: DeskReportQueryRead = { from: f.from, to: f.to, granularity: f.granularity };
  for (const k of REPORT_ID_FILTERS) if (f[k] !== undefined) q[k] = f[k];
  if (f.priority) q.priority = f.priority;
  if (withBreakdown && f.breakdown) q.breakdown = f.breakdown;
  return q;
}
