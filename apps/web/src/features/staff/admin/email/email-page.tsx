import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  ScrollArea,
  NativeSelect,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import {
  mailboxSettingsSchema,
  type InboundEmail,
  type InboundInviteAnswer,
  type InboundStatus,
  type Mailbox,
  type MailboxTest,
} from '@sportello/contracts';
import { ApiRequestError } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/error-text';
import { formatDateTime } from '../../../../lib/format';
import { usePageTitle } from '../../../../ui/page-title';
import { useDesk } from '../../desk-context';
import { useStaffT } from '../../i18n';
import { ConfirmRemove } from '../confirm-remove';
import { QueryStates } from '../query-states';
import { TableScroll } from '../table-scroll';
import { AttachDialog } from './attach-dialog';
import { BounceLine } from './bounce-notice';
import { InviteDialog } from './invite-dialog';
import { isBlank, validateWith } from '../components/contract-form';
import {
  useBounces,
  useDeleteMailbox,
  useDiscardInbound,
  useInbound,
  useInboundRaw,
  useMailbox,
  useSaveMailbox,
  useTestMailbox,
  type MailboxBody,
} from './email-api';

/**
 * E-mail as a channel (issue 26, docs/email.md): the portal's support mailbox (its IMAP settings, Test
 * connection, the reader's state) and the messages read from it that wait for someone: unknown
 * senders, mails a contact may not act on, unreadable ones — each discarded or shown in full.
 */
export default function EmailPage() {
  const { t } = useStaffT();
  usePageTitle(t('admin.sections.email'));
  return (
    <Stack gap="xl">
      <Title order={1} size="h2">
        {t('admin.sections.email')}
      </Title>
      <MailboxPanel />
      <InboundPanel />
      <BouncesPanel />
    </Stack>
  );
}

type Security = Mailbox['imapSecurity'];

interface Form {
  address: string;
  imapHost: string;
  imapPort: number | string;
  imapSecurity: Security;
  imapUser: string;
  password: string;
  folder: string;
  enabled: boolean;
}

const EMPTY: Form = {
  address: '',
  imapHost: '',
  imapPort: 993,
  imapSecurity: 'tls',
  imapUser: '',
  password: '',
  folder: 'INBOX',
  enabled: true,
};
const DEFAULT_PORT: Record<Security, number> = { tls: 993, starttls: 143, none: 143 };

const formOf = (m: Mailbox | null): Form =>
  m
    ? {
        address: m.address,
        imapHost: m.imapHost,
        imapPort: m.imapPort,
        imapSecurity: m.imapSecurity,
        imapUser: m.imapUser,
        password: '',
        folder: m.folder,
        enabled: m.enabled,
      }
    : EMPTY;

function bodyOf(f: Form): MailboxBody {
  return {
    address: f.address.trim(),
    imapHost: f.imapHost.trim(),
    imapPort: Number(f.imapPort) || DEFAULT_PORT[f.imapSecurity],
    imapSecurity: f.imapSecurity,
    imapUser: f.imapUser.trim(),
    folder: f.folder.trim() || 'INBOX',
    enabled: f.enabled,
    // Left empty: the stored password stays.
    ...(f.password ? { password: f.password } : {}),
  };
}

function MailboxPanel() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const query = useMailbox(company);
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('email.mailbox.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('email.mailbox.intro')}
      </Text>
      <QueryStates query={query}>{(data) => <MailboxForm mailbox={data.mailbox} />}</QueryStates>
    </Stack>
  );
}

