import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Divider, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { SecondFactorAnswer, SessionAnswer } from '@sportello/contracts';
import { ApiRequestError } from '../../../lib/api-client';
import { authErrorKey } from '../../../lib/auth-errors';
import { useFinishWithCode, useFinishWithPasskey } from '../api/second-factor';

/** What went wrong with a second factor, as a translation key. */
function secondFactorErrorKey(error: unknown): string {
  if (error instanceof ApiRequestError) {
    if (error.code === 'wrong_code') return 'account.login.wrongCode';
    if (error.code === 'challenge_expired') return 'account.login.challengeExpired';
    return authErrorKey(error);
  }
  // The browser's own refusal (cancelled, no passkey on this device, timed out).
  return 'account.login.passkeyFailed';
}

/**
 * The second step of a two-factor sign-in: a code of the authenticator app or a recovery code, or a
 * passkey. `onSignedIn` gets the session; `onRestart` goes back to the password (the ticket expired).
 */
export function SecondFactorForm({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: SecondFactorAnswer['secondFactor'];
  onSignedIn: (session: SessionAnswer) => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const withCode = useFinishWithCode();
  const withPasskey = useFinishWithPasskey();
  const error = withCode.error ?? withPasskey.error;
  const isExpired = error instanceof ApiRequestError && error.code === 'challenge_expired';
  const hasApp = challenge.methods.includes('totp');
  const hasPasskey = challenge.methods.includes('passkey');

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsSubmitted(true);
    withPasskey.reset();
    if (!code.trim()) return;
    withCode.mutate({ ticket: challenge.ticket, code: code.trim() }, { onSuccess: onSignedIn });
  };
  const onPasskey = () => {
    withCode.reset();
    withPasskey.mutate(challenge.ticket, { onSuccess: onSignedIn });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('account.login.title')}
        </Title>
        <Text size="sm">{t(hasApp ? 'account.login.intro' : 'account.login.introNoApp')}</Text>
        {error && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {t(secondFactorErrorKey(error))}
          </Alert>
        )}
        {isExpired ? (
          <Button onClick={onRestart}>{t('auth.backToLogin')}</Button>
        ) : (
          <>
            {hasPasskey && (
              <>
                <Button
                  leftSection={<IconKey size={18} aria-hidden />}
                  onClick={onPasskey}
                  loading={withPasskey.isPending}
                  variant={hasApp ? 'default' : 'filled'}
                  fullWidth
                >
                  {t('account.login.usePasskey')}
                </Button>
                <Divider label={t('account.login.or')} labelPosition="center" />
              </>
            )}
            <TextInput
              label={t(hasApp ? 'account.login.code' : 'account.login.recoveryCode')}
              description={hasApp ? t('account.login.codeHint') : undefined}
              name="one-time-code"
              autoComplete="one-time-code"
              inputMode={hasApp ? 'numeric' : 'text'}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={isSubmitted && !code.trim() ? t('auth.requiredField') : undefined}
              withAsterisk
              autoFocus={!hasPasskey}
              data-testid="second-factor-code"
            />
            <Button
              type="submit"
              loading={withCode.isPending}
              fullWidth
              variant={hasPasskey && !hasApp ? 'default' : 'filled'}
            >
              {t('account.login.verify')}
            </Button>
          </>
        )}
        <Anchor component="button" type="button" onClick={onRestart} size="sm" ta="center">
          {t('auth.backToLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}
