import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Button, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconPlus } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { InboxItem } from '@sportello/contracts';
import { inboxViews, type InboxView } from '@sportello/contracts/staff-views';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { loadRestStyles } from '../../styles/load-rest-styles';
import { errorText } from '../../lib/error-text';
import { contentShown, importAfterContent } from '../../lib/first-content';
import { formatNumber } from '../../lib/format';
import { ListEmpty, ListError, ListLoading } from '../../ui/list-states';
import { useProgressiveCount } from '../../ui/progressive-count';
import { usePageTitle } from '../../ui/page-title';
import { inboxQuery } from './api/inbox';
import { useDeskOptions } from './api/options';
import { useUpdateTicket } from './api/ticket-writes';
import { useUnreadQuery } from './api/unread';
import { InboxRow, type InboxRowLabels } from './components/inbox-row';
import { QuickSearch } from './components/quick-search';
import { useDeskPortal } from './desk-context';
import { useDeskKeys } from './desk-keys';
import { loadStaffTexts, useStaffT } from './i18n';
import {
  activeFilterCount,
  filtersFromSearch,
  inboxQueryOf,
  searchFromFilters,
  type InboxFilters,
} from './inbox-url';
import { staffNewTicketPath, staffTicketPath } from './staff-paths';
import classes from './components/inbox.module.css';

/**
 * The filters' panel (Mantine's selects and the date picker) comes when it is opened, or with the
 * inbox when the address already filters: the list needs none of its code. It, the bulk bar and the
 * saved views come with the desk's texts beyond the inbox's (i18n/inbox-texts.ts).
 */
const InboxFilterPanel = lazy(() =>
  Promise.all([import('./components/inbox-filters'), loadRestStyles(), loadStaffTexts()]).then(([m]) => ({
    default: m.InboxFilterPanel,
  })),
);

/** The bulk actions' bar: it comes with the first ticket selected (the list needs none of its code). */
const BulkBar = lazy(() =>
  Promise.all([import('./components/bulk-bar'), loadStaffTexts()]).then(([m]) => ({ default: m.BulkBar })),
);

/** The saved views (issue 28): after the inbox's first paint, with their counts. */
const SavedViews = lazy(() =>
  importAfterContent(() =>
    Promise.all([import('./components/saved-views'), loadRestStyles(), loadStaffTexts()]),
  ).then(([m]) => ({ default: m.SavedViews })),
);

/** The row links of the list, in order: j/k move the focus among them. */
const rowLinks = (list: HTMLElement | null) =>
  Array.from(list?.querySelectorAll<HTMLAnchorElement>('[data-row-link]') ?? []);

/**
 * The inbox (`/{portal}/staff`): the views with their counts, search, filters, the list newest activity
 * first with unread markers, and "load more" (keyset). Everything it shows is in the URL. "New ticket"
 * (`c`) opens a ticket on behalf of a contact.
 */