function MailboxForm({ mailbox }: { mailbox: Mailbox | null }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const [saved, setSaved] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [tested, setTested] = useState<MailboxTest | null>(null);
  // The settings as the save route takes them, checked with its schema before sending.
  const form = useForm<Form>({
    initialValues: formOf(mailbox),
    onValuesChange: () => {
      setSaved(false);
      setTested(null);
    },
    validate: validateWith(mailboxSettingsSchema, bodyOf, (field, body) =>
      isBlank(body, field)
        ? t('auth.requiredField')
        : field === 'address'
          ? t('appointments.invalidEmail')
          : t('newTicket.invalid'),
    ),
  });
  const save = useSaveMailbox(company);
  const remove = useDeleteMailbox(company);
  const test = useTestMailbox(company);
  const submit = form.onSubmit((values) =>
    save.mutate(bodyOf(values), {
      // The form shows what the server kept (the password field empty again).
      onSuccess: (answer) => {
        form.setValues(formOf(answer.mailbox));
        setSaved(true);
      },
    }),
  );
  const runTest = () => {
    setTested(null);
    const { address: _address, enabled: _enabled, ...settings } = bodyOf(form.getValues());
    test.mutate(settings, { onSuccess: setTested });
  };
  const values = form.getValues();
  const saveError =
    save.error instanceof ApiRequestError && save.error.code === 'mailbox_address_taken'
      ? t('email.mailbox.addressTaken')
      : save.error
        ? errorText(save.error, t)
        : null;
  return (
    <form onSubmit={submit} aria-label={t('email.mailbox.title')} noValidate>
      <Stack gap="sm" maw={640}>
        {mailbox && <ReaderState mailbox={mailbox} />}
        <TextInput
          required
          type="email"
          label={t('email.mailbox.address')}
          description={t('email.mailbox.addressHint')}
          {...form.getInputProps('address')}
          maxLength={254}
        />
        <Group grow align="start" wrap="wrap">
          <TextInput
            label={t('email.mailbox.host')}
            placeholder="imap.example.com"
            {...form.getInputProps('imapHost')}
            maxLength={253}
            miw={200}
          />
          <NumberInput
            label={t('email.mailbox.port')}
            {...form.getInputProps('imapPort')}
            min={1}
            max={65535}
            allowDecimal={false}
            allowNegative={false}
            maw={140}
          />
        </Group>
        <NativeSelect
          label={t('email.mailbox.security')}
          value={values.imapSecurity}
          onChange={(e) => {
            const security = e.currentTarget.value as Security;
            // The usual port of the new security, unless another one was typed in.
            const port = Object.values(DEFAULT_PORT).includes(Number(values.imapPort))
              ? DEFAULT_PORT[security]
              : values.imapPort;
            form.setValues({ imapSecurity: security, imapPort: port });
          }}
          data={(['tls', 'starttls', 'none'] as const).map((s) => ({
            value: s,
            label: t(`email.mailbox.securityOption.${s}`),
          }))}
        />
        <TextInput
          label={t('email.mailbox.user')}
          {...form.getInputProps('imapUser')}
          maxLength={320}
          autoComplete="off"
        />
        <PasswordInput
          label={t('email.mailbox.password')}
          description={mailbox?.hasPassword ? t('email.mailbox.passwordKeep') : undefined}
          {...form.getInputProps('password')}
          maxLength={1000}
          autoComplete="new-password"
        />
        <TextInput label={t('email.mailbox.folder')} {...form.getInputProps('folder')} maxLength={200} />
        <Switch
          label={t('email.mailbox.enabled')}
          description={t('email.mailbox.enabledHint')}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        {tested && <TestAnswer answer={tested} />}
        {test.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorText(test.error, t)}
          </Alert>
        )}
        {saveError && (
          <Alert color="red" variant="light" role="alert">
            {saveError}
          </Alert>
        )}
        {saved && (
          <Alert color="teal" variant="light" role="status" withCloseButton onClose={() => setSaved(false)}>
            {t('email.mailbox.saved')}
          </Alert>
        )}
        <Group gap="sm" wrap="wrap">
          <Button type="submit" loading={save.isPending}>
            {t('email.mailbox.save')}
          </Button>
          <Button
            variant="default"
            onClick={runTest}
            loading={test.isPending}
            disabled={!values.imapHost.trim()}
          >
            {t('email.mailbox.test')}
          </Button>
          {mailbox && (
            <Button color="red" variant="light" onClick={() => setRemoving(true)}>
              {t('email.mailbox.delete')}
            </Button>
          )}
        </Group>
      </Stack>
      {removing && (
        <ConfirmRemove
          title={t('email.mailbox.deleteTitle')}
          text={t('email.mailbox.deleteText', { address: mailbox?.address ?? '' })}
          action={t('email.mailbox.delete')}
          cancel={t('email.cancel')}
          remove={() => remove.mutateAsync().then(() => form.setValues(EMPTY))}
          onClose={() => setRemoving(false)}
        />
      )}
    </form>
  );
}

