import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { CompanyPicker } from '../company-picker';
import { type ActivityContractEntity, type SubscriptionEntity } from '@sportello/contracts';
import { catalogAdminRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { formatDate, formatEuro, formatNumber } from '../../../../lib/format';
import { portalDayOf, todayInPortal } from '../../../../lib/zone-days';
import { usePageTitle } from '../../../../ui/page-title';
import { staffKeys } from '../../api/keys';
import { useDesk } from '../../desk-context';
import { EditorCard } from '../editor-card';
import { useStaffT } from '../../i18n';
import { TableScroll } from '../table-scroll';
import { ServiceContractsPanel } from './service-contracts-panel';
import { TagsPanel } from './tags-panel';
import { QueryStates } from '../query-states';

/**
 * Contracts (issue 14 item 2): a company's hour and unit contracts with their activities, its service
 * contracts with their packages (also deleted here) and its subscriptions (recurring advances): list,
 * create, edit. The company is kept in the URL (`?company=`). Below, the portal's tags that service
 * contracts pick (for every company).
 */
export default function ContractsAdminPage() {
  const { t } = useStaffT();
  const [params, setParams] = useSearchParams();
  const companyId = /^\d+$/.test(params.get('company') ?? '') ? Number(params.get('company')) : null;
  usePageTitle(t('admin.sections.contracts'));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.sections.contracts')}
      </Title>
      <CompanyPicker
        value={companyId}
        onChange={(id) => setParams(id === null ? {} : { company: String(id) }, { replace: true })}
      />
      {companyId !== null && (
        <>
          <ContractsPanel companyId={companyId} />
          <ServiceContractsPanel companyId={companyId} />
          <SubscriptionsPanel companyId={companyId} />
        </>
      )}
      <TagsPanel />
    </Stack>
  );
}

type Activity = ActivityContractEntity['activities'][number];
type ContractForm = Omit<ActivityContractEntity, 'id' | 'companyId' | 'activities'> & {
  activities: Omit<Activity, 'reportFileId'>[];
};

