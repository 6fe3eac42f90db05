import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Loader, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { confirmRequestSchema, issueCode, PASSWORD_MIN_LENGTH } from '@sportello/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiRequestError } from '../../lib/api-client';
import { storage } from '../../lib/storage';
import { ListError } from '../../ui/list-states';
import { useAuthLink } from './api/auth-link';
import { isSecondFactor, type SecondFactorAnswer, type SessionAnswer } from '@sportello/contracts';
import { SecondFactorForm } from './components/second-factor-form';
import { useConfirmPassword } from './api/confirm';
import { AuthFrame } from '../../ui/auth-frame';
import { authErrorKey } from '../../lib/auth-errors';
import { usePageTitle } from '../../ui/page-title';

/**
 * What is wrong with a new password, as translation keys per field (SPEC A5, B2): the rules of the
 * request schema the server validates with, so both sides count and compare the same way.
 */
export function checkNewPassword(password: string, repeat: string): { password?: string; repeat?: string } {
  const out: { password?: string; repeat?: string } = {};
  const r = confirmRequestSchema.safeParse({ token: '-', password, passwordRepeat: repeat });
  for (const issue of r.error?.issues ?? []) {
    const code = issueCode(issue);
    if (code === 'password_too_short') out.password = 'auth.passwordTooShort';
    if (code === 'passwords_differ') out.repeat = 'auth.passwordsDiffer';
  }
  return out;
}

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
    body = <Problem title={t('auth.confirmInviteTitle')} text={t('auth.linkMissing')} company={company} />;
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
      <Problem title={t('auth.confirmInviteTitle')} text={t(authErrorKey(link.error))} company={company} />
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

function Problem({ title, text, company }: { title: string; text: string; company: string | null }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
        {text}
      </Alert>
      <Anchor component={Link} to={company ? `/${encodeURIComponent(company)}/Login` : '/Login'} size="sm">
        {t('auth.backToLogin')}
      </Anchor>
    </Stack>
  );
}

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
        onRestart={() =>
          navigate(company ? `/${encodeURIComponent(company)}/Login` : '/Login', { replace: true })
        }
      />
    );

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text size="sm">{t('auth.confirmAccount', { userName })}</Text>
        {mutation.isError && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {t(authErrorKey(mutation.error), { min: PASSWORD_MIN_LENGTH })}
          </Alert>
        )}
        {/* Lets password managers file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={userName} readOnly hidden />
        <PasswordInput
          label={t('auth.newPassword')}
          description={t('auth.passwordHint', { min: PASSWORD_MIN_LENGTH })}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={problems.password ? t(problems.password, { min: PASSWORD_MIN_LENGTH }) : undefined}
          withAsterisk
          autoFocus
          visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
        />
        <PasswordInput
          label={t('auth.repeatPassword')}
          autoComplete="new-password"
          value={repeat}
          onChange={(e) => setRepeat(e.currentTarget.value)}
          error={problems.repeat ? t(problems.repeat) : undefined}
          withAsterisk
          visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
        />
        <Button type="submit" loading={mutation.isPending} fullWidth>
          {t('auth.confirm')}
        </Button>
      </Stack>
    </form>
  );
}
