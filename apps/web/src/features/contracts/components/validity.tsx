import { Group, Text } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';

/** 'Validity: 01/01/2026 – 31/12/2026', or the start and 'No expiration' when there is no end. */
export function Validity({ from, to }: { from: string; to: string | null }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap" fz="sm">
      <IconCalendarEvent size={16} aria-hidden />
      <Text size="sm" span data-testid="contract-validity">
        {to
          ? t('contracts.validity', { from: formatDate(from), to: formatDate(to) })
          : t('contracts.validityOpen', { from: formatDate(from) })}
      </Text>
    </Group>
  );
}
