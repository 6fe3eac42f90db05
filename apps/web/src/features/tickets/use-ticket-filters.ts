import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { fromDayParam, toDayParam } from '../../lib/format';
import type { DateRange } from '../../ui/date-range';
import type { ServerSearchItem } from '../../ui/server-search-select';
import type { TicketFilters } from './components/ticket-filters-bar';

/** Filters start at 'open or pending', no date and no wiki element (SPEC A2), newest first. */
export const DEFAULT_FILTERS: TicketFilters = {
  status: 'open',
  range: { start: null, end: null } satisfies DateRange,
  wiki: null,
  sort: 'created',
};

/** The list's state as the address carries it: only what differs from the defaults. */
export interface ListState {
  filters: TicketFilters;
  /** All tickets: the colleagues' user ids. */
  users: number[];
}

const ids = (s: string | null) =>
  (s ?? '')
    .split(',')
    .map((x) => Number(x))
    .filter((n) => Number.isSafeInteger(n) && n > 0);

/** Reads the list state from the query string; anything unreadable falls back to its default. */
export function parseListState(params: URLSearchParams): ListState {
  const wikiId = Number(params.get('wiki'));
  const wiki: ServerSearchItem | null =
    Number.isSafeInteger(wikiId) && wikiId > 0
      ? { id: wikiId, name: params.get('wikiName') ?? '', folderName: params.get('wikiFolder') ?? '' }
      : null;
  return {
    filters: {
      status: params.get('status') === 'all' ? 'all' : 'open',
      range: { start: fromDayParam(params.get('from')), end: fromDayParam(params.get('to'), true) },
      wiki,
      sort: params.get('sort') === 'activity' ? 'activity' : 'created',
    },
    users: ids(params.get('users')),
  };
}

/** The query string of a list state (defaults left out, so a plain list has a plain address). */
export function listStateParams(s: ListState): URLSearchParams {
  const p = new URLSearchParams();
  const f = s.filters;
  if (f.status !== 'open') p.set('status', f.status);
  if (f.range.start) p.set('from', toDayParam(f.range.start)!);
  if (f.range.end) p.set('to', toDayParam(f.range.end)!);
  if (f.wiki) {
    p.set('wiki', String(f.wiki.id));
    p.set('wikiName', f.wiki.name);
    p.set('wikiFolder', f.wiki.folderName);
  }
  if (f.sort !== 'created') p.set('sort', f.sort);
  if (s.users.length > 0) p.set('users', [...s.users].sort((a, b) => a - b).join(','));
  return p;
}

/**
 * The list filters, kept in the address (issue 16): a link or a reload shows the same list, and Back
 * from a ticket returns to it as it was. A change replaces the entry rather than adding one, so Back
 * leaves the list instead of stepping through every filter tried. The state is held here too and
 * changes at once: the address follows a moment later (a navigation), and widgets fed from it in
 * between would forget what is being typed (the date boxes reset to the value they are given).
 */
export function useTicketFilters(): [
  TicketFilters,
  (f: TicketFilters) => void,
  ListState,
  (s: ListState) => void,
] {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const [state, setLocal] = useState(() => parseListState(params));
  // The address changed from outside (Back, a link): it wins. Our own writes come back equal.
  const [lastKey, setLastKey] = useState(key);
  if (key !== lastKey) {
    setLastKey(key);
    if (key !== listStateParams(state).toString()) setLocal(parseListState(params));
  }
  const setState = useCallback(
    (s: ListState) => {
      setLocal(s);
      setParams(listStateParams(s), { replace: true, preventScrollReset: true });
    },
    [setParams],
  );
  const setFilters = useCallback(
    (filters: TicketFilters) => setState({ ...state, filters }),
    [state, setState],
  );
  return [state.filters, setFilters, state, setState];
}