export default function InboxPage() {
  const { t, i18n } = useStaffT();
  const { company, timeZone } = useDeskPortal();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const search = searchFromFilters(filters);
  const query = useInfiniteQuery(inboxQuery(company, inboxQueryOf(filters)));
  const unread = useUnreadQuery(company);
  const options = useDeskOptions(company);
  const assign = useUpdateTicket(company);
  const [showFilters, setShowFilters] = useState(() => activeFilterCount(filters) > 0);
  // Filtered from the start: the list waits for the panel above it, so it does not move down when it comes.
  const [isFilteredAtStart] = useState(showFilters);
  const [notice, setNotice] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  // The bulk actions' selection: ticket ids with the last activity each showed when selected (a
  // ticket whose activity moves on is left alone by the bulk action); the anchor of a shift-click.
  const [selected, setSelected] = useState<ReadonlyMap<number, string>>(() => new Map());
  const anchor = useRef<number | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  usePageTitle(t(`views.${filters.view}`));

  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  // The rows wait for the portal's time zone as well as for themselves: their dates show in it.
  const isSettled = !query.isPending && timeZone !== null;
  // A screen of rows first, the rest a batch per frame: 50 rows at once held a slow phone's first paint.
  const shown = useProgressiveCount(isSettled ? items.length : 0);
  // The list (or its empty or error state) is the page's main content: what waited for it may load.
  useEffect(() => {
    if (isSettled) contentShown();
  }, [isSettled]);
  const first = query.data?.pages[0];
  const counts = unread.data?.counts ?? first?.counts;
  const cap = unread.data?.countCap ?? first?.countCap ?? Infinity;
  const lang = i18n.language;
  const countText = (n: number) => (n >= cap ? `${formatNumber(cap, lang)}+` : formatNumber(n, lang));

  const apply = (next: InboxFilters) => void setParams(searchFromFilters(next));
  // Stable while the list is the same, so rows already drawn are not drawn again (InboxRow is memoised).
  const filterLink = useCallback(
    (key: 'company' | 'contact', id: number) =>
      `${location.pathname}${searchFromFilters({ ...filters, [key]: id })}`,
    [location.pathname, filters],
  );
  const names = useMemo(() => namesOf(items, filters), [items, filters]);
  // Once per language, not per row (each row's t() calls and translation hook held the first render).
  const rowLabels = useMemo<InboxRowLabels>(
    () => ({
      unread: t('inbox.unread'),
      waiting: t('inbox.waitingBadge'),
      unassigned: t('inbox.unassigned'),
      rating: t('inbox.rating'),
      priority: {
        low: t('priority.low'),
        normal: t('priority.normal'),
        high: t('priority.high'),
        urgent: t('priority.urgent'),
      },
      due: t('inbox.dueLabel'),
      overdue: t('inbox.overdueLabel'),
      tags: t('inbox.tag'),
      select: t('bulk.select'),
    }),
    [t],
  );
  const onSelect = useCallback(
    (id: number, range: boolean) => {
      // Read now: the updater below runs at the next render, after the anchor has moved to `id`.
      const last = anchor.current;
      setSelected((before) => {
        const next = new Map(before);
        const ids = items.map((i) => i.id);
        const from = last === null ? -1 : ids.indexOf(last);
        const to = ids.indexOf(id);
        const span =
          range && from >= 0 && to >= 0 ? items.slice(Math.min(from, to), Math.max(from, to) + 1) : null;
        const on = !before.has(id);
        for (const item of span ?? items.filter((i) => i.id === id))
          if (on) next.set(item.id, item.lastActivityAt);
          else next.delete(item.id);
        return next;
      });
      anchor.current = id;
    },
    [items],
  );
  const viewLabels = useMemo(() => ({ count: t('inbox.countLabel'), unread: t('inbox.unreadLabel') }), [t]);

  const focusedItem = (): InboxItem | undefined => {
    const links = rowLinks(listRef.current);
    const i = links.findIndex((a) => a === document.activeElement);
    return i >= 0 ? items[i] : undefined;
  };
  const move = (delta: number) => {
    const links = rowLinks(listRef.current);
    if (links.length === 0) return;
    const i = links.findIndex((a) => a === document.activeElement);
    const next = i < 0 ? 0 : Math.min(links.length - 1, Math.max(0, i + delta));
    links[next]?.focus();
  };
  const assignToMe = (item: InboxItem) => {
    const me = options.data?.me.agentId;
    if (!me) {
      setNotice(t('inbox.noAgent'));
      return;
    }
    assign.mutate(
      { ticketId: item.id, change: { assigneeId: me } },
      {
        onSuccess: () => setNotice(t('inbox.assignedToMe', { number: item.ticketNumber })),
        onError: (e) => setNotice(errorText(e, t)),
      },
    );
  };
  useDeskKeys({
    j: () => move(1),
    k: () => move(-1),
    Enter: () => move(0),
    '/': () => searchRef.current?.focus(),
    c: () => void navigate(staffNewTicketPath(company), { state: { inbox: search } }),
    r: () => {
      const item = focusedItem();
      if (item)
        void navigate(staffTicketPath(company, item.id), { state: { inbox: search, compose: 'reply' } });
    },
    a: () => {
      const item = focusedItem();
      if (item) assignToMe(item);
    },
    x: () => {
      const item = focusedItem();
      if (item) onSelect(item.id, false);
    },
  });

  const filterPanel = showFilters && (
    <InboxFilterPanel filters={filters} options={options.data} names={names} onChange={apply} />
  );
  const list = !isSettled ? (
    <ListLoading />
  ) : query.isError ? (
    <ListError onRetry={() => void query.refetch()} message={errorText(query.error, t)} />
  ) : items.length === 0 ? (
    <ListEmpty text={filters.q ? t('inbox.nothingFound') : t('inbox.empty')} />
  ) : (
    <>
      <ul
        className={classes.list}
        ref={listRef}
        aria-label={t(`views.${filters.view}`)}
        data-testid="inbox-list"
      >
        {items.slice(0, shown).map((item) => (
          <InboxRow
            key={item.id}
            item={item}
            company={company}
            search={search}
            filterLink={filterLink}
            labels={rowLabels}
            selected={selected.has(item.id)}
            onSelect={onSelect}
          />
        ))}
      </ul>
      {query.hasNextPage && (
        <Group justify="center">
          <Button
            variant="default"
            onClick={() => void query.fetchNextPage()}
            loading={query.isFetchingNextPage}
          >
            {t('inbox.loadMore')}
          </Button>
        </Group>
      )}
      <Text size="xs" c="dimmed" ta="center">
        {t('inbox.hint')}
      </Text>
    </>
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <Title order={1} size="h3">
          {t('inbox.title')}
        </Title>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" role="status" aria-live="polite" data-testid="inbox-notice">
            {notice}
          </Text>
          <Button
            component={Link}
            to={staffNewTicketPath(company)}
            state={{ inbox: search }}
            leftSection={<IconPlus size={16} aria-hidden />}
            aria-keyshortcuts="c"
            data-testid="new-ticket"
          >
            {t('newTicket.button')}
          </Button>
        </Group>
      </Group>
      {selected.size > 0 && (
        <Suspense fallback={null}>
          <BulkBar
            company={company}
            tickets={items
              .filter((i) => selected.has(i.id))
              .map((i) => ({ id: i.id, ticketNumber: i.ticketNumber, seen: selected.get(i.id)! }))}
            options={options.data}
            onClear={() => setSelected(new Map())}
          />
        </Suspense>
      )}
      <nav aria-label={t('inbox.views')} className={classes.views}>
        {inboxViews.map((view) => (
          <ViewLink
            key={view}
            view={view}
            isCurrent={view === filters.view}
            to={searchFromFilters({ ...filters, view }) || '?'}
            count={counts ? countText(counts[view] ?? 0) : null}
            unread={unread.data?.unread[view] ?? 0}
            name={t(`views.${view}`)}
            labels={viewLabels}
          />
        ))}
      </nav>
      {/* The row's height is kept while its code comes, so the list does not move down. */}
      <Suspense fallback={<div style={{ minHeight: 28 }} />}>
        <SavedViews company={company} filters={filters} />
      </Suspense>
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <QuickSearch
          key={filters.q ?? ''}
          company={company}
          initial={filters.q ?? ''}
          inputRef={searchRef}
          onSubmit={(q) => apply({ ...filters, q })}
        />
        <Button
          variant={showFilters ? 'light' : 'default'}
          leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
          onClick={() => setShowFilters((v) => !v)}
          aria-expanded={showFilters}
          aria-label={t('inbox.filters')}
          data-testid="filters-toggle"
          rightSection={
            activeFilterCount(filters) > 0 ? (
              <Badge
                size="sm"
                circle
                aria-label={t('inbox.activeFilters', { count: activeFilterCount(filters) })}
              >
                {activeFilterCount(filters)}
              </Badge>
            ) : undefined
          }
        >
          <span className={classes.filtersLabel}>{t('inbox.filters')}</span>
        </Button>
      </Group>
      {isFilteredAtStart ? (
        <Suspense fallback={<ListLoading />}>
          {filterPanel}
          {list}
        </Suspense>
      ) : (
        <>
          <Suspense fallback={null}>{filterPanel}</Suspense>
          {list}
        </>
      )}
    </Stack>
  );
}

