import { useState } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendarEvent, IconRepeat } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatEuro, formatNumber } from '../../lib/format';
import { useTenant } from '../../lib/tenant';
import { FilterBar, SearchFilter, matchesText } from '../../ui/filter-bar';
import { ListStates } from '../../ui/list-states';
import listClasses from '../../ui/list.module.css';
import { useRecurringAdvances } from './api/recurring-advances';
import { recurrenceText } from './recurrence';
import { usePageTitle } from '../../ui/page-title';

/** SPEC A2 "Recurring subscriptions" (menu: Active subscriptions): search by description or code. */
export default function RecurringAdvancesPage() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('billing.subscriptionsTitle'));
  const { company, contactId } = useTenant();
  const advances = useRecurringAdvances(company, contactId);
  const [text, setText] = useState('');
  const rows = (advances.data ?? []).filter(
    (a) => matchesText(a.description, text) || matchesText(a.code, text),
  );

  return (
    <>
      <Title order={1} mb="md">
        {t('billing.subscriptionsTitle')}
      </Title>
      <FilterBar label={t('billing.filters')}>
        <SearchFilter label={t('billing.searchSubscription')} value={text} onChange={setText} />
      </FilterBar>
      <ListStates query={advances} isEmpty={rows.length === 0}>
        <ul className={listClasses.rows} aria-label={t('billing.subscriptionsTitle')}>
          {rows.map((a) => (
            <li key={a.id} className={listClasses.row} data-testid="subscription-row">
              <Stack gap={4}>
                <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
                  <Text fw={600}>
                    <Text span fw={400} c="gray.7" mr={6}>
                      {t('billing.quantity', { n: formatNumber(a.quantity, i18n.language) })}
                    </Text>
                    {a.description}
                  </Text>
                  <Text fw={600}>{formatEuro(a.taxedTotal, i18n.language)}</Text>
                </Group>
                <Group gap="md" wrap="wrap" fz="sm">
                  <Text size="sm" c="gray.7" ff="monospace">
                    {a.code}
                  </Text>
                  <Group gap={4} wrap="nowrap">
                    <IconRepeat size={16} aria-hidden />
                    <Text size="sm" span data-testid="recurrence-text">
                      {recurrenceText(a.trigger, t, i18n.language)}
                    </Text>
                  </Group>
                  <Group gap={4} wrap="nowrap">
                    <IconCalendarEvent size={16} aria-hidden />
                    <Text size="sm" span>
                      {t('billing.nextBilling', { date: formatDate(a.advanceDate) })}
                    </Text>
                  </Group>
                </Group>
              </Stack>
            </li>
          ))}
        </ul>
      </ListStates>
    </>
  );
}