function ContractsPanel({ companyId }: { companyId: number }) {
  const { t, i18n } = useStaffT();
  const { company } = useDesk();
  const [editing, setEditing] = useState<ActivityContractEntity | 'new' | null>(null);
  const key = [...staffKeys.portal(company), 'admin', 'activity-contracts', companyId] as const;
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      call(catalogAdminRoutes.activityContracts, { params: { company }, query: { companyId }, signal }),
  });
  if (editing)
    return (
      <ContractEditor
        companyId={companyId}
        contract={editing === 'new' ? null : editing}
        onDone={() => setEditing(null)}
      />
    );
  const amountOf = (c: ActivityContractEntity) => {
    const n = c.activityContractType === 0 ? c.hoursAmount : c.unitAmount;
    return n === null ? '—' : formatNumber(n, i18n.language);
  };
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('catalog.contracts.hourContracts')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          {t('catalog.contracts.newContract')}
        </Button>
      </Group>
      <QueryStates
        query={list}
        isEmpty={(data) => data.items.length === 0}
        empty={t('catalog.contracts.noContracts')}
      >
        {(data) => (
          <TableScroll minWidth={560}>
            <Table verticalSpacing="xs" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('catalog.contracts.name')}</Table.Th>
                  <Table.Th>{t('catalog.contracts.start')}</Table.Th>
                  <Table.Th>{t('catalog.contracts.end')}</Table.Th>
                  <Table.Th>{t('catalog.contracts.amount')}</Table.Th>
                  <Table.Th>{t('catalog.contracts.activities')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>{c.name}</Table.Td>
                    <Table.Td>{formatDate(c.start)}</Table.Td>
                    <Table.Td>{c.end ? formatDate(c.end) : '—'}</Table.Td>
                    <Table.Td>
                      {amountOf(c)}{' '}
                      <Badge variant="outline" color="gray.7" size="sm">
                        {t(`catalog.contracts.types.${c.activityContractType}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{c.activities.length}</Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="default" onClick={() => setEditing(c)}>
                        {t('catalog.contracts.edit')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
    </Stack>
  );
}

function ContractEditor({
  companyId,
  contract,
  onDone,
}: {
  companyId: number;
  contract: ActivityContractEntity | null;
  onDone: () => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const client = useQueryClient();
  const [form, setForm] = useState<ContractForm>(() =>
    contract
      ? {
          name: contract.name,
          start: portalDayOf(contract.start),
          end: portalDayOf(contract.end) || null,
          activityContractType: contract.activityContractType,
          hoursAmount: contract.hoursAmount,
          unitAmount: contract.unitAmount,
          activities: contract.activities.map(({ reportFileId: _r, ...a }) => ({
            ...a,
            start: portalDayOf(a.start),
          })),
        }
      : {
          name: '',
          start: todayInPortal(),
          end: null,
          activityContractType: 0,
          hoursAmount: null,
          unitAmount: null,
          activities: [],
        },
  );
  const set = <K extends keyof ContractForm>(k: K, v: ContractForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const setActivity = (i: number, patch: Partial<ContractForm['activities'][number]>) =>
    setForm((f) => ({ ...f, activities: f.activities.map((a, j) => (j === i ? { ...a, ...patch } : a)) }));
  const hours = form.activityContractType === 0;
  const save = useMutation({
    mutationFn: () => {
      const body = {
        ...form,
        end: form.end || null,
        activities: form.activities.map((a) => ({ ...a, units: hours ? null : a.units })),
      };
      return contract
        ? call(entityStaffRoutes.updateActivityContract, {
            params: { company, contractid: contract.id },
            body,
          })
        : call(entityStaffRoutes.createActivityContract, {
            params: { company },
            body: { ...body, companyId },
          });
    },
    onSuccess: async () => {
      await client.invalidateQueries({
        queryKey: [...staffKeys.portal(company), 'admin', 'activity-contracts', companyId],
      });
      onDone();
    },
  });
  const nextActivityId = () => Math.max(0, ...form.activities.map((a) => a.id)) + 1;
  return (
    <EditorCard
      title={contract ? contract.name : t('catalog.contracts.newContract')}
      onSave={() => save.mutate()}
      onCancel={onDone}
      error={save.isError ? save.error : null}
      saving={save.isPending}
    >
      <TextInput
        label={t('catalog.contracts.name')}
        required
        value={form.name}
        onChange={(e) => set('name', e.currentTarget.value)}
      />
      <Group grow align="start" wrap="wrap">
        <TextInput
          type="date"
          label={t('catalog.contracts.start')}
          required
          value={form.start}
          onChange={(e) => set('start', e.currentTarget.value)}
          miw={150}
        />
        <TextInput
          type="date"
          label={t('catalog.contracts.end')}
          value={form.end ?? ''}
          onChange={(e) => set('end', e.currentTarget.value || null)}
          miw={150}
        />
        <NativeSelect
          label={t('catalog.contracts.type')}
          value={String(form.activityContractType)}
          onChange={(e) => set('activityContractType', e.currentTarget.value === '1' ? 1 : 0)}
          data={[
            { value: '0', label: t('catalog.contracts.types.0') },
            { value: '1', label: t('catalog.contracts.types.1') },
          ]}
          miw={120}
        />
        <NumberInput
          label={hours ? t('catalog.contracts.hours') : t('catalog.contracts.units')}
          min={0}
          decimalScale={2}
          value={(hours ? form.hoursAmount : form.unitAmount) ?? ''}
          onChange={(v) => {
            const n = v === '' ? null : Number(v);
            if (hours) set('hoursAmount', n);
            else set('unitAmount', n);
          }}
          miw={120}
        />
      </Group>
      <Text fw={600} size="sm">
        {t('catalog.contracts.activities')}
      </Text>
      {form.activities.map((a, i) => (
        <Group key={a.id} gap="xs" align="end" wrap="wrap">
          <TextInput
            label={t('catalog.contracts.activityType')}
            required
            value={a.activityTypeName}
            onChange={(e) => setActivity(i, { activityTypeName: e.currentTarget.value })}
            miw={180}
          />
          <TextInput
            type="date"
            label={t('catalog.contracts.date')}
            required
            value={portalDayOf(a.start)}
            onChange={(e) => setActivity(i, { start: e.currentTarget.value })}
          />
          {hours ? (
            <NumberInput
              label={t('catalog.contracts.durationMinutes')}
              min={0}
              value={a.durationMinutes}
              onChange={(v) => setActivity(i, { durationMinutes: Number(v) || 0 })}
              w={110}
            />
          ) : (
            <NumberInput
              label={t('catalog.contracts.units')}
              min={0}
              decimalScale={2}
              value={a.units ?? ''}
              onChange={(v) => setActivity(i, { units: v === '' ? null : Number(v) })}
              w={110}
            />
          )}
          <TextInput
            label={t('catalog.contracts.assignedUser')}
            value={a.assignedUser}
            onChange={(e) => setActivity(i, { assignedUser: e.currentTarget.value })}
            miw={140}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            mb={4}
            aria-label={t('catalog.contracts.removeActivity')}
            onClick={() =>
              set(
                'activities',
                form.activities.filter((_, j) => j !== i),
              )
            }
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      <Button
        variant="subtle"
        w="fit-content"
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={() =>
          set('activities', [
            ...form.activities,
            {
              id: nextActivityId(),
              activityTypeName: '',
              start: form.start,
              durationMinutes: 60,
              units: null,
              assignedUser: '',
              addressType: 0,
              activityLocation_Address: null,
            },
          ])
        }
      >
        {t('catalog.contracts.addActivity')}
      </Button>
    </EditorCard>
  );
}

type SubscriptionForm = Omit<SubscriptionEntity, 'id' | 'companyId'>;

function SubscriptionsPanel({ companyId }: { companyId: number }) {
  const { t, i18n } = useStaffT();
  const { company } = useDesk();
  const [editing, setEditing] = useState<SubscriptionEntity | 'new' | null>(null);
  const key = [...staffKeys.portal(company), 'admin', 'subscriptions', companyId] as const;
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      call(catalogAdminRoutes.subscriptions, { params: { company }, query: { companyId }, signal }),
  });
  if (editing)
    return (
      <SubscriptionEditor
        companyId={companyId}
        subscription={editing === 'new' ? null : editing}
        onDone={() => setEditing(null)}
      />
    );
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('catalog.contracts.subscriptions')}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          {t('catalog.contracts.newSubscription')}
        </Button>
      </Group>
      <QueryStates
        query={list}
        isEmpty={(data) => data.items.length === 0}
        empty={t('catalog.contracts.noSubscriptions')}
      >
        {(data) => (
          <TableScroll minWidth={560}>
            <Table verticalSpacing="xs" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('catalog.contracts.code')}</Table.Th>
                  <Table.Th>{t('catalog.contracts.description')}</Table.Th>
                  <Table.Th>{t('catalog.contracts.taxedTotal')}</Table.Th>
                  <Table.Th>{t('catalog.contracts.advanceDate')}</Table.Th>
                  <Table.Th>{t('catalog.contracts.recurrence')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>{s.code}</Table.Td>
                    <Table.Td>{s.description}</Table.Td>
                    <Table.Td>{formatEuro(s.taxedTotal, i18n.language)}</Table.Td>
                    <Table.Td>{formatDate(s.advanceDate)}</Table.Td>
                    <Table.Td>{t(`catalog.contracts.recurrences.${s.trigger.recurrenceType}`)}</Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="default" onClick={() => setEditing(s)}>
                        {t('catalog.contracts.edit')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
    </Stack>
  );
}

function SubscriptionEditor({
  companyId,
  subscription,
  onDone,
}: {
  companyId: number;
  subscription: SubscriptionEntity | null;
  onDone: () => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const client = useQueryClient();
  const [form, setForm] = useState<SubscriptionForm>(() =>
    subscription
      ? { ...subscription, advanceDate: portalDayOf(subscription.advanceDate) }
      : {
          code: '',
          description: '',
          quantity: 1,
          taxedTotal: 0,
          advanceDate: todayInPortal(),
          trigger: {
            recurrenceType: 20,
            frequencyWeek: null,
            recurrenceDayOfWeek: null,
            frequencyMonth: 1,
            recurrenceDay: 1,
            recurrenceMonth: null,
          },
        },
  );
  const set = <K extends keyof SubscriptionForm>(k: K, v: SubscriptionForm[K]) =>
    setForm((f) => ({ ...f, [k]: v }));
  const setTrigger = (patch: Partial<SubscriptionForm['trigger']>) =>
    setForm((f) => ({ ...f, trigger: { ...f.trigger, ...patch } }));
  const save = useMutation({
    mutationFn: () => {
      const { id: _i, companyId: _c, ...body } = { id: 0, companyId: 0, ...form };
      return subscription
        ? call(entityStaffRoutes.updateSubscription, {
            params: { company, subscriptionid: subscription.id },
            body,
          })
        : call(entityStaffRoutes.createSubscription, { params: { company }, body: { ...body, companyId } });
    },
    onSuccess: async () => {
      await client.invalidateQueries({
        queryKey: [...staffKeys.portal(company), 'admin', 'subscriptions', companyId],
      });
      onDone();
    },
  });
  const num = (v: string | number) => (v === '' ? null : Number(v));
  const type = form.trigger.recurrenceType;
  return (
    <EditorCard
      title={subscription ? subscription.code : t('catalog.contracts.newSubscription')}
      onSave={() => save.mutate()}
      onCancel={onDone}
      error={save.isError ? save.error : null}
      saving={save.isPending}
    >
      <Group grow align="start" wrap="wrap">
        <TextInput
          label={t('catalog.contracts.code')}
          value={form.code}
          onChange={(e) => set('code', e.currentTarget.value)}
          miw={140}
        />
        <TextInput
          label={t('catalog.contracts.description')}
          value={form.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          miw={220}
        />
      </Group>
      <Group grow align="start" wrap="wrap">
        <NumberInput
          label={t('catalog.contracts.quantity')}
          decimalScale={2}
          value={form.quantity}
          onChange={(v) => set('quantity', Number(v) || 0)}
          miw={110}
        />
        <NumberInput
          label={t('catalog.contracts.taxedTotal')}
          decimalScale={2}
          value={form.taxedTotal}
          onChange={(v) => set('taxedTotal', Number(v) || 0)}
          miw={130}
        />
        <TextInput
          type="date"
          label={t('catalog.contracts.advanceDate')}
          required
          value={form.advanceDate}
          onChange={(e) => set('advanceDate', e.currentTarget.value)}
          miw={150}
        />
      </Group>
      <Group grow align="start" wrap="wrap">
        <NativeSelect
          label={t('catalog.contracts.recurrence')}
          value={String(type)}
          onChange={(e) => setTrigger({ recurrenceType: Number(e.currentTarget.value) as 10 | 20 | 30 })}
          data={(['10', '20', '30'] as const).map((v) => ({
            value: v,
            label: t(`catalog.contracts.recurrences.${v}`),
          }))}
          miw={160}
        />
        {type === 10 && (
          <>
            <NumberInput
              label={t('catalog.contracts.everyWeeks')}
              min={1}
              max={52}
              value={form.trigger.frequencyWeek ?? ''}
              onChange={(v) => setTrigger({ frequencyWeek: num(v) })}
            />
            <NativeSelect
              label={t('catalog.contracts.weekday')}
              value={String(form.trigger.recurrenceDayOfWeek ?? '')}
              onChange={(e) => setTrigger({ recurrenceDayOfWeek: num(e.currentTarget.value) })}
              data={[
                { value: '', label: '—' },
                ...(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const).map((d, i) => ({
                  value: String(i + 1),
                  label: t(`catalog.days.${d}`),
                })),
              ]}
            />
          </>
        )}
        {type === 20 && (
          <NumberInput
            label={t('catalog.contracts.everyMonths')}
            min={1}
            max={120}
            value={form.trigger.frequencyMonth ?? ''}
            onChange={(v) => setTrigger({ frequencyMonth: num(v) })}
          />
        )}
        {(type === 20 || type === 30) && (
          <NumberInput
            label={t('catalog.contracts.day')}
            min={1}
            max={31}
            value={form.trigger.recurrenceDay ?? ''}
            onChange={(v) => setTrigger({ recurrenceDay: num(v) })}
          />
        )}
        {type === 30 && (
          <NumberInput
            label={t('catalog.contracts.month')}
            min={1}
            max={12}
            value={form.trigger.recurrenceMonth ?? ''}
            onChange={(v) => setTrigger({ recurrenceMonth: num(v) })}
          />
        )}
      </Group>
    </EditorCard>
  );
}
