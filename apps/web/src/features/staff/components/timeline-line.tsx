import { Text } from '@mantine/core';
import type { StaffTimelineEntry } from '@sportello/contracts';
import { formatDateTime } from '../../../lib/format';
import { useStaffT } from '../i18n';
import classes from './ticket.module.css';

/**
 * A change in the conversation: "Marco Ferri changed the status: Nuovo → In lavorazione". Whether the
 * customer sees it is said in words (public changes are part of their conversation).
 */
export function TimelineLine({ entry }: { entry: StaffTimelineEntry }) {
  const { t } = useStaffT();
  const none = t('timeline.none');
  // A rating: `to` is the rating (its id) and the customer's comment (its name).
  const values =
    entry.kind === 'rated'
      ? { rating: entry.to?.id ?? 0, comment: entry.to?.name ?? '' }
      : { from: entry.from?.name ?? none, to: entry.to?.name ?? none };
  const rated = entry.kind === 'rated' && values.comment ? 'timeline.ratedWithComment' : null;
  return (
    <div className={classes.change} data-testid="timeline-entry" data-public={entry.public || undefined}>
      <Text size="sm">
        <strong>{entry.by.kind === 'system' ? t('timeline.system') : entry.by.name}</strong>{' '}
        {t(rated ?? `timeline.${entry.kind}`, values)}
        <Text span size="xs" c="dimmed">
          {' · '}
          <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
          {' · '}
          {entry.public ? t('timeline.public') : t('timeline.staffOnly')}
        </Text>
      </Text>
    </div>
  );
}
