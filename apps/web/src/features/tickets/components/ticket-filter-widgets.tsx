import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRangePicker } from '../../../ui/date-range-picker';
import type { DateRange } from '../../../ui/date-range';
import { SelectFilter } from '../../../ui/select-filter';
import { ServerSearchSelect, type ServerSearchItem } from '../../../ui/server-search-select';
import type { StatusFilter, TicketSort } from '../ticket-filters';
import classes from './tickets.module.css';

export interface TicketFilters {
  status: StatusFilter;
  range: DateRange;
  wiki: ServerSearchItem | null;
  /** Newest created first (SPEC A2), or the latest activity first (issue 16). */
  sort: TicketSort;
}

export interface TicketFiltersBarProps {
  value: TicketFilters;
  onChange: (value: TicketFilters) => void;
  /** The wiki search URL, or null when the contact may not view the wiki (no wiki search). */
  wikiSearchUrl: string | null;
  /** Extra filters (the colleagues of all tickets). */
  children?: ReactNode;
}

/** Status (open or pending / all), creation date range, wiki element, and any extra filter. */
export function TicketFiltersBar({ value, onChange, wikiSearchUrl, children }: TicketFiltersBarProps) {
  const { t } = useTranslation();
  return (
    <div className={classes.filters} role="search" aria-label={t('tickets.filters')}>
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
    </div>
  );
}
