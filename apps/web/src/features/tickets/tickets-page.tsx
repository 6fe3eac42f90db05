import { Button, Group, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTenant } from '../../lib/tenant';
import { useMyTickets } from './api/my-tickets';
import { wikiSearchUrl } from './api/wiki-elements';
import { TicketFiltersBar } from './components/ticket-filters-bar';
import { TicketList } from './components/ticket-list';
import { ticketListQuery, visibleTickets } from './ticket-filters';
import { useTicketFilters } from './use-ticket-filters';
import { usePageTitle } from '../../ui/page-title';

/** My tickets: the tickets this contact opened, with status, date and wiki filters. */
export default function TicketsPage() {
  const { t } = useTranslation();
  usePageTitle(t('tickets.myTitle'));
  const { company, contactId, contact, basePath } = useTenant();
  const [filters, setFilters] = useTicketFilters();
  const query = useMyTickets(company, contactId, ticketListQuery(filters.range, filters.wiki?.id ?? null));
  const tickets = visibleTickets(query.data ?? [], filters.status);
  return (
    <Stack gap="md">
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
      />
    </Stack>
  );
}
