import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { AuthFrame } from '../../ui/auth-frame';
import { usePageTitle } from '../../ui/page-title';
import { staffToken, useStaffLogin } from './api/session';
import { useStaffRecovery } from './api/link';
import { useStaffT } from './i18n';
import { afterStaffLogin, staffPath } from './staff-paths';
import { AuthErrorAlert, IdentityField, SignInPasswordField } from '../../ui/auth-fields';

/**
 * `/{portal}/staff/login`: the portal's branded staff sign-in (e-mail and password), or a recovery link
 * (`?recover`). A staff session only: the contact's sign-in, if any, is left as it is.
 */
export default function StaffLoginPage() {
  const { company = '' } = useParams();
  const [params] = useSearchParams();
  const { t } = useStaffT();
  const location = useLocation();
  const from = (location.state as { from?: unknown } | null)?.from;
  // Already signed in (a bookmark of the sign-in page): straight to the desk.
  if (staffToken()) return <Navigate to={afterStaffLogin(from, company)} replace />;
  return (
    <AuthFrame company={company} area={t('desk')} showPrivacyLink={false}>
      {params.has('recover') ? <RecoveryForm company={company} /> : <LoginForm company={company} />}
    </AuthFrame>
  );
}

function LoginForm({ company }: { company: string }) {
  const { t } = useStaffT();
  usePageTitle(t('auth.loginTitle'));
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const login = useStaffLogin();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsSubmitted(true);
    if (!email.trim() || !password) return;
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => {
          const from = (location.state as { from?: unknown } | null)?.from;
          void navigate(afterStaffLogin(from, company), { replace: true });
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('auth.loginTitle')}
        </Title>
        <AuthErrorAlert error={login.error} t={t} />
        <IdentityField
          kind="email"
          value={email}
          onChange={setEmail}
          submitted={isSubmitted}
          t={t}
          autoFocus
        />
        <SignInPasswordField value={password} onChange={setPassword} submitted={isSubmitted} t={t} />
        <Button type="submit" loading={login.isPending} fullWidth>
          {t('auth.login')}
        </Button>
        <Anchor component={Link} to={{ search: '?recover' }} size="sm" ta="center">
          {t('auth.forgotPassword')}
        </Anchor>
      </Stack>
    </form>
  );
}

function RecoveryForm({ company }: { company: string }) {
  const { t } = useStaffT();
  usePageTitle(t('auth.recoveryTitle'));
  const [email, setEmail] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const recovery = useStaffRecovery();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsSubmitted(true);
    if (!email.trim()) return;
    recovery.mutate({ email: email.trim(), company });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('auth.recoveryTitle')}
        </Title>
        {recovery.isSuccess ? (
          <Alert color="green" variant="light" icon={<IconMailCheck aria-hidden />} role="status">
            {t('auth.recoverySent')}
          </Alert>
        ) : (
          <>
            <Text size="sm">{t('auth.recoveryIntro')}</Text>
            <AuthErrorAlert error={recovery.error} t={t} />
            <IdentityField
              kind="email"
              value={email}
              onChange={setEmail}
              submitted={isSubmitted}
              t={t}
              autoFocus
            />
            <Button type="submit" loading={recovery.isPending} fullWidth>
              {t('auth.sendLink')}
            </Button>
          </>
        )}
        <Anchor component={Link} to={staffPath(company, 'login')} size="sm" ta="center">
          {t('auth.backToLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}
