import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TicketListItem } from '@sportello/contracts';
import { ListStates, type ListQueryState } from '../../../ui/list-states';
import { TicketRow } from './ticket-row';
import classes from './tickets.module.css';

export interface TicketListProps {
  query: ListQueryState;
  /** The tickets left after the status filter. */
  tickets: TicketListItem[];
  basePath: string;
  canViewReports: boolean;
  showCreator?: boolean;
}

/** Loading, error and empty states, then the rows (each a link to its ticket). */
export function TicketList({ query, tickets, basePath, canViewReports, showCreator }: TicketListProps) {
  const { t } = useTranslation();
  return (
    <ListStates query={query} isEmpty={tickets.length === 0}>
      <Text size="sm" c="dimmed" mb="xs" role="status">
        {t('tickets.count', { count: tickets.length })}
      </Text>
      <ul className={classes.rows} aria-label={t('tickets.listLabel')}>
        {tickets.map((ticket) => (
          <TicketRow
            key={ticket.id}
            ticket={ticket}
            href={`${basePath}/tickets/${ticket.id}`}
            canViewReports={canViewReports}
            showCreator={showCreator}
          />
        ))}
      </ul>
    </ListStates>
  );
}
