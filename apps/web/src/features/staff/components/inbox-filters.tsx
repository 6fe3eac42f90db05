import { Button, CloseButton, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import type { StaffOptions } from '@sportello/contracts';
import {
  inboxDueFilters,
  inboxSorts,
  ticketPriorities,
  type InboxDueFilter,
  type InboxSort,
  type TicketPriority,
} from '@sportello/contracts/staff-views';
import { DateRangePicker } from '../../../ui/date-range-picker';
import { fromCalendarValue, toCalendarValue } from '../../../ui/date-range';
import { SelectFilter, type FilterOption } from '../../../ui/select-filter';
import { useStaffT } from '../i18n';
import type { IdFilter, InboxFilters, RatingFilter } from '../inbox-url';

/**
 * The inbox's filters: type, step, group, assignee (the portal's, from the options route), rated
 * (any rating, or low: at or below the portal's threshold), creation dates; the company and the contact are set from a row's links and show here as removable chips.
 */
export function InboxFilterPanel({
  filters,
  options,
  names,
  onChange,
}: {
  filters: InboxFilters;
  options: StaffOptions | undefined;
  /** Names of the company and contact filtered on (from the rows), for their chips. */
  names: { company?: string; contact?: string };
  onChange: (next: InboxFilters) => void;
}) {
  const { t } = useStaffT();
  const set = (key: IdFilter, value: number | null) => onChange({ ...filters, [key]: value ?? undefined });
  const agents: FilterOption<number>[] = [
    { value: 0, text: t('inbox.unassigned') },
    ...(options?.agents ?? []).map((a) => ({ value: a.id, text: a.displayName })),
  ];
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      component="section"
      aria-label={t('inbox.filters')}
      data-testid="filter-panel"
    >
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 6 }} spacing="sm">
        <SelectFilter
          label={t('inbox.type')}
          options={(options?.types ?? []).map((o) => ({ value: o.id, text: o.name }))}
          value={filters.type ?? null}
          onChange={(v) => set('type', v)}
          nullable
        />
        <SelectFilter
          label={t('inbox.step')}
          options={(options?.steps ?? []).map((o) => ({ value: o.id, text: o.name }))}
          value={filters.step ?? null}
          onChange={(v) => set('step', v)}
          nullable
        />
        <SelectFilter
          label={t('inbox.group')}
          options={(options?.groups ?? []).map((o) => ({ value: o.id, text: o.name }))}
          value={filters.group ?? null}
          onChange={(v) => set('group', v)}
          nullable
        />
        <SelectFilter
          label={t('inbox.assignee')}
          options={agents}
          value={filters.assignee ?? null}
          onChange={(v) => set('assignee', v)}
          nullable
        />
        <SelectFilter<RatingFilter>
          label={t('inbox.rating')}
          options={[
            { value: 'any', text: t('inbox.ratingAny') },
            ...(options && options.lowRatingThreshold > 0
              ? [{ value: 'low' as const, text: t('inbox.ratingLow', { n: options.lowRatingThreshold }) }]
              : []),
          ]}
          value={filters.rating ?? null}
          onChange={(v) => onChange({ ...filters, rating: v ?? undefined })}
          nullable
        />
        <SelectFilter<TicketPriority>
          label={t('inbox.priority')}
          options={[...ticketPriorities].reverse().map((p) => ({ value: p, text: t(`priority.${p}`) }))}
          value={filters.priority ?? null}
          onChange={(v) => onChange({ ...filters, priority: v ?? undefined })}
          nullable
        />
        <SelectFilter
          label={t('inbox.tag')}
          options={(options?.ticketTags ?? []).map((o) => ({ value: o.id, text: o.name }))}
          value={filters.tag ?? null}
          onChange={(v) => set('tag', v)}
          nullable
        />
        <SelectFilter<InboxDueFilter>
          label={t('inbox.due')}
          options={inboxDueFilters.map((d) => ({ value: d, text: t(`inbox.dueFilter.${d}`) }))}
          value={filters.due ?? null}
          onChange={(v) => onChange({ ...filters, due: v ?? undefined })}
          nullable
        />
        <SelectFilter<InboxSort>
          label={t('inbox.sort')}
          options={inboxSorts.map((o) => ({ value: o, text: t(`inbox.sortBy.${o}`) }))}
          value={filters.sort ?? 'activity'}
          onChange={(v) => onChange({ ...filters, sort: v ?? undefined })}
        />
        <DateRangePicker
          label={t('inbox.created')}
          value={{
            start: fromCalendarValue(filters.from ?? null),
            end: fromCalendarValue(filters.to ?? null),
          }}
          onChange={(r) =>
            onChange({
              ...filters,
              from: toCalendarValue(r.start) ?? undefined,
              to: toCalendarValue(r.end) ?? undefined,
            })
          }
        />
      </SimpleGrid>
      {(filters.company !== undefined || filters.contact !== undefined) && (
        <Group gap="xs" mt="sm">
          {filters.company !== undefined && (
            <Chip
              label={`${t('inbox.company')}: ${names.company ?? `#${filters.company}`}`}
              onRemove={() => set('company', null)}
            />
          )}
          {filters.contact !== undefined && (
            <Chip
              label={`${t('inbox.contact')}: ${names.contact ?? `#${filters.contact}`}`}
              onRemove={() => set('contact', null)}
            />
          )}
        </Group>
      )}
      <Group justify="flex-end" mt="sm">
        <Button
          variant="subtle"
          size="xs"
          onClick={() => onChange({ view: filters.view, q: filters.q, sort: filters.sort })}
        >
          {t('inbox.clearFilters')}
        </Button>
      </Group>
    </Paper>
  );
}

function Chip({ label, onRemove }: { label: string; onRemove: () => void }) {
  const { t } = useStaffT();
  return (
    <Group
      gap={2}
      px="xs"
      py={2}
      bg="var(--mantine-color-default-hover)"
      style={{ borderRadius: 999 }}
      wrap="nowrap"
    >
      <Text size="sm">{label}</Text>
      <CloseButton size="sm" aria-label={t('inbox.removeFilter', { filter: label })} onClick={onRemove} />
    </Group>
  );
}
