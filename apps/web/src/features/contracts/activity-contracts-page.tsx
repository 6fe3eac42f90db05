import { useState } from 'react';
import { Badge, Collapse, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  ACTIVITY_CONTRACT_HOURS,
  ACTIVITY_CONTRACT_UNITS,
  type ActivityContract,
  type ContractsQuery,
} from '@sportello/contracts';
import { toDayParam } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import { EMPTY_RANGE, type DateRange } from '../../ui/date-range';
import { DateRangePicker } from '../../ui/date-range-picker';
import { FilterBar } from '../../ui/filter-bar';
import { ListStates } from '../../ui/list-states';
import { useActivityContracts } from './api/activity-contracts';
import { ActiveFilterSelect } from './components/active-filter';
import { ActivityList } from './components/activity-list';
import { Validity } from './components/validity';
import classes from './components/contracts.module.css';
import { formatAmount, type ActiveFilter } from './contract-rules';
import { usePageTitle } from '../../ui/page-title';

/** SPEC A2 "Activity contracts": only active / all, date range; a contract expands to its activities. */
export default function ActivityContractsPage() {
  const { t } = useTranslation();
  const { company, contactId, contact } = useTenant();
  // Beside service contracts the menu names these 'Hour and unit contracts': the page says the same.
  const title = contact.portalSettings.enableServiceContracts
    ? t('menu.hourContracts')
    : t('contracts.activityTitle');
  usePageTitle(title);
  const [active, setActive] = useState<ActiveFilter>('active');
  const [range, setRange] = useState<DateRange>(EMPTY_RANGE);
  const [openId, setOpenId] = useState<number | null>(null);
  const query: ContractsQuery = { from: toDayParam(range.start), to: toDayParam(range.end) };
  const contracts = useActivityContracts(company, contactId, query);
  const rows = (contracts.data ?? []).filter((c) => active === 'all' || !c.isExpired);

  return (
    <>
      <Title order={1} mb="md">
        {title}
      </Title>
      <FilterBar label={t('contracts.filters')}>
        <ActiveFilterSelect value={active} onChange={setActive} />
        <DateRangePicker label={t('contracts.period')} value={range} onChange={setRange} />
      </FilterBar>
      <ListStates query={contracts} isEmpty={rows.length === 0}>
        <ul className={classes.list} aria-label={t('contracts.activityTitle')}>
          {rows.map((c) => (
            <ActivityContractCard
              key={c.id}
              contract={c}
              isOpen={openId === c.id}
              onToggle={() => setOpenId((id) => (id === c.id ? null : c.id))}
            />
          ))}
        </ul>
      </ListStates>
    </>
  );
}

function ActivityContractCard({
  contract: c,
  isOpen,
  onToggle,
}: {
  contract: ActivityContract;
  isOpen: boolean;
  onToggle: () => void;
}) {
  const { t, i18n } = useTranslation();
  const panelId = `activity-contract-${c.id}`;
  return (
    <li className={classes.card} data-expired={c.isExpired || undefined} data-testid="activity-contract">
      <UnstyledButton
        className={classes.toggle}
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={onToggle}
      >
        <IconChevronRight size={16} className={classes.chevron} aria-hidden />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text fw={700}>{c.name}</Text>
            {c.isExpired && (
              <Badge color="gray.7" variant="outline" tt="none">
                {t('contracts.expired')}
              </Badge>
            )}
          </Group>
          <Group gap="lg" wrap="wrap">
            <Validity from={c.start} to={c.end} />
            <Text size="sm" data-testid="contract-residual">
              {c.activityContractType === ACTIVITY_CONTRACT_HOURS &&
                t('contracts.remainingHours', {
                  residual: c.residual_Time_String ?? '—',
                  total: formatAmount(c.hoursAmount, i18n.language),
                })}
              {c.activityContractType === ACTIVITY_CONTRACT_UNITS &&
                t('contracts.remainingUnits', {
                  residual: formatAmount(c.residual_UnitAmount, i18n.language),
                  total: formatAmount(c.unitAmount, i18n.language),
                })}
            </Text>
          </Group>
        </Stack>
      </UnstyledButton>
      <Collapse expanded={isOpen} id={panelId} keepMounted={false}>
        <Stack gap={4} mt="xs">
          <Text fw={600} size="sm" component="h2">
            {t('contracts.activities')}
          </Text>
          <ActivityList activities={c.activities} />
        </Stack>
      </Collapse>
    </li>
  );
}
