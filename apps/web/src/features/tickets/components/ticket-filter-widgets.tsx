import { useTranslation } from 'react-i18next';
import { DateRangePicker } from '../../../ui/date-range-picker';
import { SelectFilter } from '../../../ui/select-filter';
import { ServerSearchSelect } from '../../../ui/server-search-select';
import type { StatusFilter, TicketSort } from '../ticket-filters';
import type { TicketFiltersBarProps } from './ticket-filters-bar';

/**
 * The filter bar's controls (ticket-filters-bar.tsx draws their look until this chunk, with Mantine's
 * combobox and the date picker, arrives): status (open or pending / all), creation date range, wiki
 * element, any extra filter, sort.
 */
export function TicketFilterWidgets({ value, onChange, wikiSearchUrl, children }: TicketFiltersBarProps) {
  const { t } = useTranslation();
  return (
    <>
      <SelectFilter<StatusFilter>
        label={t('tickets.statusFilter')}
        options={[
          { value: 'open', text: t('tickets.statusOpen') },
          { value: 'all', text: t('tickets.statusAll') },
        ]}
        value={value.status}
        onChange={(status) => onChange({ ...value, status: status ?? 'open' })}
      />
      <DateRangePicker
        label={t('tickets.period')}
        value={value.range}
        onChange={(range) => onChange({ ...value, range })}
      />
      {wikiSearchUrl && (
        <ServerSearchSelect
          label={t('tickets.wikiFilter')}
          url={wikiSearchUrl}
          value={value.wiki}
          onChange={(wiki) => onChange({ ...value, wiki })}
        />
      )}
      {children}
      <SelectFilter<TicketSort>
        label={t('following.sort')}
        options={[
          { value: 'created', text: t('following.sortCreated') },
          { value: 'activity', text: t('following.sortActivity') },
        ]}
        value={value.sort}
        onChange={(sort) => onChange({ ...value, sort: sort ?? 'created' })}
      />
    </>
  );
}
