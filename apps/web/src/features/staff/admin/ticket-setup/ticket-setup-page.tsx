import { useState, type ReactNode } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  ColorInput,
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
  assigneeGroupInputSchema,
  statusStepInputSchema,
  ticketTypeInputSchema,
  type StaffOptions,
} from '@sportello/contracts';
import { ApiRequestError } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { ListError, ListLoading } from '../../../../ui/list-states';
import { usePageTitle } from '../../../../ui/page-title';
import { useAdminStaff } from '../../api/admin-staff';
import { useDeskOptions } from '../../api/options';
import { useSaveGroupMembers, useSetupKind, type SetupKind } from '../api/ticket-setup';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { TableScroll } from '../table-scroll';
import { validateWith } from '../components/contract-form';
import { TriageBlock } from './triage-block';

type Kind = SetupKind;
type Step = StaffOptions['steps'][number];
/** A step's task status that makes its tickets closed (the import's convention). */
const CLOSED = 2;

/** The request body of each kind's create, whose rules the add form and the renames check with. */
const INPUT = {
  types: ticketTypeInputSchema,
  steps: statusStepInputSchema,
  groups: assigneeGroupInputSchema,
};
/** What the add form holds: a name, and a type's colour or a step's closed status. */
type AddValues = { name: string; color: string; closed: boolean };
const addBody = (kind: Kind, v: AddValues) => {
  const name = v.name.trim();
  if (kind === 'types') return v.color ? { name, color: v.color } : { name };
  if (kind === 'steps') return { name, taskStatus: v.closed ? CLOSED : 1 };
  return { name };
};
/** A rename's body; the three kinds share the import's rule for a name (1 to 500 characters). */
const NAME = ticketTypeInputSchema.pick({ name: true });
const nameBody = (v: { name: string }) => ({ name: v.name.trim() });

/**
 * The portal's ticket types, status steps and assignee groups (issue 14 item 5): add, rename, remove
 * (the server refuses what tickets use, and a name its kind already has), a type's colour, a step's
 * closed status and the one default and one closing step, a group's members. Read from the desk's
 * options, so every picker of the desk shows the change.
 */
export default function TicketSetupPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  usePageTitle(t('admin.sections.ticketSetup'));
  const options = useDeskOptions(company);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.sections.ticketSetup')}
      </Title>
      {options.isPending ? (
        <ListLoading />
      ) : options.isError ? (
        <ListError onRetry={() => void options.refetch()} message={errorText(options.error, t)} />
      ) : (
        <>
          <StepsBlock steps={options.data.steps} />
          <KindBlock
            kind="types"
            title={t('setup.types')}
            hint={t('setup.typesHint')}
            items={options.data.types}
            extra={(item) =>
              item.color ? (
                <span
                  aria-hidden
                  style={{
                    background: item.color,
                    width: 14,
                    height: 14,
                    borderRadius: 3,
                    display: 'inline-block',
                  }}
                />
              ) : null
            }
            withColor
          />
          <KindBlock
            kind="groups"
            title={t('setup.groups')}
            hint={t('setup.groupsHint')}
            items={options.data.groups}
            cell={(group) => <GroupMembersSelect group={group} />}
          />
          <TriageBlock groups={options.data.groups} />
        </>
      )}
    </Stack>
  );
}

/** The mutations of one kind (admin/api/ticket-setup.ts). */
function useKind(kind: Kind) {
  const { company } = useDesk();
  return useSetupKind(company, kind);
}

function Block({
  title,
  hint,
  error,
  children,
}: {
  title: string;
  hint: string;
  error: unknown;
  children: ReactNode;
}) {
  const { t } = useStaffT();
  return (
    <Card withBorder>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h3">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        </div>
        {error ? (
          <Alert color="red" variant="light" role="alert">
            {error instanceof ApiRequestError && error.code === 'name_taken'
              ? t('setup.nameTaken')
              : errorText(error, t)}
          </Alert>
        ) : null}
        {children}
      </Stack>
    </Card>
  );
}

