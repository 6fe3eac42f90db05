import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SecondFactorAnswer, SessionAnswer } from '@sportello/contracts';
import { isSecondFactor } from '@sportello/contracts/auth-codes';
import { useLogin } from '../../features/auth/api/login';
import { useLogout } from '../../features/auth/api/logout';
import { SecondFactorForm } from '../../features/auth/components/second-factor-form';
import { storage } from '../../lib/storage';
import { fetchMe } from '../../lib/tenant';
import { loginPath } from '../sections';
import { AuthErrorAlert, IdentityField, SignInPasswordField } from '../../ui/auth-fields';

/**
 * An expired session over a page (issue 16): sign in again in a dialog, and the page, with whatever was
 * typed in it, is still there. Signing in as someone else starts that user's session from the top
 * (nothing of this page may show to them).
 */
export function SessionExpiredDialog({
  userName: initialUserName,
  userId,
  company,
  onSignedIn,
}: {
  userName: string;
  userId: number;
  company: string;
  onSignedIn: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const login = useLogin();
  const logout = useLogout();
  const [userName, setUserName] = useState(initialUserName);
  const [password, setPassword] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);

  // An account with two-factor sign-in answers a challenge to the password: the dialog asks for it too.
  const [challenge, setChallenge] = useState<SecondFactorAnswer['secondFactor'] | null>(null);

  const signedIn = async ({ token }: SessionAnswer) => {
    storage.set('token', token);
    const me = await fetchMe().catch(() => null);
    if (me?.id !== userId) {
      queryClient.removeQueries();
      window.location.assign('/');
      return;
    }
    onSignedIn();
    // Whatever failed for want of a session is asked again.
    await queryClient.invalidateQueries();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsSubmitted(true);
    if (!userName.trim() || !password) return;
    login.mutate(
      { userName: userName.trim(), password },
      {
        onSuccess: (answer) => {
          if (isSecondFactor(answer)) {
            setPassword('');
            setChallenge(answer.secondFactor);
          } else void signedIn(answer);
        },
      },
    );
  };

  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      title={t('drafts.sessionTitle')}
      centered
      data-testid="session-expired"
    >
      {challenge ? (
        <SecondFactorForm
          challenge={challenge}
          onSignedIn={(session) => void signedIn(session)}
          onRestart={() => {
            login.reset();
            setIsSubmitted(false);
            setChallenge(null);
          }}
        />
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <Text size="sm">{t('drafts.sessionText')}</Text>
            <AuthErrorAlert error={login.error} t={t} />
            <IdentityField
              kind="userName"
              value={userName}
              onChange={setUserName}
              submitted={isSubmitted}
              t={t}
            />
            <SignInPasswordField
              value={password}
              onChange={setPassword}
              submitted={isSubmitted}
              t={t}
              dataAutofocus
            />
            <Group justify="space-between" gap="sm">
              <Button
                variant="subtle"
                onClick={() => logout.mutate(loginPath(company))}
                disabled={login.isPending}
              >
                {t('common.logout')}
              </Button>
              <Button type="submit" loading={login.isPending}>
                {t('auth.login')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
