import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { Button } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCalendar, IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { importAfterContent } from '../../../lib/first-content';
import type { DateRange } from '../../../ui/date-range';
import type { ServerSearchItem } from '../../../ui/server-search-select';
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
  /** How many of the extra filters are set (the phone's filter button counts them). */
  extraActive?: number;
}

/** How many filters differ from the list's defaults (open tickets, any date, any asset, newest first). */
export function activeFilterCount(value: TicketFilters, extraActive = 0): number {
  const { status, range, wiki, sort } = value;
  return (
    Number(status !== 'open') +
    Number(Boolean(range.start || range.end)) +
    Number(wiki !== null) +
    Number(sort !== 'created') +
    extraActive
  );
}

/** Phones: the filters fold behind one button, so the first ticket shows without scrolling. */
export const PHONE_FILTERS_QUERY = '(max-width: 47.99em)';

/**
 * The controls (Mantine's combobox, floating-ui and the date picker: about 45 KB gzip) come after the
 * list, on My tickets (lib/first-content): the list is what a contact comes for, and its code and its
 * paint no longer wait for theirs.
 */
const TicketFilterWidgets = lazy(() =>
  importAfterContent(() => import('./ticket-filter-widgets')).then((m) => ({
    default: m.TicketFilterWidgets,
  })),
);

/**
 * Status (open or pending / all), creation date range, wiki element, any extra filter, and sort. On a
 * phone they fold behind one "Filters" button saying how many are set: five stacked filters pushed the
 * first ticket below the screen. Folded, the controls are not drawn (nor their code fetched).
 */
export function TicketFiltersBar(props: TicketFiltersBarProps) {
  const { t } = useTranslation();
  // Read at once, not after a first render as a wide screen: a phone would draw the filters, then fold them.
  const isPhone = useMediaQuery(PHONE_FILTERS_QUERY, undefined, { getInitialValueInEffect: false });
  const [isOpen, setIsOpen] = useState(false);
  const id = useId();
  const filters = (
    <Suspense fallback={<FiltersFace {...props} />}>
      <TicketFilterWidgets {...props} />
    </Suspense>
  );
  if (!isPhone)
    return (
      <div className={classes.filters} role="search" aria-label={t('tickets.filters')}>
        {filters}
      </div>
    );
  const active = activeFilterCount(props.value, props.extraActive);
  return (
    <div role="search" aria-label={t('tickets.filters')}>
      <Button
        variant={active > 0 ? 'light' : 'default'}
        rightSection={<IconChevronDown size={16} aria-hidden className={classes.foldChevron} />}
        aria-expanded={isOpen}
        aria-controls={id}
        onClick={() => setIsOpen((open) => !open)}
        data-testid="filters-button"
      >
        {active > 0 ? t('tickets.filtersButtonActive', { count: active }) : t('tickets.filtersButton')}
      </Button>
      {isOpen && (
        <div id={id} className={`${classes.filters} ${classes.foldedFilters}`}>
          {filters}
        </div>
      )}
    </div>
  );
}

/**
 * The filters as they will look, with their values, until their controls arrive: the same labels and
 * boxes of the same size in the same grid, so nothing moves when the controls replace them (the
 * journeys and `bench/page.ts` check the layout shift). Text only: nothing to focus or press yet.
 */
function FiltersFace({ value, wikiSearchUrl, children }: TicketFiltersBarProps) {
  const { t } = useTranslation();
  // The picker's own text (dayjs, which the first load leaves out) follows with it; the day is the same.
  const day = (d: Date | null) =>
    d ? `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}` : '...';
  const { start, end } = value.range;
  return (
    <>
      <Face
        label={t('tickets.statusFilter')}
        text={value.status === 'all' ? t('tickets.statusAll') : t('tickets.statusOpen')}
      />
      <Face
        label={t('tickets.period')}
        text={!start && !end ? t('widgets.dateRange.noDateFilter') : `${day(start)} – ${day(end)}`}
        isCalendar
      />
      {wikiSearchUrl && (
        <Face
          label={t('tickets.wikiFilter')}
          text={value.wiki ? `${value.wiki.folderName} - ${value.wiki.name}` : t('widgets.select.noFilter')}
        />
      )}
      {children}
      <Face
        label={t('following.sort')}
        text={value.sort === 'activity' ? t('following.sortActivity') : t('following.sortCreated')}
      />
    </>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

function Face({ label, text, isCalendar }: { label: string; text: string; isCalendar?: boolean }) {
  return (
    <div data-testid="filter-face">
      <div className={classes.faceLabel}>{label}</div>
      <div className={classes.faceBox}>
        {isCalendar && <IconCalendar size={16} aria-hidden />}
        <span className={classes.faceText}>{text}</span>
        {!isCalendar && <IconChevronDown size={16} aria-hidden />}
      </div>
    </div>
  );
}