/** A row's name, editable in place; Save appears once it differs (checked with the import's rule). */
function NameCell({ name, onSave, label }: { name: string; onSave: (name: string) => void; label: string }) {
  const { t } = useStaffT();
  const form = useForm({
    initialValues: { name },
    validate: validateWith(NAME, nameBody, () => t('auth.requiredField')),
  });
  const value = form.getValues().name.trim();
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((v) => {
        if (nameBody(v).name !== name) onSave(nameBody(v).name);
      })}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <TextInput
          size="xs"
          maxLength={500}
          {...form.getInputProps('name')}
          aria-label={label}
          style={{ flex: 1, minWidth: 140 }}
        />
        {value !== name && value !== '' && (
          <Button type="submit" size="xs" variant="light">
            {t('setup.save')}
          </Button>
        )}
      </Group>
    </form>
  );
}

/** Remove with a second click to confirm. */
function RemoveButton({ onRemove, disabled }: { onRemove: () => void; disabled?: boolean }) {
  const { t } = useStaffT();
  const [armed, setArmed] = useState(false);
  return armed ? (
    <Group gap={4} wrap="nowrap">
      <Button size="xs" color="red" onClick={onRemove}>
        {t('setup.confirmRemove')}
      </Button>
      <Button size="xs" variant="subtle" onClick={() => setArmed(false)}>
        {t('setup.cancel')}
      </Button>
    </Group>
  ) : (
    <Button size="xs" variant="subtle" color="red" disabled={disabled} onClick={() => setArmed(true)}>
      {t('setup.remove')}
    </Button>
  );
}

/** The add form of a kind: a name (the kind's create rules, checked before sending) and `children`. */
function AddForm({
  kind,
  label,
  onAdd,
  pending,
  children,
}: {
  kind: Kind;
  label: string;
  onAdd: (body: ReturnType<typeof addBody>, added: () => void) => void;
  pending: boolean;
  children?: (form: AddFormType) => ReactNode;
}) {
  const { t } = useStaffT();
  const form = useAddForm(kind, t('auth.requiredField'));
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => onAdd(addBody(kind, values), () => form.setFieldValue('name', '')))}
    >
      <Group gap="xs" align="flex-start">
        <TextInput
          label={label}
          maxLength={500}
          {...form.getInputProps('name')}
          style={{ flex: 1, minWidth: 180 }}
        />
        {children?.(form)}
        <Button type="submit" mt={{ base: 0, xs: 25 }} loading={pending}>
          {t('setup.add')}
        </Button>
      </Group>
    </form>
  );
}

const useAddForm = (kind: Kind, required: string) =>
  useForm<AddValues>({
    initialValues: { name: '', color: '', closed: false },
    validate: validateWith(
      INPUT[kind],
      (v: AddValues) => addBody(kind, v),
      () => required,
      /^name$/,
    ),
  });
type AddFormType = ReturnType<typeof useAddForm>;

