import { Group, Text } from '@mantine/core';
import { IconArrowsExchange, IconLock, IconLockOpen } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TicketTimelineEntry } from '@sportello/contracts';
import { formatDate, formatTime } from '../../../lib/format';

/** A public change of the ticket (its step; closed, reopened) between the messages of the conversation. */
export function TimelineEntry({ entry }: { entry: TicketTimelineEntry }) {
  const { t } = useTranslation();
  const Icon =
    entry.kind === 'closed' ? IconLock : entry.kind === 'reopened' ? IconLockOpen : IconArrowsExchange;
  const what =
    entry.kind === 'closed'
      ? t('following.timelineClosed', { step: entry.toStep?.name ?? '' })
      : entry.kind === 'reopened'
        ? t('following.timelineReopened', { step: entry.toStep?.name ?? '' })
        : t('following.timelineStep', { step: entry.toStep?.name ?? '' });
  const when = t('following.timelineWhen', { date: formatDate(entry.at), time: formatTime(entry.at) });
  return (
    <Group gap="xs" wrap="nowrap" justify="center" data-testid="timeline-entry" py={2}>
      <Icon size={16} aria-hidden style={{ flexShrink: 0 }} />
      <Text size="sm" c="dimmed" ta="center">
        <Text span fw={600} c="var(--mantine-color-text)">
          {what}
        </Text>
        {' · '}
        {entry.by.name ? `${entry.by.name}, ${when}` : when}
      </Text>
    </Group>
  );
}
