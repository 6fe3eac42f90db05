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
import { useForm } from '@mantine/form';
import { IconDots, IconEye, IconMailPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  contactUpdateSchema,
  permissionFlags,
  userInviteSchema,
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
} from '../api/people';
import { TableScroll } from '../table-scroll';
import { isBlank, validateWith } from '../components/contract-form';

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
/** The contact's body as the create and change routes take it. */
const contactBody = (d: Draft) => ({
  referentName: d.referentName.trim(),
  email: d.email.trim() || null,
  phone: d.phone.trim() || null,
  permissions: d.permissions,
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
  const entity = useContact(company, contactId, !isNew && Number.isSafeInteger(contactId));
  // Here, not in the form: "Saved." stays when a new contact's form gives way to the created one's.
  const [saved, setSaved] = useState(false);
  usePageTitle(isNew ? t('people.newContact') : (entity.data?.referentName ?? t('people.contact')));
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
        <ContactForm
          key={isNew ? 'new' : contactId}
          companyId={companyId}
          contact={isNew ? null : (entity.data ?? null)}
          saved={saved}
          setSaved={setSaved}
        />
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

/**
 * The contact's details and permissions (`contact` null: a new one of `companyId`), by the change
 * route's rules (a name of 1 to 500 characters); the stored contact until the admin changes something.
 */
function ContactForm({
  companyId,
  contact,
  saved,
  setSaved,
}: {
  companyId: number;
  contact: ContactEntity | null;
  saved: boolean;
  setSaved: (saved: boolean) => void;
}) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const navigate = useNavigate();
  const form = useForm<Draft>({
    initialValues: draftOf(contact ?? undefined),
    onValuesChange: () => setSaved(false),
    validate: validateWith(contactUpdateSchema, contactBody, () => t('auth.requiredField'), /^referentName$/),
  });
  const save = useSaveContact(company, companyId, contact?.contactId ?? null);
  const onSaved = (c: ContactEntity) => {
    form.resetDirty();
    setSaved(true);
    if (!contact)
      void navigate(adminPath(company, 'companies', `${companyId}/contacts/${c.contactId}`), {
        replace: true,
      });
  };
  const { permissions } = form.getValues();
  return (
    <form noValidate onSubmit={form.onSubmit((d) => save.mutate(contactBody(d), { onSuccess: onSaved }))}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={t('people.referentName')}
            {...form.getInputProps('referentName')}
            required
            maxLength={500}
          />
          <TextInput
            label={t('people.email')}
            type="email"
            {...form.getInputProps('email')}
            maxLength={320}
          />
          <TextInput label={t('people.phone')} type="tel" {...form.getInputProps('phone')} maxLength={40} />
        </SimpleGrid>
        <Checkbox.Group
          label={t('people.permissions')}
          description={t('people.permissionsHint')}
          value={permissionFlags.filter((f) => permissions[f])}
          onChange={(on) =>
            form.setFieldValue(
              'permissions',
              Object.fromEntries(permissionFlags.map((f) => [f, on.includes(f)])) as Flags,
            )
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
          <Button type="submit" loading={save.isPending}>
            {contact ? t('people.save') : t('people.create')}
          </Button>
          {saved && !save.isPending && (
            <Text size="sm" c="teal" role="status">
              {t('people.saved')}
            </Text>
          )}
        </Group>
      </Stack>
    </form>
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
  // The user name falls back to the address; both by the invite route's rules.
  const inviteBody = (v: { email: string; userName: string }) => ({
    userName: v.userName.trim() || v.email.trim(),
    email: v.email.trim(),
    contactIds: [contactId],
  });
  const form = useForm({
    initialValues: { email: defaultEmail, userName: '' },
    validate: validateWith(userInviteSchema, inviteBody, (field, body) =>
      field === 'userName'
        ? t('people.userNameSpaces')
        : isBlank(body, field)
          ? t('auth.requiredField')
          : t('appointments.invalidEmail'),
    ),
  });
  const invite = useInviteUser(company);
  return (
    <Modal opened={opened} onClose={onClose} title={t('people.inviteTitle')} centered>
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          invite.mutate(inviteBody(v), {
            onSuccess: () => {
              form.setFieldValue('userName', '');
              onInvited();
              onClose();
            },
          }),
        )}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {t('people.inviteHint')}
          </Text>
          <TextInput
            label={t('people.email')}
            type="email"
            {...form.getInputProps('email')}
            required
            maxLength={320}
            data-autofocus
          />
          <TextInput
            label={t('people.userName')}
            {...form.getInputProps('userName')}
            placeholder={form.getValues().email}
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
            <Button type="submit" loading={invite.isPending}>
              {t('people.invite')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
