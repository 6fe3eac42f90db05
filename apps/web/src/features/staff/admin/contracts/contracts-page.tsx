import {
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
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { CompanyPicker } from '../company-picker';
import {
  activityContractCreateSchema,
  subscriptionCreateSchema,
  type ActivityContractEntity,
  type SubscriptionEntity,
} from '@sportello/contracts';
import { formatDate, formatEuro, formatNumber } from '../../../../lib/format';
import { portalDayOf, todayInPortal } from '../../../../lib/zone-days';
import { usePageTitle } from '../../../../ui/page-title';
import { useDesk } from '../../desk-context';
import { EditorCard } from '../editor-card';
import { useStaffT } from '../../i18n';
import { useActivityContracts, useSaveActivityContract } from '../api/activity-contracts';
import { useSaveSubscription, useSubscriptions } from '../api/subscriptions';
import { ActivityRow, newActivity, type ActivityForm } from '../components/activity-row';
import { AdminListEditor } from '../components/admin-list-editor';
import { requiredOrInvalid, saveWhenValid, validateWith } from '../components/contract-form';
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

type ContractForm = Omit<ActivityContractEntity, 'id' | 'companyId' | 'activities'> & {
  activities: ActivityForm[];
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
  const form = useForm<ContractForm>({
    initialValues: contract
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
    // The create body's rules (a name, days, amounts; each activity's type and day), as the server's.
    validate: validateWith(
      activityContractCreateSchema,
      (v) => ({ ...contractBody(v), companyId }),
      requiredOrInvalid(t),
      /^(name|start|end|hoursAmount|unitAmount|activities\.\d+\.(activityTypeName|start|durationMinutes|units))$/,
    ),
  });
  const values = form.getValues();
  const hours = values.activityContractType === 0;
  const amountField = hours ? 'hoursAmount' : 'unitAmount';
  const save = useSaveActivityContract(company, companyId, contract?.id ?? null);
  return (
    <EditorCard
      title={contract ? contract.name : t('catalog.contracts.newContract')}
      onSave={saveWhenValid(form, (v) => save.mutate(contractBody(v), { onSuccess: onDone }))}
      onCancel={onDone}
      error={save.isError ? save.error : null}
      saving={save.isPending}
    >
      <TextInput
        label={t('catalog.contracts.name')}
        required
        maxLength={500}
        {...form.getInputProps('name')}
      />
      <Group grow align="start" wrap="wrap">
        <TextInput
          type="date"
          label={t('catalog.contracts.start')}
          required
          {...form.getInputProps('start')}
          miw={150}
        />
        <TextInput
          type="date"
          label={t('catalog.contracts.end')}
          value={values.end ?? ''}
          onChange={(e) => form.setFieldValue('end', e.currentTarget.value || null)}
          error={form.errors.end}
          miw={150}
        />
        <NativeSelect
          label={t('catalog.contracts.type')}
          value={String(values.activityContractType)}
          onChange={(e) => form.setFieldValue('activityContractType', e.currentTarget.value === '1' ? 1 : 0)}
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
          value={values[amountField] ?? ''}
          onChange={(v) => form.setFieldValue(amountField, v === '' ? null : Number(v))}
          error={form.errors[amountField]}
          miw={120}
        />
      </Group>
      <Text fw={600} size="sm">
        {t('catalog.contracts.activities')}
      </Text>
      {values.activities.map((a, i) => (
        <ActivityRow
          key={a.id}
          activity={a}
          amounts={hours ? 'minutes' : 'units'}
          onChange={(patch) => form.setFieldValue(`activities.${i}`, { ...a, ...patch })}
          onRemove={() => form.removeListItem('activities', i)}
          error={(field) => form.errors[`activities.${i}.${field}`] as string | undefined}
        />
      ))}
      <Button
        variant="subtle"
        w="fit-content"
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={() =>
          form.insertListItem('activities', newActivity(values.activities, values.start, null, 60))
        }
      >
        {t('catalog.contracts.addActivity')}
      </Button>
    </EditorCard>
  );
}

/** The body of a contract: no end is null; an hour contract's activities count no units. */
const contractBody = (v: ContractForm) => ({
  ...v,
  end: v.end || null,
  activities: v.activities.map((a) => ({ ...a, units: v.activityContractType === 0 ? null : a.units })),
});

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
  const form = useForm<SubscriptionForm>({
    initialValues: subscription
      ? {
          code: subscription.code,
          description: subscription.description,
          quantity: subscription.quantity,
          taxedTotal: subscription.taxedTotal,
          advanceDate: portalDayOf(subscription.advanceDate),
          trigger: subscription.trigger,
        }
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
    // The create body's rules, the recurrence's too (what each kind of recurrence needs).
    validate: validateWith(
      subscriptionCreateSchema,
      (v) => ({ ...v, companyId }),
      requiredOrInvalid(t),
      /^(code|description|quantity|taxedTotal|advanceDate|trigger\.\w+)$/,
    ),
  });
  const values = form.getValues();
  const setTrigger = (patch: Partial<SubscriptionForm['trigger']>) =>
    form.setFieldValue('trigger', { ...values.trigger, ...patch });
  const triggerError = (field: keyof SubscriptionForm['trigger']) => form.errors[`trigger.${field}`];
  const save = useSaveSubscription(company, companyId, subscription?.id ?? null);
  const num = (v: string | number) => (v === '' ? null : Number(v));
  const type = values.trigger.recurrenceType;
  return (
    <EditorCard
      title={subscription ? subscription.code : t('catalog.contracts.newSubscription')}
      onSave={saveWhenValid(form, (v) => save.mutate(v, { onSuccess: onDone }))}
      onCancel={onDone}
      error={save.isError ? save.error : null}
      saving={save.isPending}
    >
      <Group grow align="start" wrap="wrap">
        <TextInput
          label={t('catalog.contracts.code')}
          maxLength={100}
          {...form.getInputProps('code')}
          miw={140}
        />
        <TextInput
          label={t('catalog.contracts.description')}
          maxLength={2000}
          {...form.getInputProps('description')}
          miw={220}
        />
      </Group>
      <Group grow align="start" wrap="wrap">
        <NumberInput
          label={t('catalog.contracts.quantity')}
          decimalScale={2}
          value={values.quantity}
          onChange={(v) => form.setFieldValue('quantity', Number(v) || 0)}
          error={form.errors.quantity}
          miw={110}
        />
        <NumberInput
          label={t('catalog.contracts.taxedTotal')}
          decimalScale={2}
          value={values.taxedTotal}
          onChange={(v) => form.setFieldValue('taxedTotal', Number(v) || 0)}
          error={form.errors.taxedTotal}
          miw={130}
        />
        <TextInput
          type="date"
          label={t('catalog.contracts.advanceDate')}
          required
          {...form.getInputProps('advanceDate')}
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
              value={values.trigger.frequencyWeek ?? ''}
              onChange={(v) => setTrigger({ frequencyWeek: num(v) })}
              error={triggerError('frequencyWeek')}
            />
            <NativeSelect
              label={t('catalog.contracts.weekday')}
              value={String(values.trigger.recurrenceDayOfWeek ?? '')}
              onChange={(e) => setTrigger({ recurrenceDayOfWeek: num(e.currentTarget.value) })}
              error={triggerError('recurrenceDayOfWeek')}
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
            value={values.trigger.frequencyMonth ?? ''}
            onChange={(v) => setTrigger({ frequencyMonth: num(v) })}
            error={triggerError('frequencyMonth')}
          />
        )}
        {(type === 20 || type === 30) && (
          <NumberInput
            label={t('catalog.contracts.day')}
            min={1}
            max={31}
            value={values.trigger.recurrenceDay ?? ''}
            onChange={(v) => setTrigger({ recurrenceDay: num(v) })}
            error={triggerError('recurrenceDay')}
          />
        )}
        {type === 30 && (
          <NumberInput
            label={t('catalog.contracts.month')}
            min={1}
            max={12}
            value={values.trigger.recurrenceMonth ?? ''}
            onChange={(v) => setTrigger({ recurrenceMonth: num(v) })}
            error={triggerError('recurrenceMonth')}
          />
        )}
      </Group>
    </EditorCard>
  );
}
