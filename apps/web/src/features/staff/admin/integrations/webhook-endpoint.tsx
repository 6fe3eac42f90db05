import { useState } from 'react';
import {
  Badge,
  Button,
  Divider,
  Group,
  MultiSelect,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  eventTypes,
  webhookEndpointUpdateSchema,
  webhookReplaySchema,
  WEBHOOK_ROTATION_OVERLAP_HOURS,
  type EventType,
  type WebhookEndpoint,
  type WebhookEndpointUpdate,
} from '@sportello/contracts';
import { errorText } from '../../../../lib/error-text';
import { formatDateTime } from '../../../../lib/format';
import { ListEmpty, ListError, ListLoading } from '../../../../ui/list-states';
import {
  useRemoveWebhook,
  useReplayWebhook,
  useRotateWebhook,
  useUpdateWebhook,
  useWebhookAttempts,
} from '../api/integrations';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { TableScroll } from '../table-scroll';
import { creatorText } from './creator';
import { SecretOnce } from './secret-once';
import { badgeVars } from '../../components/badge-vars';
import { validateWith } from '../components/contract-form';

const frame = { border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 } as const;

/**
 * One webhook endpoint: its address, event types and state; its delivery log; and its editor (address,
 * event types, enabled; a new signing secret with the overlap explained; a replay from a feed cursor;
 * removal).
 */
export function WebhookEndpointCard({
  endpoint: w,
  onChanged,
}: {
  endpoint: WebhookEndpoint;
  onChanged: () => void;
}) {
  const { t } = useStaffT();
  const [panel, setPanel] = useState<'log' | 'edit' | null>(null);
  const toggle = (p: 'log' | 'edit') => setPanel(panel === p ? null : p);
  return (
    <Stack gap={6} p="sm" style={frame} data-testid={`webhook-${w.id}`}>
      <Group justify="space-between" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={500} style={{ wordBreak: 'break-all' }}>
            {w.url}
          </Text>
          <Text size="xs" c="dimmed">
            {w.eventTypes.length === 0 ? t('access.hooks.allEvents') : w.eventTypes.join(', ')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('access.hooks.createdBy', { who: creatorText(w.createdBy, t) })}
          </Text>
          {!w.enabled && (
            <Group gap={6} wrap="wrap">
              <Badge color="red" variant="light" vars={badgeVars('red')}>
                {t('access.hooks.disabled')}
              </Badge>
              {w.disabledReason && (
                <Text size="xs" c="dimmed">
                  {w.disabledReason}
                </Text>
              )}
            </Group>
          )}
          {w.previousValidUntil && (
            <Text size="xs" c="dimmed">
              {t('access.hooks.oldSecretUntil', { until: formatDateTime(w.previousValidUntil) })}
            </Text>
          )}
        </Stack>
        <Group gap="sm">
          <Button size="xs" variant="default" onClick={() => toggle('log')} aria-expanded={panel === 'log'}>
            {t('access.hooks.log')}
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => toggle('edit')}
            aria-expanded={panel === 'edit'}
            aria-label={t('access.hooks.editOf', { url: w.url })}
          >
            {t('access.hooks.edit')}
          </Button>
        </Group>
      </Group>
      {panel === 'log' && <DeliveryLog endpointId={w.id} />}
      {panel === 'edit' && <EndpointEditor endpoint={w} onChanged={onChanged} />}
    </Stack>
  );
}

