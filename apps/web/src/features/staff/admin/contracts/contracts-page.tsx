import { useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { CompanyPicker } from '../company-picker';
import { type ActivityContractEntity, type SubscriptionEntity } from '@sportello/contracts';
import { formatDate, formatEuro, formatNumber } from '../../../../lib/format';
import { portalDayOf, todayInPortal } from '../../../../lib/zone-days';
import { usePageTitle } from '../../../../ui/page-title';
import { useDesk } from '../../desk-context';
import { EditorCard } from '../editor-card';
import { useStaffT } from '../../i18n';
import { useActivityContracts, useSaveActivityContract } from '../api/activity-contracts';
import { useSaveSubscription, useSubscriptions } from '../api/subscriptions';
import { AdminListEditor } from '../components/admin-list-editor';
import { ServiceContractsPanel } from './service-contracts-panel';
import { TagsPanel } from './tags-panel';

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
  const amountOf = (c: ActivityContractEntity) => {
    const n = c.activityContractType === 0 ? c.hoursAmount : c.unitAmount;
    return n === null ? '—' : formatNumber(n, i18n.language);
  };
  return (
    <AdminListEditor
      title={t('catalog.contracts.hourContracts')}
      newLabel={t('catalog.contracts.newContract')}
      query={useActivityContracts(company, companyId)}
      rows={(data) => data.items}
      rowKey={(c) => c.id}
      minWidth={560}
      empty={t('catalog.contracts.noContracts')}
      columns={[
        { header: t('catalog.contracts.name'), cell: (c) => c.name },
        { header: t('catalog.contracts.start'), cell: (c) => formatDate(c.start) },
        { header: t('catalog.contracts.end'), cell: (c) => (c.end ? formatDate(c.end) : '—') },
        {
          header: t('catalog.contracts.amount'),
          cell: (c) => (
            <>
              {amountOf(c)}{' '}
              <Badge variant="outline" color="gray.7" size="sm">
                {t(`catalog.contracts.types.${c.activityContractType}`)}
              </Badge>
            </>
          ),
        },
        { header: t('catalog.contracts.activities'), cell: (c) => c.activities.length },
        { cell: (_c, act) => <EditButton onClick={act.edit} /> },
      ]}
      editor={(contract, done) => <ContractEditor companyId={companyId} contract={contract} onDone={done} />}
    />
  );
}

function EditButton({ onClick }: { onClick: () => void }) {
  const { t } = useStaffT();
  return (
    <Button size="xs" variant="default" onClick={onClick}>
      {t('catalog.contracts.edit')}
    </Button>
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
  const save = useSaveActivityContract(company, companyId, contract?.id ?? null);
  const onSave = () =>
    save.mutate(
      {
        ...form,
        end: form.end || null,
        activities: form.activities.map((a) => ({ ...a, units: hours ? null : a.units })),
      },
      { onSuccess: onDone },
    );
  const nextActivityId = () => Math.max(0, ...form.activities.map((a) => a.id)) + 1;
  return (
    <EditorCard
      title={contract ? contract.name : t('catalog.contracts.newContract')}
      onSave={onSave}
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
  return (
    <AdminListEditor
      title={t('catalog.contracts.subscriptions')}
      newLabel={t('catalog.contracts.newSubscription')}
      query={useSubscriptions(company, companyId)}
      rows={(data) => data.items}
      rowKey={(s) => s.id}
      minWidth={560}
      empty={t('catalog.contracts.noSubscriptions')}
      columns={[
        { header: t('catalog.contracts.code'), cell: (s) => s.code },
        { header: t('catalog.contracts.description'), cell: (s) => s.description },
        { header: t('catalog.contracts.taxedTotal'), cell: (s) => formatEuro(s.taxedTotal, i18n.language) },
        { header: t('catalog.contracts.advanceDate'), cell: (s) => formatDate(s.advanceDate) },
        {
          header: t('catalog.contracts.recurrence'),
          cell: (s) => t(`catalog.contracts.recurrences.${s.trigger.recurrenceType}`),
        },
        { cell: (_s, act) => <EditButton onClick={act.edit} /> },
      ]}
      editor={(subscription, done) => (
        <SubscriptionEditor companyId={companyId} subscription={subscription} onDone={done} />
      )}
    />
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
  const save = useSaveSubscription(company, companyId, subscription?.id ?? null);
  const onSave = () => {
    const { id: _i, companyId: _c, ...body } = { id: 0, companyId: 0, ...form };
    save.mutate(body, { onSuccess: onDone });
  };
  const num = (v: string | number) => (v === '' ? null : Number(v));
  const type = form.trigger.recurrenceType;
  return (
    <EditorCard
      title={subscription ? subscription.code : t('catalog.contracts.newSubscription')}
      onSave={onSave}
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
