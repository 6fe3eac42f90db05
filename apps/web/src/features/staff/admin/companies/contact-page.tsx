import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Menu,
  Modal,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconDots, IconEye, IconMailPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  permissionFlags,
  type ContactEntity,
  type PeopleUser,
  type PermissionFlag,
} from '@sportello/contracts';
import { Link, useNavigate, useParams } from 'react-router';
import { errorText } from '../../../../lib/error-text';
import { formatDateTime } from '../../../../lib/format';
import { ListError, ListLoading } from '../../../../ui/list-states';
import { usePageTitle } from '../../../../ui/page-title';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { adminPath } from '../admin-area';
import { BounceNotice } from '../email/bounce-notice';
import {
  peopleKeys,
  useContact,
  useContactUsers,
  useInviteUser,
  useSaveContact,
  useUserAction,
  useViewAs,
  type UserAction,
} from './people-api';
import { TableScroll } from '../table-scroll';

type Flags = Record<PermissionFlag, boolean>;
const noFlags = () => Object.fromEntries(permissionFlags.map((f) => [f, false])) as Flags;

interface Draft {
  referentName: string;
  email: string;
  phone: string;
  permissions: Flags;
}
const draftOf = (c?: ContactEntity): Draft => ({
  referentName: c?.referentName ?? '',
  email: c?.email ?? '',
  phone: c?.phone ?? '',
  permissions: c ? { ...c.permissions } : noFlags(),
});

/**
 * A contact: its details and the ten permissions, each said in words (the list is the contracts'
 * `permissionFlags`), its users with their actions, and "see as this contact". `new` creates one.
 */
export default function ContactPage() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const params = useParams();
  const companyId = Number(params.id);
  const isNew = params.contactid === 'new';
  const contactId = isNew ? NaN : Number(params.contactid);
  const navigate = useNavigate();
  const entity = useContact(company, contactId, !isNew && Number.isSafeInteger(contactId));
  // The form shows the stored contact until the admin changes something.
  const [edited, setEdited] = useState<Draft | null>(null);
  const draft = edited ?? draftOf(entity.data);
  const [saved, setSaved] = useState(false);
  usePageTitle(isNew ? t('people.newContact') : (entity.data?.referentName ?? t('people.contact')));
  const save = useSaveContact(company, companyId, isNew ? null : contactId);
  const onSaved = (c: { contactId: number }) => {
    setEdited(null);
    setSaved(true);
    if (isNew)
      void navigate(adminPath(company, 'companies', `${companyId}/contacts/${c.contactId}`), {
        replace: true,
      });
  };
  const saveDraft = () =>
    save.mutate(
      {
        referentName: draft.referentName.trim(),
        email: draft.email.trim() || null,
        phone: draft.phone.trim() || null,
        permissions: draft.permissions,
      },
      { onSuccess: onSaved },
    );
  const set = (patch: Partial<Draft>) => {
    setSaved(false);
    setEdited({ ...draft, ...patch });
  };

  return (
    <Stack gap="md">
      <Anchor component={Link} to={adminPath(company, 'companies', String(companyId))} size="sm">
        {t('people.back')}
      </Anchor>
      <Title order={1} size="h2">
        {isNew ? t('people.newContact') : (entity.data?.referentName ?? '…')}
        {!isNew && (
          <Badge variant="light" color="gray" ml="xs">
            {t('people.id')} {contactId}
          </Badge>
        )}
      </Title>
      {!isNew && entity.data && <BounceNotice address={entity.data.email} />}
      {entity.isError ? (
        <ListError message={errorText(entity.error, t)} onRetry={() => void entity.refetch()} />
      ) : !isNew && entity.isPending ? (
        <ListLoading rows={3} />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            saveDraft();
          }}
        >
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label={t('people.referentName')}
                value={draft.referentName}
                onChange={(e) => set({ referentName: e.currentTarget.value })}
                required
                maxLength={500}
              />
              <TextInput
                label={t('people.email')}
                type="email"
                value={draft.email}
                onChange={(e) => set({ email: e.currentTarget.value })}
                maxLength={320}
              />
              <TextInput
                label={t('people.phone')}
                type="tel"
                value={draft.phone}
                onChange={(e) => set({ phone: e.currentTarget.value })}
                maxLength={40}
              />
            </SimpleGrid>
            <Checkbox.Group
              label={t('people.permissions')}
              description={t('people.permissionsHint')}
              value={permissionFlags.filter((f) => draft.permissions[f])}
              onChange={(on) =>
                set({
                  permissions: Object.fromEntries(permissionFlags.map((f) => [f, on.includes(f)])) as Flags,
                })
              }
            >
              <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
                {permissionFlags.map((f) => (
                  <Checkbox
                    key={f}
                    value={f}
                    label={t(`people.flagNames.${f}`)}
                    description={t(`people.flags.${f}`)}
                  />
                ))}
              </SimpleGrid>
            </Checkbox.Group>
            {save.isError && (
              <Text c="red" size="sm" role="alert">
                {errorText(save.error, t)}
              </Text>
            )}
            <Group>
              <Button type="submit" loading={save.isPending} disabled={!draft.referentName.trim()}>
                {isNew ? t('people.create') : t('people.save')}
              </Button>
              {saved && !save.isPending && (
                <Text size="sm" c="teal" role="status">
                  {t('people.saved')}
                </Text>
              )}
            </Group>
          </Stack>
        </form>
      )}
      {!isNew && entity.data && (
        <>
          <ViewAsCard contactId={contactId} />
          <UsersCard contactId={contactId} contactEmail={entity.data.email} />
        </>
      )}
    </Stack>
  );
}