function KindBlock<I extends { id: number; name: string; color?: string | null }>({
  kind,
  title,
  hint,
  items,
  extra,
  cell,
  withColor,
}: {
  kind: 'types' | 'groups';
  title: string;
  hint: string;
  items: I[];
  extra?: (item: I) => ReactNode;
  /** One more column after the name (a group's members). */
  cell?: (item: I) => ReactNode;
  withColor?: boolean;
}) {
  const { t } = useStaffT();
  const m = useKind(kind);
  return (
    <Block title={title} hint={hint} error={m.error}>
      <TableScroll minWidth={cell ? 640 : 420}>
        <Table verticalSpacing={4} data-testid={`setup-${kind}`}>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td w={24}>{extra?.(item)}</Table.Td>
                <Table.Td>
                  <NameCell
                    key={item.name}
                    name={item.name}
                    label={t('setup.nameOf', { name: item.name })}
                    onSave={(name) => m.update.mutate({ id: item.id, body: { name } })}
                  />
                </Table.Td>
                {cell && <Table.Td>{cell(item)}</Table.Td>}
                <Table.Td ta="right">
                  <RemoveButton onRemove={() => m.remove.mutate(item.id)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
      <AddForm
        kind={kind}
        label={t(kind === 'types' ? 'setup.newType' : 'setup.newGroup')}
        pending={m.create.isPending}
        onAdd={(body, added) => m.create.mutate(body, { onSuccess: added })}
      >
        {withColor
          ? (form) => (
              <ColorInput
                label={t('setup.color')}
                {...form.getInputProps('color')}
                format="hex"
                w={150}
                eyeDropperButtonProps={{ 'aria-label': t('branding.eyeDropper') }}
              />
            )
          : undefined}
      </AddForm>
    </Block>
  );
}

/**
 * A step's default or closing mark: a badge on the step that holds it, a button on the steps that may
 * take it (the server's rule: the default step is an open one, the closing step a closed one).
 */
function Mark(p: {
  held: boolean;
  offered: boolean;
  label: string;
  action: string;
  color: string;
  onClick: () => void;
}) {
  if (p.held)
    return (
      <Badge variant="outline" color={p.color}>
        {p.label}
      </Badge>
    );
  return p.offered ? (
    <Button size="compact-xs" variant="subtle" onClick={p.onClick}>
      {p.action}
    </Button>
  ) : null;
}

function StepsBlock({ steps }: { steps: Step[] }) {
  const { t } = useStaffT();
  const m = useKind('steps');
  const set = (id: number, body: Record<string, unknown>) => m.update.mutate({ id, body });
  return (
    <Block title={t('setup.steps')} hint={t('setup.stepsHint')} error={m.error}>
      <TableScroll minWidth={640}>
        <Table verticalSpacing={4} data-testid="setup-steps">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('setup.name')}</Table.Th>
              <Table.Th>{t('setup.closedStep')}</Table.Th>
              <Table.Th>{t('setup.marks')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {steps.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <NameCell
                    key={s.name}
                    name={s.name}
                    label={t('setup.nameOf', { name: s.name })}
                    onSave={(name) => set(s.id, { name })}
                  />
                </Table.Td>
                <Table.Td>
                  <Switch
                    checked={s.taskStatus === CLOSED}
                    // The default step stays open and the closing step closed (the server refuses otherwise).
                    disabled={s.isDefault || s.isClosing}
                    onChange={(e) => set(s.id, { taskStatus: e.currentTarget.checked ? CLOSED : 1 })}
                    aria-label={t('setup.closedOf', { name: s.name })}
                  />
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Mark
                      held={s.isDefault}
                      offered={s.taskStatus !== CLOSED}
                      label={t('setup.default')}
                      action={t('setup.makeDefault')}
                      color="blue.9"
                      onClick={() => set(s.id, { isDefault: true })}
                    />
                    <Mark
                      held={s.isClosing}
                      offered={s.taskStatus === CLOSED}
                      label={t('setup.closing')}
                      action={t('setup.makeClosing')}
                      color="gray.8"
                      onClick={() => set(s.id, { isClosing: true })}
                    />
                  </Group>
                </Table.Td>
                <Table.Td ta="right">
                  <RemoveButton
                    onRemove={() => m.remove.mutate(s.id)}
                    disabled={s.isDefault || s.isClosing}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
      <AddForm
        kind="steps"
        label={t('setup.newStep')}
        pending={m.create.isPending}
        onAdd={(body, added) => m.create.mutate(body, { onSuccess: added })}
      >
        {(form) => (
          <Switch
            label={t('setup.closedStep')}
            {...form.getInputProps('closed', { type: 'checkbox' })}
            mt={{ base: 0, xs: 32 }}
          />
        )}
      </AddForm>
    </Block>
  );
}

/**
 * A group's members, chosen from the portal's staff and saved at each change (`PUT …/groups/:id/members`):
 * the same membership Staff and roles sets per person, so both screens show it.
 */
function GroupMembersSelect({ group }: { group: { id: number; name: string } }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const staff = useAdminStaff(company);
  const save = useSaveGroupMembers(company, group.id);
  const people = staff.data ?? [];
  return (
    <Stack gap={2}>
      <MultiSelect
        size="xs"
        aria-label={t('setup.membersOf', { name: group.name })}
        placeholder={people.some((p) => p.groupIds.includes(group.id)) ? undefined : t('setup.noMembers')}
        data={people.map((p) => ({ value: String(p.id), label: p.displayName || p.email }))}
        value={people.filter((p) => p.groupIds.includes(group.id)).map((p) => String(p.id))}
        onChange={(ids) => save.mutate(ids)}
        disabled={staff.isPending || save.isPending}
        searchable
        miw={220}
      />
      {(staff.isError || save.isError) && (
        <Text size="xs" c="red" role="alert">
          {errorText(staff.error ?? save.error, t)}
        </Text>
      )}
    </Stack>
  );
}
