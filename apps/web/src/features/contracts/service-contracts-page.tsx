import { useMemo, useState } from 'react';
import { Anchor, Badge, Collapse, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconChevronRight, IconFileText, IconServer, IconTag } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ContractsQuery, ServiceContract, ServicePackage } from '@sportello/contracts';
import { toDayParam } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import { EMPTY_RANGE, type DateRange } from '../../ui/date-range';
import { DateRangePicker } from '../../ui/date-range-picker';
import { FilterBar } from '../../ui/filter-bar';
import { ListStates } from '../../ui/list-states';
import { MultiSelectFilter } from '../../ui/multi-select-filter';
import type { FilterOption } from '../../ui/select-filter';
import { useServiceContracts } from './api/service-contracts';
import { useTags } from './api/tags';
import { ActiveFilterSelect } from './components/active-filter';
import { ActivityList } from './components/activity-list';
import { Validity } from './components/validity';
import classes from './components/contracts.module.css';
import { filterServiceContracts, serviceBadge, type ActiveFilter, type ServiceBadge } from './contract-rules';
import { usePageTitle } from '../../ui/page-title';

/**
 * Shades whose badge text (white on teal and red, black on yellow, by the theme's autoContrast) keeps AA
 * contrast; Mantine's green-9 and orange-9 reach only 4.3:1 with white. Expired is red, like status 4.
 */
const BADGE_COLOR: Record<ServiceBadge, string> = {
  active: 'teal.9',
  expiring: 'yellow.4',
  expired: 'red.9',
};

/** SPEC A2 "Service contracts": active / all, date range, assets and tags; packages expand to activities. */
export default function ServiceContractsPage() {
  const { t } = useTranslation();
  usePageTitle(t('contracts.serviceTitle'));
  const { company, contactId } = useTenant();
  const [active, setActive] = useState<ActiveFilter>('active');
  const [range, setRange] = useState<DateRange>(EMPTY_RANGE);
  const [wikiElementIds, setWikiElementIds] = useState<number[]>([]);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const query: ContractsQuery = { from: toDayParam(range.start), to: toDayParam(range.end) };
  const contracts = useServiceContracts(company, contactId, query);
  const tags = useTags(company);

  // Assets offered are those the contracts list, so the filter never offers an asset that matches nothing.
  const assetOptions = useMemo<FilterOption<number>[]>(() => {
    const seen = new Map<number, string>();
    for (const c of contracts.data ?? []) for (const w of c.wikiElements) seen.set(w.id, w.name);
    return [...seen].map(([value, text]) => ({ value, text })).sort((a, b) => a.text.localeCompare(b.text));
  }, [contracts.data]);
  const tagOptions = useMemo<FilterOption<number>[]>(
    () =>
      (tags.data ?? [])
        .map((tag) => ({ value: tag.id, text: tag.name, group: tag.tagGroupName || undefined }))
        .sort((a, b) => (a.group ?? '').localeCompare(b.group ?? '') || a.text.localeCompare(b.text)),
    [tags.data],
  );
  const rows = filterServiceContracts(contracts.data ?? [], { active, wikiElementIds, tagIds });

  return (
    <>
      <Title order={1} mb="md">
        {t('contracts.serviceTitle')}
      </Title>
      <FilterBar label={t('contracts.filters')}>
        <ActiveFilterSelect value={active} onChange={setActive} />
        <DateRangePicker label={t('contracts.period')} value={range} onChange={setRange} />
        <MultiSelectFilter
          label={t('contracts.assets')}
          options={assetOptions}
          value={wikiElementIds}
          onChange={setWikiElementIds}
          countWords={{ one: t('contracts.assetOne'), other: t('contracts.assetOther') }}
          nullable
        />
        <MultiSelectFilter
          label={t('contracts.tags')}
          options={tagOptions}
          value={tagIds}
          onChange={setTagIds}
          countWords={{ one: t('contracts.tagOne'), other: t('contracts.tagOther') }}
          nullable
        />
      </FilterBar>
      <ListStates query={contracts} isEmpty={rows.length === 0}>
        <ul className={classes.list} aria-label={t('contracts.serviceTitle')}>
          {rows.map((c) => (
            <ServiceContractCard key={c.id} contract={c} />
          ))}
        </ul>
      </ListStates>
    </>
  );
}

function ServiceContractCard({ contract: c }: { contract: ServiceContract }) {
  const { t } = useTranslation();
  const badge = serviceBadge(c);
  return (
    <li
      className={classes.card}
      data-expired={badge === 'expired' || undefined}
      data-testid="service-contract"
    >
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
          <Text fw={700} component="h2" size="md" m={0}>
            {c.name}
          </Text>
          <Badge color={BADGE_COLOR[badge]} variant="filled" radius="sm" data-testid="contract-badge">
            {t(`contracts.badge.${badge}`)}
          </Badge>
        </Group>
        <Validity from={c.activeFrom} to={c.activeTo} />
        {c.tags.length > 0 && (
          <Group gap={6} wrap="wrap" aria-label={t('contracts.tags')} role="group">
            <IconTag size={16} aria-hidden />
            {c.tags.map((tag) => (
              <Badge key={tag.id} variant="outline" color="gray.7" tt="none" radius="sm">
                {tag.name}
              </Badge>
            ))}
          </Group>
        )}
        {c.wikiElements.length > 0 && (
          <Group gap={6} wrap="nowrap" align="flex-start" fz="sm">
            <IconServer size={16} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
            <Text size="sm">
              <span className={classes.visuallyHidden}>{t('contracts.assets')}: </span>
              {c.wikiElements.map((w) => w.name).join(', ')}
            </Text>
          </Group>
        )}
        {c.documents.length > 0 && (
          <Group gap="sm" wrap="wrap" fz="sm">
            {c.documents.map((d) => (
              <Anchor key={d.id} href={d.url} target="_blank" rel="noopener" size="sm">
                <Group gap={4} wrap="nowrap" component="span">
                  <IconFileText size={16} aria-hidden />
                  {d.documentName}
                </Group>
              </Anchor>
            ))}
          </Group>
        )}
        <Stack gap={6}>
          <Text fw={600} size="sm" component="h3" m={0}>
            {t('contracts.packages')}
          </Text>
          {c.packages.length === 0 ? (
            <Text size="sm" data-testid="no-packages">
              {t('contracts.noPackages')}
            </Text>
          ) : (
            c.packages.map((p) => <PackageItem key={p.id} pkg={p} />)
          )}
        </Stack>
      </Stack>
    </li>
  );
}

function PackageItem({ pkg }: { pkg: ServicePackage }) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const panelId = `service-package-${pkg.id}`;
  return (
    <div className={classes.package} data-testid="service-package">
      <UnstyledButton
        className={classes.toggle}
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => setIsOpen((o) => !o)}
      >
        <IconChevronRight size={16} className={classes.chevron} aria-hidden />
        <Group justify="space-between" gap="xs" wrap="wrap" align="baseline" style={{ flex: 1, rowGap: 2 }}>
          <Text fw={600} size="sm">
            {pkg.name}
          </Text>
          <Group gap="md" wrap="wrap" align="baseline" style={{ rowGap: 0 }}>
            <Text size="sm">{t('contracts.packageUnits', { units: pkg.unitsText })}</Text>
            <Text size="sm">{t('contracts.packageResidual', { residual: pkg.residualText })}</Text>
          </Group>
        </Group>
      </UnstyledButton>
      <Collapse expanded={isOpen} id={panelId} keepMounted={false}>
        <ActivityList activities={pkg.activities} />
      </Collapse>
    </div>
  );
}
