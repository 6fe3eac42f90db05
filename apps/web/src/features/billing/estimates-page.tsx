import { useState } from 'react';
import { Badge, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BillingQuery } from '@sportello/contracts';
import { formatDate, formatEuro, toDayParam } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import { EMPTY_RANGE, type DateRange } from '../../ui/date-range';
import { DateRangePicker } from '../../ui/date-range-picker';
import { FilePreview } from '../../ui/file-preview';
import { FilterBar, SearchFilter, matchesText } from '../../ui/filter-bar';
import { ListRow } from '../../ui/list-row';
import { ListStates } from '../../ui/list-states';
import { SidePanelLayout } from '../../ui/side-panel-layout';
import listClasses from '../../ui/list.module.css';
import { useEstimates } from './api/estimates';

/** SPEC A2 "Estimates": search by name, date range; rows with number, revision, total; document beside (900 px). */
export default function EstimatesPage() {
  const { t, i18n } = useTranslation();
  const { company, contactId } = useTenant();
  const [range, setRange] = useState<DateRange>(EMPTY_RANGE);
  const [text, setText] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const query: BillingQuery = { from: toDayParam(range.start), to: toDayParam(range.end) };
  const estimates = useEstimates(company, contactId, query);
  const rows = (estimates.data ?? []).filter((e) => matchesText(e.estimateName, text));
  const selected = rows.find((e) => e.id === selectedId) ?? null;

  return (
    <>
      <Title order={1} mb="md">
        {t('billing.estimatesTitle')}
      </Title>
      <FilterBar label={t('billing.filters')}>
        <SearchFilter label={t('billing.searchName')} value={text} onChange={setText} />
        <DateRangePicker label={t('billing.period')} value={range} onChange={setRange} />
      </FilterBar>
      <SidePanelLayout
        panelTitle={selected?.estimateName ?? ''}
        onClose={() => setSelectedId(null)}
        panel={
          selected ? (
            <FilePreview
              withName={false}
              url={selected.estimateDocumentUrl}
              name={`${selected.estimateNumber}.pdf`}
              height={900}
            />
          ) : null
        }
        list={
          <ListStates query={estimates} isEmpty={rows.length === 0}>
            <ul className={listClasses.rows} aria-label={t('billing.estimatesTitle')}>
              {rows.map((e) => (
                <li key={e.id} data-testid="estimate-row">
                  <ListRow
                    isSelected={e.id === selectedId}
                    onClick={() => setSelectedId((id) => (id === e.id ? null : e.id))}
                  >
                    <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
                      <Text fw={600}>{e.estimateName}</Text>
                      <Text fw={600}>{formatEuro(e.total, i18n.language)}</Text>
                    </Group>
                    <Group gap="sm" wrap="wrap">
                      <Text size="sm">{t('billing.estimateNumber', { number: e.estimateNumber })}</Text>
                      {e.revisionNumber > 0 && (
                        <Badge
                          variant="outline"
                          color="gray.7"
                          tt="none"
                          radius="sm"
                          data-testid="estimate-revision"
                        >
                          {t('billing.revision', { n: e.revisionNumber })}
                        </Badge>
                      )}
                      <Text size="sm" c="gray.7">
                        {t('billing.createdOn', { date: formatDate(e.estimateCreationDate) })}
                      </Text>
                    </Group>
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
