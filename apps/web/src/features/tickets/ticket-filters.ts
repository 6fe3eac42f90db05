import type { TicketListItem, TicketListQuery } from '@sportello/contracts';
import { toDayParam, toMinuteParam } from '../../lib/format';
import type { DateRange } from '../../ui/date-range';

/** The status filter of the lists: 'open or pending' (default) or 'all'. */
export type StatusFilter = 'open' | 'all';

/** The order of the lists: newest created first (the server's order), or the latest public activity. */
export type TicketSort = 'created' | 'activity';

/** The list in the chosen order; 'created' keeps the server's (creation, newest first). */
export function sortTickets<T extends Pick<TicketListItem, 'lastActivityAt' | 'id'>>(
  tickets: T[],
  sort: TicketSort,
): T[] {
  if (sort === 'created') return tickets;
  return [...tickets].sort((a, b) =>
    a.lastActivityAt === b.lastActivityAt ? b.id - a.id : a.lastActivityAt < b.lastActivityAt ? 1 : -1,
  );
}

/** SPEC A4: a status step whose taskStatus is 2 counts as closed. */
export const CLOSED_TASK_STATUS = 2;
export const isClosedTicket = (t: Pick<TicketListItem, 'taskStatus'>) =>
  t.taskStatus.step.taskStatus === CLOSED_TASK_STATUS;

/** Under 'open' the closed tickets are hidden (SPEC A2/A9). */
export const visibleTickets = <T extends Pick<TicketListItem, 'taskStatus'>>(
  tickets: T[],
  filter: StatusFilter,
) => (filter === 'all' ? tickets : tickets.filter((t) => !isClosedTicket(t)));

/**
 * The list query of a date range and a wiki element: `from` is the start day (`YYYY-MM-DD`), `to` the end
 * as `YYYY-MM-DD HH:mm` (23:59 of the last day, SPEC A7), both as the calendar days the user picked.
 */
export function ticketListQuery(range: DateRange, wikiElementId: number | null): TicketListQuery {
  const query: TicketListQuery = {};
  if (range.start) query.from = toDayParam(range.start);
  if (range.end) query.to = toMinuteParam(range.end);
  if (wikiElementId !== null) query.wikiFilter = wikiElementId;
  return query;
}

/** `webUserIds` as the server reads it: a comma list, absent when no colleague is chosen. */
export const webUserIdsParam = (ids: number[]) =>
  ids.length > 0 ? [...ids].sort((a, b) => a - b).join(',') : undefined;

/** True when an HTML description has neither text nor an image (an editor left empty, or only spaces). */
export function isBlankHtml(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|\u00a0/gi, ' ')
    .trim();
  return text === '';
}
