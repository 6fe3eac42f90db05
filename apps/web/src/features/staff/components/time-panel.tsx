import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { TIME_NOTE_MAX } from '@sportello/contracts/staff-time-limits';
import { errorText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { hoursOf, useLogTime, useTicketTime } from '../api/merge';
import { useStaffT } from '../i18n';
import { NO_TIME, TimeSpentField, timeOf, type TimeSpentValue } from './time-spent-field';

/**
 * Time spent on the ticket (issue 28): the total and the billable part, the company's hour banks beside
 * them (the back office's balance, which it draws down from the events: the desk never changes it),
 * the last entries, and time logged without a comment.
 */
export function TimePanel({ company, ticketId }: { company: string; ticketId: number }) {
  const { t } = useStaffT();
  const time = useTicketTime(company, ticketId);
  const log = useLogTime(company, ticketId);
  const [value, setValue] = useState<TimeSpentValue>(NO_TIME);
  const [note, setNote] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const data = time.data;

  const onLog = () => {
    const spent = timeOf(value);
    if (!spent) {
      setStatus(t('time.needMinutes'));
      return;
    }
    log.mutate(
      { ...spent, ...(note.trim() && { note: note.trim() }) },
      {
        onSuccess: () => {
          setValue(NO_TIME);
          setNote('');
          setStatus(t('time.logged'));
        },
        onError: (e) => setStatus(t('time.failed', { reason: errorText(e, t) })),
      },
    );
  };

  return (
    <Paper component="section" withBorder p="md" aria-labelledby="time-title" data-testid="time-panel">
      <Stack gap="sm">
        <Title order={2} size="h4" id="time-title">
          <Group gap={6} component="span">
            <IconClock size={18} aria-hidden />
            {t('time.title')}
          </Group>
        </Title>
        {time.isError && (
          <Alert color="red" variant="light">
            {errorText(time.error, t)}
          </Alert>
        )}
        {data && (
          <Text size="sm" data-testid="time-sums">
            {t('time.sums', { total: hoursOf(data.totalMinutes), billable: hoursOf(data.billableMinutes) })}
          </Text>
        )}
        {data?.hourBanks.map((b) => (
          <Text
            key={b.contractId}
            size="sm"
            c={b.balanceMinutes - data.billableMinutes < 0 ? 'red.8' : undefined}
            data-testid="hour-bank"
          >
            {t('time.bank', {
              name: b.name,
              balance: hoursOf(b.balanceMinutes),
              hours: hoursOf(b.hoursMinutes),
              after: hoursOf(b.balanceMinutes - data.billableMinutes),
            })}
          </Text>
        ))}
        {data && data.hourBanks.length > 0 && (
          <Text size="xs" c="dimmed">
            {t('time.bankHint')}
          </Text>
        )}
        {data && data.entries.length > 0 && (
          <Stack gap={2} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            {data.entries.slice(0, 5).map((e) => (
              <Text key={e.id} component="li" size="xs" c="dimmed">
                {hoursOf(e.minutes)} · {e.billable ? t('time.billable') : t('time.notBillable')} · {e.by} ·{' '}
                {formatDateTime(e.loggedAt)}
                {e.note ? ` · ${e.note}` : ''}
              </Text>
            ))}
          </Stack>
        )}
        <TimeSpentField value={value} onChange={setValue} disabled={log.isPending} />
        <TextInput
          label={t('time.note')}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={TIME_NOTE_MAX}
          size="xs"
          disabled={log.isPending}
        />
        <Group justify="space-between" gap="xs">
          <Text size="xs" role="status" aria-live="polite" data-testid="time-status">
            {status}
          </Text>
          <Button size="xs" variant="light" onClick={onLog} loading={log.isPending} data-testid="time-log">
            {t('time.log')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
