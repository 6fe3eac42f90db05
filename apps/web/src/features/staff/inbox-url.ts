import type { QueryOf, staffInboxRoutes } from '@sportello/contracts';
import {
  inboxDueFilters,
  inboxSorts,
  inboxViews,
  ticketPriorities,
  type InboxDueFilter,
  type InboxSort,
  type InboxView,
  type TicketPriority,
} from '@sportello/contracts/staff-views';

/** What the inbox route is asked, but for the page's cursor and size. */
export type InboxApiQuery = Omit<QueryOf<typeof staffInboxRoutes.list>, 'cursor' | 'limit'>;

/**
 * The inbox's state as the URL holds it (`?view=mine&type=2&q=printer`): a link or Back restores it.
 * Values the desk cannot have written (a word for a number, a bad date) are dropped, not sent on.
 */
export interface InboxFilters {
  view: InboxView;
  company?: number;
  contact?: number;
  type?: number;
  step?: number;
  group?: number;
  /** An agent id; 0: unassigned. */
  assignee?: number;
  /** Rated tickets: any rating, or at or below the portal's low-rating threshold. */
  rating?: RatingFilter;
  priority?: TicketPriority;
  /** A ticket tag's id (the options' `ticketTags`). */
  tag?: number;
  due?: InboxDueFilter;
  /** The list's order; absent: last activity. */
  sort?: InboxSort;
  /** Creation days, YYYY-MM-DD in the portal's time zone. */
  from?: string;
  to?: string;
  q?: string;
}

export const RATING_FILTERS = ['any', 'low'] as const;
export type RatingFilter = (typeof RATING_FILTERS)[number];

export const DEFAULT_VIEW: InboxView = 'open';
export const ID_FILTERS = ['company', 'contact', 'type', 'step', 'group', 'assignee', 'tag'] as const;
export const DEFAULT_SORT: InboxSort = 'activity';
export type IdFilter = (typeof ID_FILTERS)[number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isView = (v: unknown): v is InboxView => inboxViews.includes(v as InboxView);

function idOf(raw: string | null, min: number): number | undefined {
  if (raw === null || !/^\d{1,15}$/.test(raw)) return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= min ? n : undefined;
}

export function filtersFromSearch(params: URLSearchParams): InboxFilters {
  const view = params.get('view');
  const out: InboxFilters = { view: isView(view) ? view : DEFAULT_VIEW };
  for (const key of ID_FILTERS) {
    const id = idOf(params.get(key), key === 'assignee' ? 0 : 1);
    if (id !== undefined) out[key] = id;
  }
  const rating = params.get('rating');
  if (RATING_FILTERS.includes(rating as RatingFilter)) out.rating = rating as RatingFilter;
  const priority = params.get('priority');
  if (ticketPriorities.includes(priority as TicketPriority)) out.priority = priority as TicketPriority;
  const due = params.get('due');
  if (inboxDueFilters.includes(due as InboxDueFilter)) out.due = due as InboxDueFilter;
  const sort = params.get('sort');
  if (sort !== DEFAULT_SORT && inboxSorts.includes(sort as InboxSort)) out.sort = sort as InboxSort;
  for (const key of ['from', 'to'] as const) {
    const day = params.get(key);
    if (day && DAY.test(day)) out[key] = day;
  }
  const q = params.get('q')?.trim().slice(0, 200);
  if (q) out.q = q;
  return out;
}

/** The URL's search part of a state; the default view and empty values are left out. */
export function searchFromFilters(filters: InboxFilters): string {
  const params = new URLSearchParams();
  if (filters.view !== DEFAULT_VIEW) params.set('view', filters.view);
  for (const key of ID_FILTERS) {
    const v = filters[key];
    if (v !== undefined) params.set(key, String(v));
  }
  if (filters.rating) params.set('rating', filters.rating);
  if (filters.priority) params.set('priority', filters.priority);
  if (filters.due) params.set('due', filters.due);
  if (filters.sort && filters.sort !== DEFAULT_SORT) params.set('sort', filters.sort);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.q?.trim()) params.set('q', filters.q.trim());
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The API query of a state (the cursor is added page by page). */
export function inboxQueryOf(filters: InboxFilters): InboxApiQuery {
  const { view, company, contact, type, step, group, assignee, rating, priority, tag, due, sort } = filters;
  const { from, to, q } = filters;
  return {
    ...{ view, company, contact, type, step, group, assignee, rating, priority, tag, due, from, to, q },
    sort: sort ?? DEFAULT_SORT,
  };
}

/** How many filters narrow the list besides the view and the search words. */
export const activeFilterCount = (f: InboxFilters) =>
  ID_FILTERS.filter((k) => f[k] !== undefined).length +
  (f.from || f.to ? 1 : 0) +
  (f.rating ? 1 : 0) +
  (f.priority ? 1 : 0) +
  (f.due ? 1 : 0);
