import { useState, type FormEvent } from 'react';
import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { PASSWORD_MIN_LENGTH } from '@sportello/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiRequestError } from '../../lib/api-client';
import { storage } from '../../lib/storage';
import { ListError } from '../../ui/list-states';
import { useAuthLink } from './api/auth-link';
import type { SecondFactorAnswer, SessionAnswer } from '@sportello/contracts';
import { isSecondFactor } from '@sportello/contracts/auth-codes';
import { SecondFactorForm } from './components/second-factor-form';
import { useConfirmPassword } from './api/confirm';
import { AuthFrame } from '../../ui/auth-frame';
import { AuthErrorAlert, LinkProblem } from '../../ui/auth-fields';
import { checkNewPassword, NewPasswordFields } from '../../ui/new-password-fields';
import { authErrorKey } from '../../lib/auth-errors';
import { usePageTitle } from '../../ui/page-title';

const isLinkProblem = (e: unknown) => e instanceof ApiRequestError && (e.status === 404 || e.status === 410);

/** `/confirm?token=…[&company=…]`: set a password from an invitation or recovery link, then sign in. */
export default function ConfirmPage() {
  const { t } = useTranslation();
  usePageTitle(t('auth.confirmInviteTitle'));
  const [params] = useSearchParams();
  const token = params.get('token');
  const company = params.get('company') ?? storage.get('company');
  const link = useAuthLink(token);

  let body;
  if (!token)
    body = (
      <LinkProblem
        title={t('auth.confirmInviteTitle')}
        text={t('auth.linkMissing')}
        loginTo={loginPathOf(company)}
        t={t}
      />
    );
  else if (link.isPending)
    body = (
      <Stack align="center" py="lg">
        <Title order={1} size="h2">
          {t('auth.confirmInviteTitle')}
        </Title>
        <Loader aria-label={t('common.loading')} />
      </Stack>
    );
  else if (link.isError)
    body = isLinkProblem(link.error) ? (
      <LinkProblem
        title={t('auth.confirmInviteTitle')}
        text={t(authErrorKey(link.error))}
        loginTo={loginPathOf(company)}
        t={t}
      />
    ) : (
      <Stack>
        <Title order={1} size="h2">
          {t('auth.confirmInviteTitle')}
        </Title>
        <ListError onRetry={() => void link.refetch()} />
      </Stack>
    );
  else
    body = (
      <ConfirmForm
        token={token}
        company={company}
        title={
          link.data.purpose === 'recovery' ? t('auth.confirmRecoveryTitle') : t('auth.confirmInviteTitle')
        }
        userName={link.data.userName}
      />
    );
  return <AuthFrame company={company}>{body}</AuthFrame>;
}

const loginPathOf = (company: string | null) =>
  company ? `/${encodeURIComponent(company)}/Login` : '/Login';

function ConfirmForm({
  token,
  company,
  title,
  userName,
}: {
  token: string;
  company: string | null;
  title: string;
  userName: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const mutation = useConfirmPassword();
  const [challenge, setChallenge] = useState<SecondFactorAnswer['secondFactor'] | null>(null);
  const problems = isSubmitted ? checkNewPassword(password, repeat) : {};
  const signedIn = ({ token: session }: SessionAnswer) => {
    storage.setToken(session, false);
    queryClient.removeQueries();
    navigate(company ? `/${encodeURIComponent(company)}` : '/', { replace: true });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsSubmitted(true);
    const found = checkNewPassword(password, repeat);
    if (found.password || found.repeat) return;
    mutation.mutate(
      { token, password, passwordRepeat: repeat },
      {
        // The password is set either way; an account with two-factor sign-in still asks for its factor.
        onSuccess: (answer) =>
          isSecondFactor(answer) ? setChallenge(answer.secondFactor) : signedIn(answer),
      },
    );
  };

  if (challenge)
    return (
      <SecondFactorForm
        challenge={challenge}
        onSignedIn={signedIn}
        onRestart={() => navigate(loginPathOf(company), { replace: true })}
      />
    );

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text size="sm">{t('auth.confirmAccount', { userName })}</Text>
        <AuthErrorAlert error={mutation.error} t={t} values={{ min: PASSWORD_MIN_LENGTH }} />
        <NewPasswordFields
          account={userName}
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
          problems={problems}
          t={t}
        />
        <Button type="submit" loading={mutation.isPending} fullWidth>
          {t('auth.confirm')}
        </Button>
      </Stack>
    </form>
  );
}
