import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import { IconCircleCheck, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useTenant } from '../../lib/tenant';
import { useTimeSliced } from '../../lib/time-sliced';
import { useMyTickets } from './api/my-tickets';
import { useUnreadTickets } from './api/following';
import { wikiSearchUrl } from './api/wiki-elements';
import { TicketFiltersBar } from './components/ticket-filters-bar';
import { TicketList } from './components/ticket-list';
import { sortTickets, ticketListQuery, visibleTickets } from './ticket-filters';
import { useTicketFilters } from './use-ticket-filters';
import { usePageTitle } from '../../ui/page-title';

/** My tickets: the tickets this contact opened, with status, date and wiki filters. */
export default function TicketsPage() {
  const { t } = useTranslation();
  usePageTitle(t('tickets.myTitle'));
  const { company, contactId, contact, basePath } = useTenant();
  const [filters, setFilters] = useTicketFilters();
  const query = useTimeSliced(
    useMyTickets(company, contactId, ticketListQuery(filters.range, filters.wiki?.id ?? null)),
  );
  const unread = useUnreadTickets(company, contactId);
  const tickets = sortTickets(visibleTickets(query.data ?? [], filters.status), filters.sort);
  // Set by the new-ticket page: the number of the ticket just sent (issue 16).
  const created = (useLocation().state as { createdNumber?: unknown } | null)?.createdNumber;
  return (
    <Stack gap="md">
      {typeof created === 'string' && created !== '' && (
        <Alert
          color="green"
          variant="light"
          icon={<IconCircleCheck aria-hidden />}
          role="status"
          data-testid="ticket-created"
        >
          {t('following.ticketSent', { number: created })}
        </Alert>
      )}
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1}>{t('tickets.myTitle')}</Title>
        <Button
          component={Link}
          to={`${basePath}/tickets/new`}
          leftSection={<IconPlus size={16} aria-hidden />}
        >
          {t('tickets.newTicket')}
        </Button>
      </Group>
      <TicketFiltersBar
        value={filters}
        onChange={setFilters}
        wikiSearchUrl={contact.viewContactWiki ? wikiSearchUrl(company, contactId) : null}
      />
      <TicketList
        query={query}
        tickets={tickets}
        basePath={basePath}
        canViewReports={contact.viewContactActivityReports}
        unread={unread.data}
      />
    </Stack>
  );
}
