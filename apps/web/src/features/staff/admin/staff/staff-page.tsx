import { useState } from 'react';
import {
  Badge,
  Button,
  Group,
  MultiSelect,
  NativeSelect,
  Stack,
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
import { AdminListEditor } from '../components/admin-list-editor';
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
  const [losing, setLosing] = useState<{ member: AccessMember; kind: 'remove' | 'demote' } | null>(null);

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
      <AdminListEditor
        query={list}
        rows={(data) => data}
        rowKey={(m) => m.id}
        minWidth={720}
        highlightOnHover={false}
        empty={t('access.staff.empty')}
        columns={[
          { header: t('access.staff.person'), cell: (m) => <PersonCell member={m} /> },
          {
            header: t('access.staff.role'),
            cell: (m) => (
              <RoleSelect
                member={m}
                onDemote={() => setLosing({ member: m, kind: 'demote' })}
                onDone={done}
                onError={failed}
              />
            ),
          },
          {
            header: t('access.staff.groups'),
            cell: (m) => <GroupsSelect member={m} groups={groups} onDone={done} onError={failed} />,
          },
          {
            header: t('access.staff.lastSignIn'),
            td: { style: { whiteSpace: 'nowrap' } },
            cell: (m) => (m.lastSignInAt ? formatDateTime(m.lastSignInAt) : '—'),
          },
          {
            header: t('access.staff.actions'),
            cell: (m) => (
              <Group gap="xs" wrap="nowrap">
                {m.status === 'invited' && <ResendButton member={m} onDone={done} onError={failed} />}
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  onClick={() => setLosing({ member: m, kind: 'remove' })}
                >
                  {t('access.staff.remove')}
                </Button>
              </Group>
            ),
          },
        ]}
      />
      {/* Removal and demotion of an admin go through the dialog that lists what the member made. */}
      {losing && (
        <LoseAccessModal
          member={losing.member}
          kind={losing.kind}
          onClose={() => setLosing(null)}
          onDone={() => {
            setLosing(null);
            done(
              t(losing.kind === 'remove' ? 'access.staff.removed' : 'access.staff.saved', {
                email: losing.member.email,
              }),
            );
          }}
          onError={failed}
        />
      )}
    </Stack>
  );
}

type Told = { onDone: (text: string) => void; onError: (e: unknown) => void };

function PersonCell({ member: m }: { member: AccessMember }) {
  const { t } = useStaffT();
  return (
    <>
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
    </>
  );
}

/** The member's role, saved as it is chosen; an admin made an agent is asked about first (`onDemote`). */
function RoleSelect({
  member: m,
  onDemote,
  onDone,
  onError,
}: { member: AccessMember; onDemote: () => void } & Told) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const setRole = useSetStaffRole(company, m.id);
  return (
    <NativeSelect
      aria-label={t('access.staff.roleOf', { name: m.displayName })}
      value={m.role}
      miw={140}
      disabled={setRole.isPending}
      onChange={(e) => {
        const role = e.currentTarget.value as StaffRole;
        if (m.role === 'admin' && role === 'agent') onDemote();
        else
          setRole.mutate(role, {
            onSuccess: () => onDone(t('access.staff.saved', { email: m.email })),
            onError,
          });
      }}
      data={[
        { value: 'agent', label: t('access.staff.roles.agent') },
        { value: 'admin', label: t('access.staff.roles.admin') },
      ]}
    />
  );
}

/** The member's groups, saved at each change. */
function GroupsSelect({
  member: m,
  groups,
  onDone,
  onError,
}: { member: AccessMember; groups: { value: string; label: string }[] } & Told) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const setGroups = useSetStaffGroups(company, m.id);
  return (
    <MultiSelect
      aria-label={t('access.staff.groupsOf', { name: m.displayName })}
      data={groups}
      value={m.groupIds.map(String)}
      onChange={(ids) =>
        setGroups.mutate(ids.map(Number), {
          onSuccess: () => onDone(t('access.staff.saved', { email: m.email })),
          onError,
        })
      }
      miw={160}
    />
  );
}

function ResendButton({ member: m, onDone, onError }: { member: AccessMember } & Told) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const resend = useResendInvite(company, m.id);
  return (
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
  );
}