/** The reader's state: when it last finished reading, what went wrong, what a Reply-To looks like. */
function ReaderState({ mailbox }: { mailbox: Mailbox }) {
  const { t } = useStaffT();
  return (
    <Stack gap={4} data-testid="reader-state">
      <Group gap="xs">
        <Badge color={!mailbox.enabled ? 'gray.7' : mailbox.lastError ? 'red.9' : 'teal.9'} variant="filled">
          {!mailbox.enabled
            ? t('email.reader.off')
            : mailbox.lastError
              ? t('email.reader.failing')
              : t('email.reader.on')}
        </Badge>
        <Text size="sm">
          {mailbox.lastReadAt
            ? t('email.reader.lastRead', { when: formatDateTime(mailbox.lastReadAt) })
            : t('email.reader.neverRead')}
        </Text>
      </Group>
      {mailbox.lastError && (
        <Text size="sm" c="red">
          {t('email.reader.lastError', { error: mailbox.lastError })}
        </Text>
      )}
      <Text size="sm" c="dimmed">
        {t('email.reader.replyTo')} <Code>{mailbox.replyToExample}</Code>
      </Text>
    </Stack>
  );
}

/** "Test connection"'s answer, in the desk's words, with the server's own below. */
function TestAnswer({ answer }: { answer: MailboxTest }) {
  const { t } = useStaffT();
  return (
    <Alert
      color={answer.ok ? 'teal' : 'red'}
      variant="light"
      role={answer.ok ? 'status' : 'alert'}
      data-testid="mailbox-test"
      title={
        answer.ok
          ? t('email.test.ok', { count: answer.messages ?? 0 })
          : t(`email.test.${answer.code}`, { defaultValue: t('email.test.error') })
      }
    >
      {!answer.ok && (
        <Text size="xs" c="dimmed">
          {t('email.test.detail', { detail: answer.detail })}
        </Text>
      )}
    </Alert>
  );
}

const LISTS = ['unknown', 'waiting', 'unprocessed'] as const satisfies readonly InboundStatus[];

function InboundPanel() {
  const { t } = useStaffT();
  const [status, setStatus] = useState<(typeof LISTS)[number]>('unknown');
  // Three labels side by side do not fit a phone in every language.
  const narrow = useMediaQuery('(max-width: 36em)');
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('email.inbound.title')}
      </Title>
      <SegmentedControl
        aria-label={t('email.inbound.which')}
        value={status}
        onChange={(v) => setStatus(v as (typeof LISTS)[number])}
        data={LISTS.map((s) => ({ value: s, label: t(`email.inbound.list.${s}`) }))}
        fullWidth
        orientation={narrow ? 'vertical' : 'horizontal'}
        style={{ maxWidth: 560 }}
      />
      <Text size="sm" c="dimmed">
        {t(`email.inbound.hint.${status}`)}
      </Text>
      <InboundList key={status} status={status} />
    </Stack>
  );
}

