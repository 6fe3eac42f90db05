import { useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  List,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconKey, IconShieldCheck } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@sportello/contracts';
import { formatDate } from '../../../lib/format';
import {
  proofOf,
  usePasskeyAdd,
  usePasskeyRemove,
  useRenewRecoveryCodes,
  useTotpConfirm,
  useTotpDisable,
  useTotpSetup,
} from '../api/two-factor';
import { Outcome, Section } from './section';

/** Two-factor sign-in: the authenticator app, passkeys and the recovery codes. */
export function TwoFactorCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const f = profile.twoFactor;
  const isOn = f.totp || f.passkeys.length > 0;
  // Recovery codes are shown once, right after they are made; they stay on screen until dismissed.
  const [codes, setCodes] = useState<string[] | null>(null);
  const showCodes = (answer: { recoveryCodes?: string[] | undefined } | undefined) => {
    if (answer?.recoveryCodes) setCodes(answer.recoveryCodes);
  };

  return (
    <Section title={t('account.twoFactor.title')} id="account-two-factor">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <IconShieldCheck size={20} aria-hidden style={{ flexShrink: 0 }} />
        <Text size="sm" data-testid="two-factor-state">
          {isOn ? t('account.twoFactor.on') : t('account.twoFactor.off')}
        </Text>
      </Group>
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      <TotpBlock isOn={f.totp} onCodes={showCodes} />
      <PasskeysBlock passkeys={f.passkeys} onCodes={showCodes} />
      {isOn && <RecoveryBlock left={f.recoveryCodesLeft} onCodes={showCodes} />}
    </Section>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" variant="light" title={t('account.recovery.shownOnce')} role="status">
      <Stack gap="sm">
        <Text size="sm">{t('account.recovery.keep')}</Text>
        <List spacing={4} data-testid="recovery-codes" listStyleType="none" ff="monospace">
          {codes.map((c) => (
            <List.Item key={c}>
              <Code>{c}</Code>
            </List.Item>
          ))}
        </List>
        <Group>
          <Button size="xs" variant="default" onClick={onDone}>
            {t('account.recovery.saved')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/**
 * A password (or app code) prompt before a factor is added or removed, or the codes renewed: the server
 * asks for it at each such change (a session alone changes no factor).
 */
function ProofForm({
  label,
  submit,
  onProof,
  isPending,
  error,
  onCancel,
  adds = false,
}: {
  label: string;
  submit: string;
  onProof: (text: string) => void;
  isPending: boolean;
  error: unknown;
  onCancel: () => void;
  /** Adding a factor (not a destructive change): an ordinary button. */
  adds?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (text) onProof(text);
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <PasswordInput
          label={label}
          description={t('account.twoFactor.proofHint')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          autoComplete="current-password"
          autoFocus
          withAsterisk
          visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
        />
        <Outcome error={error} />
        <Group>
          <Button type="submit" {...(adds ? {} : { color: 'red' })} loading={isPending} disabled={!text}>
            {submit}
          </Button>
          <Button variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type OnCodes = (answer: { recoveryCodes?: string[] | undefined } | undefined) => void;

function TotpBlock({ isOn, onCodes }: { isOn: boolean; onCodes: OnCodes }) {
  const { t } = useTranslation();
  const setup = useTotpSetup();
  const confirm = useTotpConfirm();
  const disable = useTotpDisable();
  const [code, setCode] = useState('');
  const [isTurningOff, setIsTurningOff] = useState(false);
  const [isSettingUp, setIsSettingUp] = useState(false);

  const onConfirm = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) return;
    confirm.mutate(code.trim(), {
      onSuccess: (answer) => {
        setup.reset();
        setCode('');
        onCodes(answer);
      },
    });
  };

  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Title order={3} size="h4">
          {t('account.totp.title')}
        </Title>
        {isOn && (
          <Badge color="blue.9" variant="outline">
            {t('account.twoFactor.active')}
          </Badge>
        )}
      </Group>
      <Text size="sm">{t('account.totp.intro')}</Text>
      {isOn ? (
        isTurningOff ? (
          <ProofForm
            label={t('account.twoFactor.proof')}
            submit={t('account.totp.turnOff')}
            isPending={disable.isPending}
            error={disable.error}
            onProof={(text) => disable.mutate(proofOf(text), { onSuccess: () => setIsTurningOff(false) })}
            onCancel={() => {
              disable.reset();
              setIsTurningOff(false);
            }}
          />
        ) : (
          <Group>
            <Button variant="default" onClick={() => setIsTurningOff(true)}>
              {t('account.totp.turnOff')}
            </Button>
          </Group>
        )
      ) : setup.data ? (
        <form onSubmit={onConfirm} noValidate>
          <Stack gap="sm">
            <Text size="sm">{t('account.totp.scan')}</Text>
            <QRCodeSVG
              value={setup.data.uri}
              size={176}
              marginSize={2}
              title={t('account.totp.qrTitle')}
              role="img"
              aria-label={t('account.totp.qrTitle')}
              data-testid="totp-qr"
            />
            <Text size="sm">
              {t('account.totp.typeSecret')}{' '}
              <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
                {setup.data.secret}
              </Code>
            </Text>
            <TextInput
              label={t('account.totp.code')}
              description={t('account.login.codeHint')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              withAsterisk
              data-testid="totp-code"
            />
            <Outcome error={confirm.error} />
            <Group>
              <Button type="submit" loading={confirm.isPending} disabled={!/^\d{6}$/.test(code.trim())}>
                {t('account.totp.confirm')}
              </Button>
              <Button variant="default" onClick={() => setup.reset()}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : isSettingUp ? (
        <ProofForm
          label={t('account.twoFactor.proof')}
          submit={t('account.totp.setUp')}
          adds
          isPending={setup.isPending}
          error={setup.error}
          onProof={(text) => setup.mutate(proofOf(text), { onSuccess: () => setIsSettingUp(false) })}
          onCancel={() => {
            setup.reset();
            setIsSettingUp(false);
          }}
        />
      ) : (
        <Group>
          <Button onClick={() => setIsSettingUp(true)}>{t('account.totp.setUp')}</Button>
        </Group>
      )}
    </Stack>
  );
}

function PasskeysBlock({
  passkeys,
  onCodes,
}: {
  passkeys: Profile['twoFactor']['passkeys'];
  onCodes: OnCodes;
}) {
  const { t } = useTranslation();
  const add = usePasskeyAdd();
  const remove = usePasskeyRemove();
  const [name, setName] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  // The name is typed first; the password (or a code) is asked for before the browser makes the key.
  const [isProving, setIsProving] = useState(false);
  const isSupported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) setIsProving(true);
  };
  const onProof = (text: string) =>
    add.mutate(
      { name: name.trim(), proof: proofOf(text) },
      {
        onSuccess: (answer) => {
          setName('');
          setIsProving(false);
          onCodes(answer);
        },
      },
    );

  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        {t('account.passkeys.title')}
      </Title>
      <Text size="sm">{t('account.passkeys.intro')}</Text>
      {passkeys.length > 0 && (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {passkeys.map((p) => (
            <Stack key={p.id} component="li" gap="xs" data-testid="passkey-row">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Group gap="xs" wrap="nowrap">
                  <IconKey size={18} aria-hidden />
                  <Stack gap={0}>
                    <Text fw={600}>{p.name}</Text>
                    <Text size="xs" c="gray.7">
                      {p.lastUsedAt
                        ? t('account.passkeys.used', { date: formatDate(p.lastUsedAt) })
                        : t('account.passkeys.added', { date: formatDate(p.createdAt) })}
                    </Text>
                  </Stack>
                </Group>
                {removing !== p.id && (
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => setRemoving(p.id)}
                    aria-label={t('account.passkeys.removeLabel', { name: p.name })}
                  >
                    {t('account.passkeys.remove')}
                  </Button>
                )}
              </Group>
              {removing === p.id && (
                <ProofForm
                  label={t('account.twoFactor.proof')}
                  submit={t('account.passkeys.remove')}
                  isPending={remove.isPending}
                  error={remove.error}
                  onProof={(text) =>
                    remove.mutate({ id: p.id, proof: proofOf(text) }, { onSuccess: () => setRemoving(null) })
                  }
                  onCancel={() => {
                    remove.reset();
                    setRemoving(null);
                  }}
                />
              )}
            </Stack>
          ))}
        </Stack>
      )}
      {isSupported && isProving ? (
        <ProofForm
          label={t('account.twoFactor.proof')}
          submit={t('account.passkeys.add')}
          adds
          isPending={add.isPending}
          error={add.error}
          onProof={onProof}
          onCancel={() => {
            add.reset();
            setIsProving(false);
          }}
        />
      ) : isSupported ? (
        <form onSubmit={onAdd} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t('account.passkeys.name')}
              description={t('account.passkeys.nameHint')}
              value={name}
              maxLength={60}
              onChange={(e) => setName(e.currentTarget.value)}
              data-testid="passkey-name"
            />
            <Group>
              <Button type="submit" variant="default" disabled={!name.trim()}>
                {t('account.passkeys.add')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Text size="sm" c="gray.7">
          {t('account.passkeys.unsupported')}
        </Text>
      )}
    </Stack>
  );
}

function RecoveryBlock({ left, onCodes }: { left: number; onCodes: OnCodes }) {
  const { t } = useTranslation();
  const renew = useRenewRecoveryCodes();
  const [isAsking, setIsAsking] = useState(false);
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        {t('account.recovery.title')}
      </Title>
      <Text size="sm" data-testid="recovery-left">
        {t('account.recovery.left', { count: left })}
      </Text>
      {isAsking ? (
        <ProofForm
          label={t('account.twoFactor.proof')}
          submit={t('account.recovery.renew')}
          isPending={renew.isPending}
          error={renew.error}
          onProof={(text) =>
            renew.mutate(proofOf(text), {
              onSuccess: (answer) => {
                setIsAsking(false);
                onCodes(answer);
              },
            })
          }
          onCancel={() => {
            renew.reset();
            setIsAsking(false);
          }}
        />
      ) : (
        <Group>
          <Button variant="default" onClick={() => setIsAsking(true)}>
            {t('account.recovery.renew')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
