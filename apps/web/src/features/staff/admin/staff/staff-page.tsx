import { useState } from 'react';
import {
  Badge,
  Button,
  Group,
  MultiSelect,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import {
  accessInviteSchema,
  STAFF_DISPLAY_NAME_MAX,
  type AccessMember,
  type StaffRole,
} from '@sportello/contracts';
import { errorText } from '../../../../lib/error-text';
import { formatDateTime } from '../../../../lib/format';
import { usePageTitle } from '../../../../ui/page-title';
import {
  useAdminStaff,
  useInviteStaff,
  useResendInvite,
  useSetStaffGroups,
  useSetStaffRole,
} from '../../api/admin-staff';
import { useDeskOptions } from '../../api/options';
import { staffKeys } from '../../api/keys';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { TableScroll } from '../table-scroll';
import { QueryStates } from '../query-states';
import { LoseAccessModal } from './lose-access';
import { validateWith } from '../components/contract-form';
import { badgeVars } from '../../components/badge-vars';

type InviteForm = { email: string; displayName: string; role: StaffRole; groupIds: string[] };
const inviteBody = ({ groupIds, ...v }: InviteForm) => ({ ...v, groupIds: groupIds.map(Number) });

/**
 * The portal's staff (issue 14 item 5): who is on the desk with which role, status and groups; invite
 * by e-mail, resend an invitation, change role or groups, remove. The server keeps the last admin.
 */
export default function StaffPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  usePageTitle(t('admin.sections.staff'));
  const qc = useQueryClient();
  const list = useAdminStaff(company);
  const options = useDeskOptions(company);
  const groups = (options.data?.groups ?? []).map((g) => ({ value: String(g.id), label: g.name }));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const done = (text: string) => {
    setMessage({ ok: true, text });
    void qc.invalidateQueries({ queryKey: staffKeys.portal(company) });
  };
  const failed = (e: unknown) => setMessage({ ok: false, text: errorText(e, t) });

  const form = useForm<InviteForm>({
    initialValues: { email: '', displayName: '', role: 'agent', groupIds: [] },
    validate: validateWith(
      accessInviteSchema,
      inviteBody,
      () => t('auth.requiredField'),
      /^(email|displayName)$/,
    ),
  });
  const invite = useInviteStaff(company);
  const onInvite = form.onSubmit((values) =>
    invite.mutate(inviteBody(values), {
      onSuccess: (r) => {
        form.setValues({ email: '', displayName: '', groupIds: [] });
        // The same answer whether or not the address signs in elsewhere (not this portal's to know).
        done(t('access.staff.invited', { email: r.member.email }));
      },
      onError: failed,
    }),
  );

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.sections.staff')}
      </Title>
      <form onSubmit={onInvite}>
        <Group align="end" gap="sm" wrap="wrap">
          <TextInput
            type="email"
            required
            label={t('access.staff.email')}
            {...form.getInputProps('email')}
            miw={240}
          />
          <TextInput
            required
            label={t('access.staff.displayName')}
            title={t('access.staff.displayNameHint')}
            maxLength={STAFF_DISPLAY_NAME_MAX}
            {...form.getInputProps('displayName')}
            miw={200}
          />
          <NativeSelect
            label={t('access.staff.role')}
            {...form.getInputProps('role')}
            data={[
              { value: 'agent', label: t('access.staff.roles.agent') },
              { value: 'admin', label: t('access.staff.roles.admin') },
            ]}
          />
          <MultiSelect
            label={t('access.staff.groups')}
            data={groups}
            {...form.getInputProps('groupIds')}
            miw={200}
            clearable
          />
          <Button type="submit" loading={invite.isPending}>
            {t('access.staff.invite')}
          </Button>
        </Group>
      </form>
      {message && (
        <Text c={message.ok ? 'teal' : 'red'} size="sm" role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </Text>
      )}
      <QueryStates query={list} isEmpty={(data) => data.length === 0} empty={t('access.staff.empty')}>
        {(data) => (
          <TableScroll minWidth={720}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('access.staff.person')}</Table.Th>
                  <Table.Th>{t('access.staff.role')}</Table.Th>
                  <Table.Th>{t('access.staff.groups')}</Table.Th>
                  <Table.Th>{t('access.staff.lastSignIn')}</Table.Th>
                  <Table.Th>{t('access.staff.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.map((m) => (
                  <MemberRow key={m.id} member={m} groups={groups} onDone={done} onError={failed} />
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryStates>
    </Stack>
  );
}

function MemberRow({
  member: m,
  groups,
  onDone,
  onError,
}: {
  member: AccessMember;
  groups: { value: string; label: string }[];
  onDone: (text: string) => void;
  onError: (e: unknown) => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const saved = { onSuccess: () => onDone(t('access.staff.saved', { email: m.email })), onError };
  const setRole = useSetStaffRole(company, m.id);
  const setGroups = useSetStaffGroups(company, m.id);
  const resend = useResendInvite(company, m.id);
  // Removal and demotion of an admin go through the dialog that lists what the member made.
  const [losing, setLosing] = useState<'remove' | 'demote' | null>(null);
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {m.displayName}
        </Text>
        <Text size="xs" c="dimmed">
          {m.email}
        </Text>
        {m.status !== 'active' && (
          <Badge size="xs" variant="light" color="gray" vars={badgeVars('gray')}>
            {t(`access.staff.status.${m.status}`)}
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        <NativeSelect
          aria-label={t('access.staff.roleOf', { name: m.displayName })}
          value={m.role}
          miw={140}
          disabled={setRole.isPending}
          onChange={(e) => {
            const role = e.currentTarget.value as StaffRole;
            if (m.role === 'admin' && role === 'agent') setLosing('demote');
            else setRole.mutate(role, saved);
          }}
          data={[
            { value: 'agent', label: t('access.staff.roles.agent') },
            { value: 'admin', label: t('access.staff.roles.admin') },
          ]}
        />
      </Table.Td>
      <Table.Td>
        <MultiSelect
          aria-label={t('access.staff.groupsOf', { name: m.displayName })}
          data={groups}
          value={m.groupIds.map(String)}
          onChange={(ids) => setGroups.mutate(ids.map(Number), saved)}
          miw={160}
        />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {m.lastSignInAt ? formatDateTime(m.lastSignInAt) : '—'}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {m.status === 'invited' && (
            <Button
              size="xs"
              variant="default"
              loading={resend.isPending}
              onClick={() =>
                resend.mutate(undefined, {
                  onSuccess: () => onDone(t('access.staff.resent', { email: m.email })),
                  onError,
                })
              }
            >
              {t('access.staff.resend')}
            </Button>
          )}
          <Button size="xs" color="red" variant="light" onClick={() => setLosing('remove')}>
            {t('access.staff.remove')}
          </Button>
        </Group>
        {losing && (
          <LoseAccessModal
            member={m}
            kind={losing}
            onClose={() => setLosing(null)}
            onDone={() => {
              setLosing(null);
              onDone(
                t(losing === 'remove' ? 'access.staff.removed' : 'access.staff.saved', { email: m.email }),
              );
            }}
            onError={onError}
          />
        )}
      </Table.Td>
    </Table.Tr>
  );
}
