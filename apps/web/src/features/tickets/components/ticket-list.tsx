import { useEffect } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TicketListItem } from '@sportello/contracts';
import { contentShown } from '../../../lib/first-content';
import { useProgressiveCount } from '../../../ui/progressive-count';
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
