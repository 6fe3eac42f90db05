import { useMemo, useState } from 'react';
import { Anchor, Group, Text, Title } from '@mantine/core';
import { IconCalendarEvent, IconTicket } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ActivityReport, ActivityReportsQuery } from '@sportello/contracts';
import { formatDateTime, toDayParam } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import { EMPTY_RANGE, type DateRange } from '../../ui/date-range';
import { DateRangePicker } from '../../ui/date-range-picker';
import { FilePreview } from '../../ui/file-preview';
import { FilterBar, SearchFilter, matchesText } from '../../ui/filter-bar';
import { ListRow } from '../../ui/list-row';
import { ListStates } from '../../ui/list-states';
import { ServerSearchSelect, type ServerSearchItem } from '../../ui/server-search-select';
import { SidePanelLayout } from '../../ui/side-panel-layout';
import listClasses from '../../ui/list.module.css';
import { useActivityReports } from './api/activity-reports';
import { wikiRoutes } from '@sportello/contracts/route-refs';
import { pathOf } from '../../lib/api-client';
import { useVisibleTicketIds } from './api/visible-tickets';
import { usePageTitle } from '../../ui/page-title';

/** SPEC A2 "Activity reports": date range, wiki search, name filter; a row toggles its document beside the list. */
export default function ReportsPage() {
  const { t } = useTranslation();
  usePageTitle(t('reports.title'));
  const { company, contactId, contact, basePath } = useTenant();
  const [range, setRange] = useState<DateRange>(EMPTY_RANGE);
  const [wiki, setWiki] = useState<ServerSearchItem | null>(null);
  const [text, setText] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);

  const query: ActivityReportsQuery = {
    from: toDayParam(range.start),
    to: toDayParam(range.end),
    wikiFilter: wiki?.id,
  };
  const reports = useActivityReports(company, contactId, query);
  const visible = useVisibleTicketIds(company, contactId);
  const visibleIds = useMemo(() => new Set(visible.data ?? []), [visible.data]);
  const rows = (reports.data ?? []).filter((r) => matchesText(r.name, text));
  const selected = rows.find((r) => r.id === selectedId) ?? null;

  return (
    <>
      <Title order={1} mb="md">
        {t('reports.title')}
      </Title>
      <FilterBar label={t('reports.filters')}>
        <DateRangePicker label={t('reports.period')} value={range} onChange={setRange} />
        {contact.viewContactWiki && (
          <ServerSearchSelect
            label={t('reports.wikiFilter')}
            url={pathOf(wikiRoutes.list, { company, contactid: contactId })}
            value={wiki}
            onChange={setWiki}
          />
        )}
        <SearchFilter label={t('reports.search')} value={text} onChange={setText} />
      </FilterBar>
      <SidePanelLayout
        panelTitle={selected?.name ?? ''}
        onClose={() => setSelectedId(null)}
        panel={
          selected ? (
            <FilePreview withName={false} url={selected.documentUrl} name={selected.name} height={900} />
          ) : null
        }
        list={
          <ListStates query={reports} isEmpty={rows.length === 0}>
            <ul className={listClasses.rows} aria-label={t('reports.title')}>
              {rows.map((r) => (
                <ReportRow
                  key={r.id}
                  report={r}
                  isSelected={r.id === selectedId}
                  onToggle={() => setSelectedId((id) => (id === r.id ? null : r.id))}
                  ticketHref={
                    r.taskId !== null &&
                    visibleIds.has(r.taskId) &&
                    (contact.manageTickets || contact.administrator)
                      ? `${basePath}/tickets/${r.taskId}`
                      : null
                  }
                />
              ))}
            </ul>
          </ListStates>
        }
      />
    </>
  );
}

function ReportRow({
  report,
  isSelected,
  onToggle,
  ticketHref,
}: {
  report: ActivityReport;
  isSelected: boolean;
  onToggle: () => void;
  /** The linked ticket's page, or null when the ticket is not among the user's visible tickets. */
  ticketHref: string | null;
}) {
  const { t } = useTranslation();
  return (
    <li data-testid="report-row">
      <ListRow isSelected={isSelected} onClick={onToggle}>
        <Text fw={600}>{report.name}</Text>
        <Group gap={4} fz="sm" c="gray.7">
          <IconCalendarEvent size={16} aria-hidden />
          <Text size="sm" span>
            {formatDateTime(report.dateTime)}
          </Text>
        </Group>
      </ListRow>
      {ticketHref && (
        <Group gap={4} mt={4} ml="sm" fz="sm">
          <IconTicket size={16} aria-hidden />
          <Anchor component={Link} to={ticketHref} size="sm" data-testid="report-ticket-link">
            {t('reports.ticketLink', { name: report.taskName ?? report.taskId })}
          </Anchor>
        </Group>
      )}
    </li>
  );
}