function ViewLink({
  view,
  isCurrent,
  to,
  count,
  unread,
  name,
  labels,
}: {
  view: InboxView;
  isCurrent: boolean;
  to: string;
  count: string | null;
  unread: number;
  /** The view's name and the counts' hidden words, translated by the page (once, not per link). */
  name: string;
  labels: { count: string; unread: string };
}) {
  return (
    <Button
      component={Link}
      to={to}
      variant={isCurrent ? 'filled' : 'default'}
      size="compact-md"
      aria-current={isCurrent ? 'page' : undefined}
      data-testid={`view-${view}`}
      style={{ flexShrink: 0 }}
      rightSection={
        count !== null ? (
          <span data-testid={`count-${view}`} className={classes.viewCount}>
            <VisuallyHidden>{labels.count}</VisuallyHidden>
            {count}
            {unread > 0 && (
              // Says "new": two bare numbers side by side read as "4 (4)".
              <Badge
                size="xs"
                tt="none"
                color={isCurrent ? 'white' : 'brand'}
                // On white, the filled shade (4.5:1 on white in both schemes; brand's text shade is dark's).
                c={isCurrent ? 'var(--mantine-primary-color-filled)' : undefined}
                data-testid={`unread-${view}`}
              >
                {labels.unread.replace('{{count}}', String(unread))}
              </Badge>
            )}
          </span>
        ) : undefined
      }
    >
      {name}
    </Button>
  );
}

/** The names behind the company and contact ids filtered on, as the loaded rows spell them. */
function namesOf(items: InboxItem[], f: InboxFilters): { company?: string; contact?: string } {
  const company = items.find((i) => i.company.id === f.company)?.company.name;
  const contact = items.find((i) => i.contact?.id === f.contact)?.contact?.referentName;
  return { company, contact };
}
