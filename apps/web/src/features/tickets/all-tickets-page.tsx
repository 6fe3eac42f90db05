import { Button, Group, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTenant } from '../../lib/tenant';
import { MultiSelectFilter } from '../../ui/multi-select-filter';
import { useAllTickets } from './api/all-tickets';
import { useColleagues } from './api/colleagues';
import { useUnreadTickets } from './api/following';
import { wikiSearchUrl } from './api/wiki-elements';
import { TicketFiltersBar } from './components/ticket-filters-bar';
import { TicketList } from './components/ticket-list';
import { sortTickets, ticketListQuery, visibleTickets, webUserIdsParam } from './ticket-filters';
import { useTicketFilters } from './use-ticket-filters';
import { usePageTitle } from '../../ui/page-title';

/** All tickets of the company (administrators), with the filters of my tickets plus colleagues. */
export default function AllTicketsPage() {
  const { t } = useTranslation();
  usePageTitle(t('tickets.allTitle'));
  const { company, contactId, contact, basePath } = useTenant();
  const [filters, setFilters, state, setState] = useTicketFilters();
  const colleagueIds = state.users;
  const setColleagueIds = (users: number[]) => setState({ ...state, users });
  const unread = useUnreadTickets(company, contactId);
  const colleagues = useColleagues(company, contactId);
  const query = useAllTickets(company, contactId, {
    ...ticketListQuery(filters.range, filters.wiki?.id ?? null),
    webUserIds: webUserIdsParam(colleagueIds),
  });
  const tickets = sortTickets(visibleTickets(query.data ?? [], filters.status), filters.sort);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1}>{t('tickets.allTitle')}</Title>
        {contact.manageTickets && (
          <Button
            component={Link}
            to={`${basePath}/tickets/new`}
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            {t('tickets.newTicket')}
          </Button>
        )}
      </Group>
      <TicketFiltersBar
        value={filters}
        onChange={setFilters}
        wikiSearchUrl={contact.viewContactWiki ? wikiSearchUrl(company, contactId) : null}
        extraActive={colleagueIds.length > 0 ? 1 : 0}
      >
        <MultiSelectFilter<number>
          label={t('tickets.colleagues')}
          options={(colleagues.data ?? []).map((c) => ({ value: c.webUserId, text: c.referentName }))}
          value={colleagueIds}
          onChange={setColleagueIds}
          countWords={{ one: t('tickets.userOne'), other: t('tickets.userOther') }}
          nullable
        />
      </TicketFiltersBar>
      <TicketList
        query={query}
        tickets={tickets}
        basePath={basePath}
        canViewReports={contact.viewContactActivityReports}
        showCreator
        from="alltickets"
        unread={unread.data}
      />
    </Stack>
  );
}
