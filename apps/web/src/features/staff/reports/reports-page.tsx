/**
 * The desk's reports (issue 28 item 14; docs/staff.md, "Reports"): created / solved / backlog, first
 * response and resolution times against the service levels, ratings; a range of days and filters in
 * the URL, each chart with its table and CSV. A chunk of its own with its charts (@mantine/charts,
 * recharts) and its texts: nothing of it loads before this page.
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Badge, CloseButton, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { todayInPortal } from '../../../lib/zone-days';
import { usePageTitle } from '../../../ui/page-title';
import { useDeskOptions } from '../api/options';
import { useDesk, useDeskPortal } from '../desk-context';
import { useReportsT } from './reports-i18n';
import { BreakdownSection, RatingsSection, TimesSection, VolumeSection } from './report-sections';
import { reportFiltersOf, reportParamsOf, reportQueryOf, type ReportFilters } from './reports-url';
import '@mantine/charts/styles.css';

export default function ReportsPage() {
  const { company, portal } = useDesk();
  const { timeZone } = useDeskPortal();
  const { t } = useReportsT();
  usePageTitle(t('title'));
  const [params, setParams] = useSearchParams();
  const today = todayInPortal();
  const filters = useMemo(() => reportFiltersOf(params, today), [params, today]);
  // From the address as it is at the change, not as this render (nor react-router's updater, which
  // gets the same) read it: two changes before the page renders again both stay.
  const set = (patch: Partial<ReportFilters>) => {
    const now = reportFiltersOf(new URLSearchParams(window.location.search), today);
    setParams(reportParamsOf({ ...now, ...patch }), { replace: true });
  };
  const isAdmin = portal.role === 'admin';
  const options = useDeskOptions(company).data;
  // An agent's URL that names the agents' figures (a link from an admin) asks without them.
  const shown: ReportFilters = isAdmin
    ? filters
    : {
        ...filters,
        agent: undefined,
        breakdown: filters.breakdown === 'agent' ? undefined : filters.breakdown,
      };
  const query = reportQueryOf(shown, false);
  const [fromText, setFromText] = useState<string | null>(null);
  const [toText, setToText] = useState<string | null>(null);
  const pickDay = (key: 'from' | 'to', value: string) => {
    (key === 'from' ? setFromText : setToText)(value);
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      const next = reportFiltersOf(reportParamsOf({ ...filters, [key]: value }), today);
      set({ from: next.from, to: next.to });
      (key === 'from' ? setFromText : setToText)(null);
    }
  };
  const idOf = (v: string) => (v === '' ? undefined : Number(v));
  const all = { value: '', label: t('all') };

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('intro', { timeZone: timeZone ?? '' })}
        </Text>
      </div>
      <Group gap="sm" align="end" wrap="wrap" role="search" aria-label={t('title')}>
        <TextInput
          type="date"
          label={t('from')}
          value={fromText ?? filters.from}
          max={filters.to}
          onChange={(e) => pickDay('from', e.currentTarget.value)}
          w={160}
        />
        <TextInput
          type="date"
          label={t('to')}
          value={toText ?? filters.to}
          min={filters.from}
          onChange={(e) => pickDay('to', e.currentTarget.value)}
          w={160}
        />
        <NativeSelect
          label={t('granularity')}
          value={filters.granularity}
          data={[
            { value: 'day', label: t('day') },
            { value: 'week', label: t('week') },
          ]}
          onChange={(e) => set({ granularity: e.currentTarget.value === 'week' ? 'week' : 'day' })}
        />
        <NativeSelect
          label={t('group')}
          value={filters.group === undefined ? '' : String(filters.group)}
          data={[all, ...(options?.groups ?? []).map((g) => ({ value: String(g.id), label: g.name }))]}
          onChange={(e) => set({ group: idOf(e.currentTarget.value) })}
        />
        {isAdmin && (
          <NativeSelect
            label={t('agent')}
            value={filters.agent === undefined ? '' : String(filters.agent)}
            data={[
              all,
              ...(options?.agents ?? []).map((a) => ({ value: String(a.id), label: a.displayName })),
            ]}
            onChange={(e) => set({ agent: idOf(e.currentTarget.value) })}
          />
        )}
        <NativeSelect
          label={t('type')}
          value={filters.type === undefined ? '' : String(filters.type)}
          data={[all, ...(options?.types ?? []).map((x) => ({ value: String(x.id), label: x.name }))]}
          onChange={(e) => set({ type: idOf(e.currentTarget.value) })}
        />
        <NativeSelect
          label={t('priority')}
          value={filters.priority ?? ''}
          data={[
            all,
            ...(['low', 'normal', 'high', 'urgent'] as const).map((p) => ({
              value: p,
              label: t(`priorities.${p}`),
            })),
          ]}
          onChange={(e) =>
            set({ priority: (e.currentTarget.value || undefined) as ReportFilters['priority'] })
          }
        />
        <NativeSelect
          label={t('breakdown')}
          value={shown.breakdown ?? ''}
          data={[
            { value: '', label: t('nothing') },
            ...(isAdmin ? [{ value: 'agent', label: t('agent') }] : []),
            { value: 'group', label: t('group') },
            { value: 'company', label: t('company') },
            { value: 'type', label: t('type') },
          ]}
          onChange={(e) =>
            set({ breakdown: (e.currentTarget.value || undefined) as ReportFilters['breakdown'] })
          }
        />
        {filters.company !== undefined && (
          <Badge
            size="lg"
            variant="light"
            rightSection={
              <CloseButton
                size="xs"
                aria-label={t('clearCompany')}
                onClick={() => set({ company: undefined })}
              />
            }
          >
            {t('companyFilter', { id: filters.company })}
          </Badge>
        )}
      </Group>
      <VolumeSection company={company} query={query} />
      <TimesSection company={company} query={query} />
      <RatingsSection company={company} query={query} />
      {shown.breakdown && (
        <BreakdownSection company={company} query={reportQueryOf(shown, true)} by={shown.breakdown} />
      )}
    </Stack>
  );
}

export { loadReportTexts } from './reports-i18n';
