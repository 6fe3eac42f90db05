import { useState } from 'react';
import { Group, Text, Title } from '@mantine/core';
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
import { useInvoices } from './api/invoices';

/** SPEC A2 "Invoices": search by number, date range; a row shows its document (900 px) with a download link. */
export default function InvoicesPage() {
  const { t, i18n } = useTranslation();
  const { company, contactId } = useTenant();
  const [range, setRange] = useState<DateRange>(EMPTY_RANGE);
  const [text, setText] = useState('');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const query: BillingQuery = { from: toDayParam(range.start), to: toDayParam(range.end) };
  const invoices = useInvoices(company, contactId, query);
  const rows = (invoices.data ?? []).filter((i) => matchesText(i.documentNumber, text));
  const selected = rows.find((i) => i.id === selectedId) ?? null;

  return (
    <>
      <Title order={1} mb="md">
        {t('billing.invoicesTitle')}
      </Title>
      <FilterBar label={t('billing.filters')}>
        <SearchFilter label={t('billing.searchNumber')} value={text} onChange={setText} />
        <DateRangePicker label={t('billing.period')} value={range} onChange={setRange} />
      </FilterBar>
      <SidePanelLayout
        panelTitle={selected ? t('billing.invoiceTitle', { number: selected.documentNumber }) : ''}
        onClose={() => setSelectedId(null)}
        panel={
          selected ? (
            <FilePreview
              withName={false}
              url={selected.invoiceDocumentUrl}
              name={`${selected.documentNumber}.pdf`}
              height={900}
            />
          ) : null
        }
        list={
          <ListStates query={invoices} isEmpty={rows.length === 0}>
            <ul className={listClasses.rows} aria-label={t('billing.invoicesTitle')}>
              {rows.map((inv) => (
                <li key={inv.id} data-testid="invoice-row">
                  <ListRow
                    isSelected={inv.id === selectedId}
                    onClick={() => setSelectedId((id) => (id === inv.id ? null : inv.id))}
                  >
                    <Group justify="space-between" gap="xs" wrap="wrap">
                      <Text fw={600}>{inv.documentNumber}</Text>
                      <Text fw={600}>{formatEuro(inv.total, i18n.language)}</Text>
                    </Group>
                    <Text size="sm" c="gray.7">
                      {t('billing.invoiceDate', { date: formatDate(inv.invoiceDate) })}
                    </Text>
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
