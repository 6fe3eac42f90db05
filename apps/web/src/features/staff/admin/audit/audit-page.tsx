import { useMemo, useState } from 'react';
import {
  Badge,
  Button,
  Code,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { auditActorTypes, entityActions, entityKinds, type AuditEntry } from '@sportello/contracts';
import { auditRoutes } from '@sportello/contracts/route-refs';
import { useSearchParams } from 'react-router';
import { downloadFrom } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { formatDateTime } from '../../../../lib/format';
import { usePageTitle } from '../../../../ui/page-title';
import { useAuditLog, type AuditFilters } from '../api/audit';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { TableScroll } from '../table-scroll';
import { QueryStates } from '../query-states';

/** The filters of the log, kept in the URL so a filtered view can be linked and reloaded. */
function filtersOf(params: URLSearchParams): AuditFilters {
  const pick = <T extends string>(name: string, allowed: readonly T[]) => {
    const v = params.get(name);
    return v && (allowed as readonly string[]).includes(v) ? (v as T) : undefined;
  };
  const day = (name: string) => {
    const v = params.get(name);
    return v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined;
  };
  const from = day('from');
  const to = day('to');
  return {
    entity: pick('entity', entityKinds),
    action: pick('action', entityActions),
    actorType: pick('actor', auditActorTypes),
    entityId: params.get('id')?.trim() || undefined,
    // Whole days in UTC: `to` is the last day shown, so the query's exclusive end is the next midnight.
    from: from ? `${from}T00:00:00Z` : undefined,
    to: to ? new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000).toISOString() : undefined,
  };
}

/**
 * The audit log (issue 14 item 6): every change by a staff admin or an API key, newest first, with who,
 * when, what, and the entity before and after; filterable, and exported as CSV with the same filters.
 */
export default function AuditPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersOf(params), [params]);
  const [open, setOpen] = useState<number | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  usePageTitle(t('admin.sections.audit'));
  const query = useAuditLog(company, filters);
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const exportCsv = () => {
    setExportError(null);
    downloadFrom(
      auditRoutes.export,
      { params: { company }, query: filters },
      `audit-${company}.csv`,
      'text/csv',
    ).catch((e: unknown) => setExportError(errorText(e, t)));
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end" wrap="wrap">
        <Title order={1} size="h2">
          {t('admin.sections.audit')}
        </Title>
        <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={exportCsv}>
          {t('audit.export')}
        </Button>
      </Group>
      {exportError && (
        <Text c="red" size="sm" role="alert">
          {exportError}
        </Text>
      )}
      <Group gap="sm" align="end" wrap="wrap">
        <NativeSelect
          label={t('audit.entity')}
          value={filters.entity ?? ''}
          onChange={(e) => set('entity', e.currentTarget.value)}
          data={[
            { value: '', label: t('audit.any') },
            ...entityKinds.map((k) => ({ value: k, label: t(`audit.entities.${k}`) })),
          ]}
        />
        <NativeSelect
          label={t('audit.action')}
          value={filters.action ?? ''}
          onChange={(e) => set('action', e.currentTarget.value)}
          data={[
            { value: '', label: t('audit.any') },
            ...entityActions.map((a) => ({ value: a, label: t(`audit.actions.${a}`) })),
          ]}
        />
        <NativeSelect
          label={t('audit.actor')}
          value={filters.actorType ?? ''}
          onChange={(e) => set('actor', e.currentTarget.value)}
          data={[
            { value: '', label: t('audit.any') },
            ...auditActorTypes.map((a) => ({ value: a, label: t(`audit.actors.${a}`) })),
          ]}
        />
        <TextInput
          label={t('audit.entityId')}
          w={120}
          defaultValue={filters.entityId ?? ''}
          onBlur={(e) => set('id', e.currentTarget.value.trim())}
          onKeyDown={(e) => {
            if (e.key === 'Enter') set('id', e.currentTarget.value.trim());
          }}
        />
        <TextInput
          type="date"
          label={t('audit.from')}
          value={params.get('from') ?? ''}
          onChange={(e) => set('from', e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label={t('audit.to')}
          value={params.get('to') ?? ''}
          onChange={(e) => set('to', e.currentTarget.value)}
        />
      </Group>
      <QueryStates query={query} isEmpty={() => items.length === 0} empty={t('audit.empty')}>
        {() => (
          <TableScroll minWidth={640}>
            <Table verticalSpacing="xs" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('audit.when')}</Table.Th>
                  <Table.Th>{t('audit.actor')}</Table.Th>
                  <Table.Th>{t('audit.action')}</Table.Th>
                  <Table.Th>{t('audit.entity')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((e) => (
                  <AuditRow
                    key={e.id}
                    entry={e}
                    open={open === e.id}
                    onToggle={() => setOpen(open === e.id ? null : e.id)}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
      {query.hasNextPage && (
        <Button
          variant="default"
          w="fit-content"
          loading={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {t('audit.more')}
        </Button>
      )}
    </Stack>
  );
}

function AuditRow({ entry, open, onToggle }: { entry: AuditEntry; open: boolean; onToggle: () => void }) {
  const { t } = useStaffT();
  const kind = (entityKinds as readonly string[]).includes(entry.entity)
    ? t(`audit.entities.${entry.entity}`)
    : entry.entity;
  const action = (entityActions as readonly string[]).includes(entry.action)
    ? t(`audit.actions.${entry.action}`)
    : entry.action;
  return (
    <>
      <Table.Tr>
        <Table.Td style={{ whiteSpace: 'nowrap' }}>
          <UnstyledButton onClick={onToggle} aria-expanded={open} td="underline">
            {formatDateTime(entry.occurredAt)}
          </UnstyledButton>
        </Table.Td>
        <Table.Td>
          <Group gap={6} wrap="nowrap">
            <Badge variant="light" color={entry.actor.type === 'staff' ? 'blue' : 'grape'} size="sm">
              {t(`audit.actors.${entry.actor.type}`)}
            </Badge>
            <Text size="sm">{entry.actor.name}</Text>
          </Group>
        </Table.Td>
        <Table.Td>{action}</Table.Td>
        <Table.Td>
          {kind}{' '}
          <Text span c="dimmed" size="sm">
            #{entry.entityId}
          </Text>
        </Table.Td>
      </Table.Tr>
      {open && (
        <Table.Tr>
          <Table.Td colSpan={4}>
            <Group align="start" grow wrap="wrap">
              <Stack gap={4} miw={240}>
                <Text size="xs" fw={700}>
                  {t('audit.before')}
                </Text>
                <Code block>{entry.before === null ? '—' : JSON.stringify(entry.before, null, 2)}</Code>
              </Stack>
              <Stack gap={4} miw={240}>
                <Text size="xs" fw={700}>
                  {t('audit.after')}
                </Text>
                <Code block>{entry.after === null ? '—' : JSON.stringify(entry.after, null, 2)}</Code>
              </Stack>
            </Group>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}
