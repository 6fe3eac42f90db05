import { useEffect, useState } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TicketListItem } from '@sportello/contracts';
import { contentShown } from '../../../lib/first-content';
import { ListStates, type ListQueryState } from '../../../ui/list-states';
import { TicketRow, type TicketListName } from './ticket-row';
import classes from './tickets.module.css';

export interface TicketListProps {
  query: ListQueryState;
  /** The tickets left after the status filter. */
  tickets: TicketListItem[];
  basePath: string;
  canViewReports: boolean;
  showCreator?: boolean;
  /** Which list this is (the ticket page's back link returns to it). */
  from?: TicketListName;
  /** Ids of tickets with an unread public message (issue 16). */
  unread?: ReadonlySet<number> | undefined;
}

/** Rows of the first paint (what a laptop screen shows, and more); the rest follow in batches. */
export const FIRST_ROWS = 10;
const BATCH_ROWS = 15;

/**
 * How many rows to render now: a long list paints its first screen at once and the rest a batch per
 * frame, so no single long task holds the page (hundreds of rows take a second on a slow phone). Rows
 * already shown are memoised and not rendered again when the next batch arrives.
 */
function useProgressiveCount(total: number): number {
  const [shown, setShown] = useState(FIRST_ROWS);
  useEffect(() => {
    if (shown >= total) return;
    // After the next paint, not before it: the frame with the first rows goes out first.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setShown((n) => n + BATCH_ROWS), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown, total]);
  return Math.min(shown, total);
}

/** Loading, error and empty states, then the rows (each a link to its ticket). */
export function TicketList({
  query,
  tickets,
  basePath,
  canViewReports,
  showCreator,
  from,
  unread,
}: TicketListProps) {
  const { t } = useTranslation();
  const shown = useProgressiveCount(tickets.length);
  // The list (or its empty or error state) is the page's main content: what waited for it may load.
  const isSettled = !query.isPending;
  useEffect(() => {
    if (isSettled) contentShown();
  }, [isSettled]);
  return (
    <ListStates query={query} isEmpty={tickets.length === 0}>
      <Text size="sm" c="dimmed" mb="xs" role="status">
        {t('tickets.count', { count: tickets.length })}
      </Text>
      <ul className={classes.rows} aria-label={t('tickets.listLabel')}>
        {tickets.slice(0, shown).map((ticket) => (
          <TicketRow
            key={ticket.id}
            ticket={ticket}
            href={`${basePath}/tickets/${ticket.id}`}
            canViewReports={canViewReports}
            showCreator={showCreator}
            from={from}
            isUnread={unread?.has(ticket.id) ?? false}
            t={t}
          />
        ))}
      </ul>
    </ListStates>
  );
}
