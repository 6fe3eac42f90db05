import { useState, type FormEvent } from 'react';
import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import { PASSWORD_MIN_LENGTH } from '@sportello/contracts';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiRequestError } from '../../lib/api-client';
import { AuthFrame } from '../../ui/auth-frame';
import { ListError } from '../../ui/list-states';
import { usePageTitle } from '../../ui/page-title';
import { useStaffConfirm, useStaffLink } from './api/link';
import { useStaffT } from './i18n';
import { AuthErrorAlert, LinkProblem } from '../../ui/auth-fields';
import { checkNewPassword, NewPasswordFields } from '../../ui/new-password-fields';
import { authErrorKey } from '../../lib/auth-errors';
import { staffPath } from './staff-paths';

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
  if (!token)
    body = (
      <LinkProblem title={title} text={t('auth.linkMissing')} loginTo={staffPath(company, 'login')} t={t} />
    );
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
      <LinkProblem
        title={title}
        text={t(authErrorKey(link.error))}
        loginTo={staffPath(company, 'login')}
        t={t}
      />
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
  const problems = isSubmitted ? checkNewPassword(password, repeat) : {};

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setIsSubmitted(true);
    const found = checkNewPassword(password, repeat);
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
        <AuthErrorAlert error={confirm.error} t={t} values={{ min: PASSWORD_MIN_LENGTH }} />
        <NewPasswordFields
          account={email}
          password={password}
          repeat={repeat}
          onPassword={setPassword}
          onRepeat={setRepeat}
          problems={problems}
          t={t}
        />
        <Button type="submit" loading={confirm.isPending} fullWidth>
          {t('auth.acceptSubmit')}
        </Button>
      </Stack>
    </form>
  );
}