function DeliveryLog({ endpointId }: { endpointId: number }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const attempts = useWebhookAttempts(company, endpointId);
  if (attempts.isPending) return <ListLoading />;
  if (attempts.isError)
    return <ListError onRetry={() => void attempts.refetch()} message={errorText(attempts.error, t)} />;
  if (attempts.data.attempts.length === 0)
    return <ListEmpty text={t('access.hooks.noAttempts', { pending: attempts.data.pending })} />;
  return (
    <TableScroll minWidth={560}>
      <Table verticalSpacing={4} data-testid="delivery-log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('access.hooks.when')}</Table.Th>
            <Table.Th>{t('access.hooks.event')}</Table.Th>
            <Table.Th>{t('access.hooks.status')}</Table.Th>
            <Table.Th>{t('access.hooks.latency')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {attempts.data.attempts.map((a) => (
            <Table.Tr key={`${a.eventId}-${a.attemptedAt}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(a.attemptedAt)}</Table.Td>
              <Table.Td>{a.eventType}</Table.Td>
              <Table.Td>
                <Badge
                  variant="light"
                  color={a.status !== null && a.status >= 200 && a.status < 300 ? 'teal' : 'red'}
                  style={{ maxWidth: 360 }}
                >
                  {a.status ?? a.error ?? '—'}
                </Badge>
              </Table.Td>
              <Table.Td>{a.latencyMs} ms</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}

type Draft = { url: string; types: string[]; enabled: boolean };

/** The fields that differ from the stored endpoint (nothing: no request). */
function changesOf(w: WebhookEndpoint, draft: Draft): WebhookEndpointUpdate {
  const sameTypes =
    draft.types.length === w.eventTypes.length &&
    draft.types.every((x) => w.eventTypes.includes(x as EventType));
  return {
    ...(draft.url.trim() !== w.url ? { url: draft.url.trim() } : {}),
    ...(sameTypes ? {} : { eventTypes: draft.types as EventType[] }),
    ...(draft.enabled !== w.enabled ? { enabled: draft.enabled } : {}),
  };
}

/** The replay's body: a cursor, or none (every event kept). */
const replayBody = (v: { after: string }) => (v.after.trim() ? { after: v.after.trim() } : {});

function EndpointEditor({ endpoint: w, onChanged }: { endpoint: WebhookEndpoint; onChanged: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  // The changed fields, checked with the server's schema of the change (an http(s) address).
  const form = useForm<Draft>({
    initialValues: { url: w.url, types: w.eventTypes, enabled: w.enabled },
    validate: validateWith(
      webhookEndpointUpdateSchema,
      (v: Draft) => changesOf(w, v),
      () => t('access.hooks.badUrl'),
      /^url$/,
    ),
  });
  // The server's own rule for a cursor, checked as it is typed.
  const cursor = useForm({
    initialValues: { after: '' },
    validateInputOnChange: true,
    validate: validateWith(webhookReplaySchema, replayBody, () => t('access.hooks.badCursor')),
  });
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [rotated, setRotated] = useState<{ secret: string; until: string | null } | null>(null);
  const changes = changesOf(w, form.getValues());
  const failed = (e: unknown) => setNote({ ok: false, text: errorText(e, t) });

  const save = useUpdateWebhook(company, w.id, {
    onSuccess: () => {
      setNote({ ok: true, text: t('access.hooks.saved') });
      onChanged();
    },
    onError: failed,
  });
  const rotate = useRotateWebhook(company, w.id, {
    onSuccess: (r) => {
      setRotated({ secret: r.secret, until: r.previousValidUntil });
      setNote(null);
      onChanged();
    },
    onError: failed,
  });
  const replay = useReplayWebhook(company, w.id, {
    onSuccess: (r) => setNote({ ok: true, text: t('access.hooks.replayed', { count: r.queued }) }),
    onError: failed,
  });
  const remove = useRemoveWebhook(company, w.id, {
    onSuccess: onChanged,
    onError: failed,
  });
  const cursorOk = !cursor.errors.after;

  return (
    <Stack gap="sm" pt="xs">
      <Divider />
      <form onSubmit={form.onSubmit((values) => save.mutate(changesOf(w, values)))} noValidate>
        <Stack gap="xs">
          <TextInput
            required
            type="url"
            label={t('access.hooks.url')}
            maxLength={2000}
            {...form.getInputProps('url')}
          />
          <MultiSelect
            label={t('access.hooks.eventTypes')}
            description={t('access.hooks.eventTypesHint')}
            placeholder={form.getValues().types.length === 0 ? t('access.hooks.allEvents') : undefined}
            data={[...eventTypes]}
            {...form.getInputProps('types')}
            searchable
            clearable
          />
          <Switch
            label={t('access.hooks.enabled')}
            {...form.getInputProps('enabled', { type: 'checkbox' })}
          />
          <Group>
            <Button type="submit" loading={save.isPending} disabled={Object.keys(changes).length === 0}>
              {t('access.hooks.save')}
            </Button>
          </Group>
        </Stack>
      </form>
      {note && (
        <Text size="sm" c={note.ok ? 'teal' : 'red'} role={note.ok ? 'status' : 'alert'}>
          {note.text}
        </Text>
      )}

      <Divider />
      <Title order={3} size="h5">
        {t('access.hooks.secretTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('access.hooks.rotateHint', { hours: WEBHOOK_ROTATION_OVERLAP_HOURS })}
      </Text>
      <Group>
        <Button size="xs" variant="default" loading={rotate.isPending} onClick={() => rotate.mutate()}>
          {t('access.hooks.rotate')}
        </Button>
      </Group>
      {rotated && (
        <SecretOnce
          label={t('access.hooks.newSecret')}
          secret={rotated.secret}
          onClose={() => setRotated(null)}
        >
          <Text size="sm" data-testid="rotation-overlap">
            {rotated.until
              ? t('access.hooks.overlap', { until: formatDateTime(rotated.until) })
              : t('access.hooks.noOverlap')}
          </Text>
        </SecretOnce>
      )}

      <Divider />
      <Title order={3} size="h5">
        {t('access.hooks.replayTitle')}
      </Title>
      <form onSubmit={cursor.onSubmit((values) => replay.mutate(replayBody(values).after))} noValidate>
        <Stack gap="xs">
          <TextInput
            label={t('access.hooks.cursor')}
            description={t('access.hooks.cursorHint')}
            placeholder="12345-678"
            {...cursor.getInputProps('after')}
          />
          <Group>
            <Button type="submit" size="xs" variant="default" loading={replay.isPending} disabled={!cursorOk}>
              {t('access.hooks.replay')}
            </Button>
          </Group>
        </Stack>
      </form>

      <Divider />
      <Group>
        <Button
          size="xs"
          color="red"
          variant="light"
          loading={remove.isPending}
          onClick={() => {
            if (window.confirm(t('access.hooks.removeConfirm', { url: w.url }))) remove.mutate();
          }}
        >
          {t('access.hooks.remove')}
        </Button>
      </Group>
    </Stack>
  );
}
