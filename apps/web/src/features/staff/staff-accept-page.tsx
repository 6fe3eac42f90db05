import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Loader, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { confirmRequestSchema, issueCode, PASSWORD_MIN_LENGTH } from '@sportello/contracts';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiRequestError } from '../../lib/api-client';
import { AuthFrame } from '../../ui/auth-frame';
import { ListError } from '../../ui/list-states';
import { usePageTitle } from '../../ui/page-title';
import { useStaffConfirm, useStaffLink } from './api/link';
import { useStaffT } from './i18n';
import { authErrorKey } from '../../lib/auth-errors';
import { staffPath } from './staff-paths';

/**
 * What is wrong with a new password, as the desk's translation keys per field: the contacts' rules
 * (the staff confirm route applies the same check), read from the shared schema.
 */
export function checkStaffPassword(password: string, repeat: string): { password?: string; repeat?: string } {
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

/** `/{portal}/staff/accept?token=…`: accept an invitation (or use a recovery link): set the password, sign in. */
export default function StaffAcceptPage() {
  const { company = '' } = useParams();
  const { t } = useStaffT();
  const [params] = useSearchParams();
  const token = params.get('token');
  const link = useStaffLink(token);
  const title =
    link.data?.purpose === 'recovery' ? t('auth.acceptRecoveryTitle') : t('auth.acceptInviteTitle');
  usePageTitle(title);

  let body;
  if (!token) body = <Problem title={title} text={t('auth.linkMissing')} company={company} />;
  else if (link.isPending)
    body = (
      <Stack align="center" py="lg">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Loader aria-label={t('loading')} />
      </Stack>
    );
  else if (link.isError)
    body = isLinkProblem(link.error) ? (
      <Problem title={title} text={t(authErrorKey(link.error))} company={company} />
    ) : (
      <Stack>
        <Title order={1} size="h2">
          {title}
        </Title>
        <ListError onRetry={() => void link.refetch()} />
      </Stack>
    );
  else
    body = (
      <AcceptForm
        token={token}
        company={link.data.webPortalKey || company}
        title={title}
        email={link.data.email}
        displayName={link.data.displayName}
      />
    );
  return (
    <AuthFrame company={company} area={t('desk')} showPrivacyLink={false}>
      {body}
    </AuthFrame>
  );
}

function Problem({ title, text, company }: { title: string; text: string; company: string }) {
  const { t } = useStaffT();
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
        {text}
      </Alert>
      <Anchor component={Link} to={staffPath(company, 'login')} size="sm">
        {t('auth.backToLogin')}
      </Anchor>
    </Stack>
  );
}

function AcceptForm({
  token,
  company,
  title,
  email,
  displayName,
}: {
  token: string;
  company: string;
  title: string;
  email: string;
  displayName: string;
}) {
  const { t } = useStaffT();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [isSubmitted, setIsSubmitted] = useState(false);
  const confirm = useStaffConfirm();
  const problems = isSubmitted ? checkStaffPassword(password, repeat) : {};

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsSubmitted(true);
    const found = checkStaffPassword(password, repeat);
    if (found.password || found.repeat) return;
    confirm.mutate(
      { token, password, passwordRepeat: repeat },
      { onSuccess: () => void navigate(staffPath(company), { replace: true }) },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text size="sm">{t('auth.acceptFor', { name: displayName, email })}</Text>
        {confirm.isError && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            {t(authErrorKey(confirm.error), { min: PASSWORD_MIN_LENGTH })}
          </Alert>
        )}
        {/* Lets password managers file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
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
        <Button type="submit" loading={confirm.isPending} fullWidth>
          {t('auth.acceptSubmit')}
        </Button>
      </Stack>
    </form>
  );
}