function InboundList({ status }: { status: InboundStatus }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const query = useInbound(company, status);
  const discard = useDiscardInbound(company);
  const [shown, setShown] = useState<number | null>(null);
  const [attaching, setAttaching] = useState<InboundEmail | null>(null);
  const [inviting, setInviting] = useState<InboundEmail | null>(null);
  const [invited, setInvited] = useState<(InboundInviteAnswer & { address: string }) | null>(null);
  return (
    <>
      {invited && (
        <Alert
          color="green"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel={t('close')}
          onClose={() => setInvited(null)}
          data-testid="invited"
        >
          {t('email.invite.done', { address: invited.address, ticket: invited.entry.ticketId ?? '—' })}
        </Alert>
      )}
      {discard.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorText(discard.error, t)}
        </Alert>
      )}
      <QueryStates
        query={query}
        isEmpty={(d) => d.pages[0]!.items.length === 0}
        empty={t(`email.inbound.empty.${status}`)}
      >
        {(data) => (
          <Stack gap="xs">
            <TableScroll minWidth={760}>
              <Table verticalSpacing="xs" data-testid={`inbound-${status}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('email.inbound.received')}</Table.Th>
                    <Table.Th>{t('email.inbound.sender')}</Table.Th>
                    <Table.Th>{t('email.inbound.subject')}</Table.Th>
                    <Table.Th>{t('email.inbound.reason')}</Table.Th>
                    <Table.Th>{t('email.inbound.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.pages
                    .flatMap((p) => p.items)
                    .map((m) => (
                      <Table.Tr key={m.id}>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.receivedAt)}</Table.Td>
                        <Table.Td>
                          <Text size="sm">{m.fromName || m.fromAddress || '—'}</Text>
                          {m.fromName && (
                            <Text size="xs" c="dimmed">
                              {m.fromAddress}
                            </Text>
                          )}
                          {m.authFailed && (
                            <Text size="xs" c="red.9" fw={700} title={t('email.inbound.authFailedHint')}>
                              {t('email.inbound.authFailed')}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" fw={500}>
                            {m.subject || t('email.inbound.noSubject')}
                          </Text>
                          {m.preview && (
                            <Text size="xs" c="dimmed" lineClamp={2}>
                              {m.preview}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{m.reason ?? '—'}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            {status !== 'unprocessed' && (
                              <Button size="xs" variant="default" onClick={() => setAttaching(m)}>
                                {t('email.attach.action')}
                              </Button>
                            )}
                            {status === 'unknown' && m.fromAddress && (
                              <Button
                                size="xs"
                                variant="default"
                                onClick={() => setInviting(m)}
                                data-testid="invite-sender"
                              >
                                {t('email.invite.action')}
                              </Button>
                            )}
                            <Button size="xs" variant="default" onClick={() => setShown(m.id)}>
                              {t('email.inbound.show')}
                            </Button>
                            <Button
                              size="xs"
                              color="red"
                              variant="light"
                              loading={discard.isPending && discard.variables === m.id}
                              onClick={() => {
                                if (window.confirm(t('email.inbound.discardConfirm', { subject: m.subject })))
                                  discard.mutate(m.id);
                              }}
                            >
                              {t('email.inbound.discard')}
                            </Button>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                </Table.Tbody>
              </Table>
            </TableScroll>
            {query.hasNextPage && (
              <Button
                variant="default"
                onClick={() => void query.fetchNextPage()}
                loading={query.isFetchingNextPage}
                style={{ alignSelf: 'start' }}
              >
                {t('email.inbound.more')}
              </Button>
            )}
          </Stack>
        )}
      </QueryStates>
      {shown !== null && <RawMessage inboundId={shown} onClose={() => setShown(null)} />}
      {attaching && <AttachDialog message={attaching} onClose={() => setAttaching(null)} />}
      {inviting && (
        <InviteDialog
          message={inviting}
          onClose={() => setInviting(null)}
          onInvited={(answer) => {
            setInvited({ ...answer, address: inviting.fromAddress });
            setInviting(null);
          }}
        />
      )}
    </>
  );
}

/** The first characters of the message as received: enough to read its headers and text. */
const RAW_SHOWN = 200_000;

function RawMessage({ inboundId, onClose }: { inboundId: number; onClose: () => void }) {
  const { t } = useStaffT();
  const { company } = useDesk();
  const raw = useInboundRaw(company, inboundId);
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('email.inbound.rawTitle')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {raw.isPending ? (
        <Text size="sm">{t('loading')}</Text>
      ) : raw.isError ? (
        <Alert color="red" variant="light" role="alert">
          {raw.error instanceof ApiRequestError && raw.error.status === 404
            ? t('email.inbound.rawMissing')
            : errorText(raw.error, t)}
        </Alert>
      ) : (
        <Stack gap="xs">
          {raw.data.text.length > RAW_SHOWN && (
            <Text size="xs" c="dimmed">
              {t('email.inbound.rawCut', { size: Math.round(raw.data.size / 1024) })}
            </Text>
          )}
          <ScrollArea.Autosize mah="70vh" type="auto">
            <Code block data-testid="raw-message" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {raw.data.text.slice(0, RAW_SHOWN)}
            </Code>
          </ScrollArea.Autosize>
        </Stack>
      )}
    </Modal>
  );
}

/** The portal's addresses whose mail bounced, newest first, each cleared here or on its contact. */
function BouncesPanel() {
  const { t } = useStaffT();
  const { company } = useDesk();
  const query = useBounces(company);
  return (
    <Stack gap="sm">
      <Title order={2} size="h3">
        {t('email.bounces.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('email.bounces.hint')}
      </Text>
      <QueryStates query={query} isEmpty={(d) => d.items.length === 0} empty={t('email.bounces.empty')}>
        {(data) => (
          <TableScroll minWidth={560}>
            <Table verticalSpacing="xs" data-testid="bounces">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('email.bounces.address')}</Table.Th>
                  <Table.Th>{t('email.bounces.when')}</Table.Th>
                  <Table.Th>{t('email.bounces.reason')}</Table.Th>
                  <Table.Th>{t('email.inbound.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((b) => (
                  <Table.Tr key={b.address}>
                    <Table.Td>{b.address}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(b.bouncedAt)}</Table.Td>
                    <Table.Td>{b.reason || '—'}</Table.Td>
                    <Table.Td>
                      <BounceLine bounce={b} compact />
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