/** Opens the portal in a new tab as the contact; the one-time code travels in the fragment only. */
function ViewAsCard({ contactId }: { contactId: number }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [error, setError] = useState<string | null>(null);
  const open = useViewAs(company, contactId);
  const start = () => {
    setError(null);
    // Opened in the click (a tab opened after an await is a blocked pop-up), filled when the code is here.
    const tab = window.open('about:blank', '_blank');
    if (!tab) {
      setError(t('people.viewAsBlocked'));
      return;
    }
    tab.opener = null;
    open.mutate(undefined, {
      onSuccess: (a) => {
        tab.location.href = `/${encodeURIComponent(company)}/view-as#${encodeURIComponent(a.code)}`;
      },
      onError: (e) => {
        tab.close();
        setError(errorText(e, t));
      },
    });
  };
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" maw={560}>
          {t('people.viewAsHint')}
        </Text>
        <Button
          variant="light"
          leftSection={<IconEye size={16} aria-hidden />}
          onClick={start}
          loading={open.isPending}
        >
          {t('people.viewAs')}
        </Button>
      </Group>
      {error && (
        <Text c="red" size="sm" role="alert" mt="xs">
          {error}
        </Text>
      )}
    </Card>
  );
}

function UsersCard({ contactId, contactEmail }: { contactId: number; contactEmail: string | null }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const qc = useQueryClient();
  const [inviting, setInviting] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const users = useContactUsers(company, contactId);
  const act = useUserAction(company);
  const run = (action: UserAction, userName: string) => {
    setDone(null);
    act.mutate({ action, userName }, { onSuccess: () => setDone(t(`people.done.${action}`)) });
  };
  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3">
            {t('people.users')}
          </Title>
          <Button leftSection={<IconMailPlus size={16} aria-hidden />} onClick={() => setInviting(true)}>
            {t('people.invite')}
          </Button>
        </Group>
        {done && (
          <Alert color="teal" variant="light" role="status">
            {done}
          </Alert>
        )}
        {act.isError && (
          <Text c="red" size="sm" role="alert">
            {errorText(act.error, t)}
          </Text>
        )}
        {users.isPending ? (
          <ListLoading rows={2} />
        ) : users.isError ? (
          <ListError message={errorText(users.error, t)} onRetry={() => void users.refetch()} />
        ) : users.data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('people.noUsers')}
          </Text>
        ) : (
          <TableScroll minWidth={300}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('people.userName')}</Table.Th>
                  <Table.Th>{t('people.state')}</Table.Th>
                  <Table.Th>{t('people.lastSignIn')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('people.actions', { name: '' })}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {users.data.items.map((u) => (
                  <UserRow key={u.userName} user={u} onAction={run} busy={act.isPending} />
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </Stack>
      <InviteModal
        opened={inviting}
        onClose={() => setInviting(false)}
        contactId={contactId}
        defaultEmail={contactEmail ?? ''}
        onInvited={() => {
          setDone(t('people.done.invite'));
          void qc.invalidateQueries({ queryKey: peopleKeys.all(company) });
        }}
      />
    </Card>
  );
}

function UserRow({
  user,
  onAction,
  busy,
}: {
  user: PeopleUser;
  onAction: (a: UserAction, userName: string) => void;
  busy: boolean;
}) {
  const { t } = useStaffT();
  const [confirm, setConfirm] = useState<UserAction | null>(null);
  const name = user.displayName ?? user.userName;
  const messages: Partial<Record<UserAction, string>> = {
    revoke: t('people.confirmRevoke', { name }),
    deactivate: t('people.confirmDeactivate', { name }),
    reset: t('people.confirmReset', { name }),
  };
  const ask = (a: UserAction) => (messages[a] ? setConfirm(a) : onAction(a, user.userName));
  return (
    <Table.Tr>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        <Text size="sm" fw={500}>
          {user.userName}
        </Text>
        {user.email && (
          <Text size="xs" c="dimmed">
            {user.email}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {/* The dot carries the colour, the text stays dark: readable on any background (axe contrast). */}
        <Badge
          variant="dot"
          tt="none"
          color={user.state === 'active' ? 'teal' : user.state === 'invited' ? 'blue' : 'gray'}
        >
          {t(`people.states.${user.state}`)}
        </Badge>
      </Table.Td>
      <Table.Td>{user.lastSignInAt ? formatDateTime(user.lastSignInAt) : t('people.never')}</Table.Td>
      <Table.Td>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button
              variant="subtle"
              size="compact-sm"
              aria-label={t('people.actions', { name })}
              disabled={busy}
            >
              <IconDots size={16} aria-hidden />
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {user.state !== 'active' && (
              <Menu.Item onClick={() => ask('resend')}>{t('people.resend')}</Menu.Item>
            )}
            {user.state === 'invited' && (
              <Menu.Item onClick={() => ask('revoke')}>{t('people.revoke')}</Menu.Item>
            )}
            {user.state === 'active' && user.email && (
              <Menu.Item onClick={() => ask('reset')}>{t('people.reset')}</Menu.Item>
            )}
            <Menu.Item color="red" onClick={() => ask('deactivate')}>
              {t('people.deactivate')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        <Modal
          opened={confirm !== null}
          onClose={() => setConfirm(null)}
          title={t('people.confirmTitle')}
          centered
        >
          <Stack>
            <Text size="sm">{confirm ? messages[confirm] : ''}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirm(null)}>
                {t('people.cancel')}
              </Button>
              <Button
                color={confirm === 'reset' ? 'blue' : 'red'}
                onClick={() => {
                  if (confirm) onAction(confirm, user.userName);
                  setConfirm(null);
                }}
              >
                {confirm ? t(`people.${confirm}`) : t('people.confirm')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      </Table.Td>
    </Table.Tr>
  );
}

function InviteModal({
  opened,
  onClose,
  contactId,
  defaultEmail,
  onInvited,
}: {
  opened: boolean;
  onClose: () => void;
  contactId: number;
  defaultEmail: string;
  onInvited: () => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [email, setEmail] = useState(defaultEmail);
  const [userName, setUserName] = useState('');
  const invite = useInviteUser(company);
  return (
    <Modal opened={opened} onClose={onClose} title={t('people.inviteTitle')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate(
            { userName: userName.trim() || email.trim(), email: email.trim(), contactIds: [contactId] },
            {
              onSuccess: () => {
                setUserName('');
                onInvited();
                onClose();
              },
            },
          );
        }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {t('people.inviteHint')}
          </Text>
          <TextInput
            label={t('people.email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            required
            maxLength={320}
            data-autofocus
          />
          <TextInput
            label={t('people.userName')}
            value={userName}
            placeholder={email}
            onChange={(e) => setUserName(e.currentTarget.value)}
            maxLength={200}
          />
          {invite.isError && (
            <Text c="red" size="sm" role="alert">
              {errorText(invite.error, t)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('people.cancel')}
            </Button>
            <Button type="submit" loading={invite.isPending} disabled={!email.trim()}>
              {t('people.invite')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
