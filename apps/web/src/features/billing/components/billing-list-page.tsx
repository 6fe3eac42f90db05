import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Box, Input, Title } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BillingQuery } from '@sportello/contracts';
import { contentShown, importAfterContent } from '../../../lib/first-content';
import { toDayParam } from '../../../lib/format';
import { useTenant } from '../../../lib/tenant';
import { useTimeSliced } from '../../../lib/time-sliced';
import { EMPTY_RANGE, type DateRange } from '../../../ui/date-range';
import widgetClasses from '../../../ui/widgets.module.css';
import { FilePreview } from '../../../ui/file-preview';
import { FilterBar, SearchFilter, matchesText } from '../../../ui/filter-bar';
import { ListRow } from '../../../ui/list-row';
import { ListStates } from '../../../ui/list-states';
import { SidePanelLayout } from '../../../ui/side-panel-layout';
import listClasses from '../../../ui/list.module.css';
import { usePageTitle } from '../../../ui/page-title';

export interface BillingListPageProps<T extends { id: number }> {
  title: string;
  searchLabel: string;
  /** The text the search box matches. */
  searchText: (item: T) => string;
  /** The list's query hook (called with the period chosen in the filters). */
  useList: (company: string, contactId: number, query: BillingQuery) => UseQueryResult<T[]>;
  rowTestId: string;
  panelTitle: (item: T) => string;
  /** The document shown beside the list (900 px) with a download link. */
  document: (item: T) => { url: string; name: string };
  row: (item: T) => ReactNode;
}

/**
 * The period's picker (Mantine's dates, floating-ui and dayjs) comes after the list on a first load of
 * the invoices (lib/first-content): its closed face is drawn until then.
 */
const DateRangePicker = lazy(() =>
  importAfterContent(() => import('../../../ui/date-range-picker')).then((m) => ({
    default: m.DateRangePicker,
  })),
);

/**
 * Invoices and estimates (SPEC A2): search by text and date range over one list; a row opens its
 * document in the side panel, a second click closes it.
 */
export function BillingListPage<T extends { id: number }>(props: BillingListPageProps<T>) {
  const { useList } = props;
  const { t } = useTranslation();
  usePageTitle(props.title);
  const { company, contactId } = useTenant();
  const [range, setRange] = useState<DateRange>(EMPTY_RANGE);
  const [text, setText] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  // Its answer is drawn in a time-sliced render (lib/time-sliced), not one long task.
  const list = useTimeSliced(
    useList(company, contactId, { from: toDayParam(range.start), to: toDayParam(range.end) }),
  );
  // The list (or its error) is the page's content: what waited for it may load.
  const isSettled = !list.isPending;
  useEffect(() => {
    if (isSettled) contentShown();
  }, [isSettled]);
  const rows = (list.data ?? []).filter((item) => matchesText(props.searchText(item), text));
  const selected = rows.find((item) => item.id === selectedId) ?? null;
  const doc = selected && props.document(selected);

  return (
    <>
      <Title order={1} mb="md">
        {props.title}
      </Title>
      <FilterBar label={t('billing.filters')}>
        <SearchFilter label={props.searchLabel} value={text} onChange={setText} />
        <Suspense fallback={<PeriodFace label={t('billing.period')} />}>
          <DateRangePicker label={t('billing.period')} value={range} onChange={setRange} />
        </Suspense>
      </FilterBar>
      <SidePanelLayout
        panelTitle={selected ? props.panelTitle(selected) : ''}
        onClose={() => setSelectedId(null)}
        panel={doc ? <FilePreview withName={false} url={doc.url} name={doc.name} height={900} /> : null}
        list={
          <ListStates query={list} isEmpty={rows.length === 0}>
            <ul className={listClasses.rows} aria-label={props.title}>
              {rows.map((item) => (
                <li key={item.id} data-testid={props.rowTestId}>
                  <ListRow
                    isSelected={item.id === selectedId}
                    onClick={() => setSelectedId((id) => (id === item.id ? null : item.id))}
                  >
                    {props.row(item)}
                  </ListRow>
                </li>
              ))}
            </ul>
          </ListStates>
        }
      />
    </>
  );
}

/**
 * The period's picker as it first shows (no period chosen), until its code is here: the same label and
 * box, so nothing moves when it comes. Text only: nothing to press yet.
 */
function PeriodFace({ label }: { label: string }) {
  const { t } = useTranslation();
  return (
    <Box data-testid="period-face">
      <Input.Label display="block">{label}</Input.Label>
      <div className={widgetClasses.trigger}>
        <IconCalendar size={16} aria-hidden />
        <span className={widgetClasses.triggerText}>{t('widgets.dateRange.noDateFilter')}</span>
      </div>
    </Box>
  );
}
