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
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { STAFF_DISPLAY_NAME_MAX, type AccessMember, type StaffRole } from '@sportello/contracts';
import { accessRoutes, staffDeskRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { formatDateTime } from '../../../../lib/format';
import { usePageTitle } from '../../../../ui/page-title';
import { useAdminStaff } from '../../api/admin-staff';
import { useDeskOptions } from '../../api/options';
import { staffKeys } from '../../api/keys';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { TableScroll } from '../table-scroll';
import { QueryStates } from '../query-states';
import { LoseAccessModal } from './lose-access';
import { badgeVars } from '../../components/badge-vars';

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

  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [role, setRole] = useState<StaffRole>('agent');
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const invite = useMutation({
    mutationFn: () =>
      call(accessRoutes.invite, {
        params: { company },
        body: { email, displayName, role, groupIds: groupIds.map(Number) },
      }),
    onSuccess: (r) => {
      setEmail('');
      setDisplayName('');
      setGroupIds([]);
      // The same answer whether or not the address signs in elsewhere (not this portal's to know).
      done(t('access.staff.invited', { email: r.member.email }));
    },
    onError: failed,
  });

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.sections.staff')}
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate();
        }}
      >
        <Group align="end" gap="sm" wrap="wrap">
          <TextInput
            type="email"
            required
            label={t('access.staff.email')}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            miw={240}
          />
          <TextInput
            required
            label={t('access.staff.displayName')}
            title={t('access.staff.displayNameHint')}
            value={displayName}
            maxLength={STAFF_DISPLAY_NAME_MAX}
            onChange={(e) => setDisplayName(e.currentTarget.value)}
            miw={200}
          />
          <NativeSelect
            label={t('access.staff.role')}
            value={role}
            onChange={(e) => setRole(e.currentTarget.value as StaffRole)}
            data={[
              { value: 'agent', label: t('access.staff.roles.agent') },
              { value: 'admin', label: t('access.staff.roles.admin') },
            ]}
          />
          <MultiSelect
            label={t('access.staff.groups')}
            data={groups}
            value={groupIds}
            onChange={setGroupIds}
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
  const params = { company, staffid: m.id };
  const setRole = useMutation({
    mutationFn: (role: StaffRole) => call(accessRoutes.setRole, { params, body: { role } }),
    onSuccess: () => onDone(t('access.staff.saved', { email: m.email })),
    onError,
  });
  const setGroups = useMutation({
    mutationFn: (ids: string[]) =>
      call(staffDeskRoutes.setGroups, { params, body: { groupIds: ids.map(Number) } }),
    onSuccess: () => onDone(t('access.staff.saved', { email: m.email })),
    onError,
  });
  const resend = useMutation({
    mutationFn: () => call(accessRoutes.resend, { params }),
    onSuccess: () => onDone(t('access.staff.resent', { email: m.email })),
    onError,
  });
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
            else setRole.mutate(role);
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
          onChange={(ids) => setGroups.mutate(ids)}
          miw={160}
        />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {m.lastSignInAt ? formatDateTime(m.lastSignInAt) : '—'}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {m.status === 'invited' && (
            <Button size="xs" variant="default" loading={resend.isPending} onClick={() => resend.mutate()}>
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
