import { useState } from 'react';
import { Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ticketPriorities,
  type StaffBulkAnswer,
  type StaffBulkRequest,
  type StaffOptions,
  type TicketPriority,
} from '@sportello/contracts';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { errorText } from '../../../lib/error-text';
import { staffKeys } from '../api/keys';
import { useStaffT } from '../i18n';

const NONE = '';

/**
 * The inbox's bulk actions (issue 28): the selected tickets assigned, moved to a status, given a
 * priority or a tag, or closed, each ticket on its own; then what was done and, per ticket, what was
 * not and why (a ticket that changed since the list was read is left alone).
 */
export function BulkBar({
  company,
  tickets,
  options,
  onClear,
}: {
  company: string;
  /** The selected tickets, each with the last activity it showed when selected. */
  tickets: { id: number; ticketNumber: string; seen: string }[];
  options: StaffOptions | undefined;
  onClear: () => void;
}) {
  const { t } = useStaffT();
  const qc = useQueryClient();
  const [tag, setTag] = useState('');
  const [answer, setAnswer] = useState<StaffBulkAnswer | null>(null);
  const run = useMutation({
    mutationFn: (change: StaffBulkRequest['change']) =>
      call(staffDeskRoutes.bulk, {
        params: { company },
        body: { tickets: tickets.map((i) => ({ id: i.id, seen: i.seen })), change },
      }),
    onSuccess: (a) => {
      setAnswer(a);
      void qc.invalidateQueries({ queryKey: staffKeys.portal(company) });
    },
  });
  const numberOf = new Map(tickets.map((i) => [i.id, i.ticketNumber]));
  const disabled = run.isPending || tickets.length === 0;
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      component="section"
      aria-label={t('bulk.title')}
      data-testid="bulk-bar"
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600} size="sm" data-testid="bulk-count">
            {t('bulk.selected', { count: tickets.length })}
          </Text>
          <Button variant="subtle" size="xs" onClick={onClear}>
            {t('bulk.clear')}
          </Button>
        </Group>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label={t('inbox.assignee')}
            placeholder={t('bulk.choose')}
            data={[
              { value: NONE, label: t('inbox.unassigned') },
              ...(options?.agents ?? []).map((a) => ({ value: String(a.id), label: a.displayName })),
            ]}
            value={null}
            disabled={disabled}
            onChange={(v) => v !== null && run.mutate({ assigneeId: v === NONE ? null : Number(v) })}
            comboboxProps={{ withinPortal: true }}
            w={180}
            data-testid="bulk-assignee"
          />
          <Select
            label={t('inbox.step')}
            placeholder={t('bulk.choose')}
            data={(options?.steps ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
            value={null}
            disabled={disabled}
            onChange={(v) => v && run.mutate({ stepId: Number(v) })}
            comboboxProps={{ withinPortal: true }}
            w={160}
            data-testid="bulk-step"
          />
          <Select
            label={t('inbox.priority')}
            placeholder={t('bulk.choose')}
            data={[...ticketPriorities].reverse().map((p) => ({ value: p, label: t(`priority.${p}`) }))}
            value={null}
            disabled={disabled}
            onChange={(v) => v && run.mutate({ priority: v as TicketPriority })}
            comboboxProps={{ withinPortal: true }}
            w={140}
            data-testid="bulk-priority"
          />
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (tag.trim()) run.mutate({ addTags: [tag.trim()] });
            }}
          >
            <Group gap={4} align="flex-end" wrap="nowrap">
              <TextInput
                label={t('bulk.addTag')}
                value={tag}
                maxLength={60}
                list="bulk-tags"
                onChange={(e) => setTag(e.currentTarget.value)}
                disabled={disabled}
                w={150}
              />
              <datalist id="bulk-tags">
                {(options?.ticketTags ?? []).map((g) => (
                  <option key={g.id} value={g.name} />
                ))}
              </datalist>
              <Button type="submit" variant="default" disabled={disabled || !tag.trim()}>
                {t('bulk.add')}
              </Button>
            </Group>
          </form>
          <Button
            color="red.9"
            disabled={disabled}
            loading={run.isPending}
            onClick={() => run.mutate({ close: true })}
            data-testid="bulk-close"
          >
            {t('bulk.close')}
          </Button>
        </Group>
        <div role="status" aria-live="polite" data-testid="bulk-result">
          {run.isError && (
            <Text size="sm" c="red.9">
              {errorText(run.error, t)}
            </Text>
          )}
          {answer && (
            <>
              <Text size="sm">{t('bulk.done', { done: answer.done, failed: answer.failed })}</Text>
              {answer.results
                .filter((r) => !r.ok)
                .map((r) => (
                  <Text size="sm" c="red.9" key={r.id}>
                    {numberOf.get(r.id) ?? `#${r.id}`}:{' '}
                    {r.code === 'changed_meanwhile' ? t('bulk.changedMeanwhile') : (r.message ?? r.code)}
                  </Text>
                ))}
            </>
          )}
        </div>
      </Stack>
    </Paper>
  );
}
