import { useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH, type Profile } from '@sportello/contracts';
import { applyLanguage, isLanguage, LANGUAGES } from '../../i18n';
import { useTenant } from '../../lib/tenant';
import { ListError } from '../../ui/list-states';
import { usePageTitle } from '../../ui/page-title';
import { useRequestEmailChange } from './api/email';
import { useChangePassword } from './api/password';
import { profileQuery, useUpdateProfile } from './api/profile';
import { SessionsCard } from './components/sessions-card';
import { TwoFactorCard } from './components/two-factor-card';
import { Outcome, Section } from './components/section';

/** `/{company}/{contactid}/profile`: the signed-in user's own account (issue 16, part 6). */
export default function ProfilePage() {
  const { t } = useTranslation();
  usePageTitle(t('account.title'));
  const profile = useQuery(profileQuery());
  return (
    <Stack gap="lg" maw={760}>
      <Title order={1}>{t('account.title')}</Title>
      {profile.isError ? (
        <ListError onRetry={() => void profile.refetch()} />
      ) : !profile.data ? (
        <Text c="dimmed">{t('account.loading')}</Text>
      ) : (
        <>
          <PersonalCard profile={profile.data} />
          <EmailCard profile={profile.data} />
          <PasswordCard userName={profile.data.userName} />
          <TwoFactorCard profile={profile.data} />
          <SessionsCard />
          <NotificationsCard />
        </>
      )}
    </Stack>
  );
}

function PersonalCard({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const [name, setName] = useState(profile.displayName ?? '');
  const [language, setLanguage] = useState<string>(profile.language ?? '');
  const mutation = useUpdateProfile();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const lang = isLanguage(language) ? language : null;
    mutation.mutate(
      { displayName: name.trim() || null, language: lang },
      {
        onSuccess: () => {
          // The chosen language is also this screen's.
          if (lang && lang !== i18n.language) applyLanguage(lang);
        },
      },
    );
  };

  return (
    <Section title={t('account.personal.title')} id="account-personal">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('account.personal.userName')}
            value={profile.userName}
            readOnly
            variant="filled"
          />
          <TextInput
            label={t('account.personal.displayName')}
            description={t('account.personal.displayNameHint')}
            value={name}
            maxLength={80}
            onChange={(e) => setName(e.currentTarget.value)}
            autoComplete="name"
          />
          <Select
            label={t('account.personal.language')}
            description={t('account.personal.languageHint')}
            data={[
              { value: '', label: t('account.personal.portalLanguage') },
              ...LANGUAGES.map((l) => ({ value: l.value, label: l.label })),
            ]}
            value={language}
            onChange={(v) => setLanguage(v ?? '')}
            allowDeselect={false}
            data-testid="profile-language"
          />
          <Outcome error={mutation.error} success={mutation.isSuccess ? t('account.saved') : null} />
          <Group>
            <Button type="submit" loading={mutation.isPending}>
              {t('account.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function EmailCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const mutation = useRequestEmailChange();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) return;
    mutation.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => {
          setPassword('');
          setEmail('');
        },
      },
    );
  };

  return (
    <Section title={t('account.email.title')} id="account-email">
      <Text size="sm">
        {profile.email ? t('account.email.current', { email: profile.email }) : t('account.email.none')}
      </Text>
      {profile.pendingEmail && (
        <Alert color="blue" variant="light" role="status">
          {t('account.email.pending', { email: profile.pendingEmail })}
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            type="email"
            label={t('account.email.new')}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            autoComplete="email"
            withAsterisk
          />
          <PasswordInput
            label={t('account.currentPassword')}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            autoComplete="current-password"
            withAsterisk
            visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
          />
          <Text size="xs" c="gray.7">
            {t('account.email.hint')}
          </Text>
          <Outcome error={mutation.error} success={mutation.isSuccess ? t('account.email.sent') : null} />
          <Group>
            <Button type="submit" loading={mutation.isPending} disabled={!email.trim() || !password}>
              {t('account.email.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function PasswordCard({ userName }: { userName: string }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const mutation = useChangePassword();
  const isShort = next.length > 0 && [...next].length < PASSWORD_MIN_LENGTH;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!current || isShort || !next) return;
    mutation.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
        },
      },
    );
  };

  return (
    <Section title={t('account.password.title')} id="account-password">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <input type="text" name="username" autoComplete="username" value={userName} readOnly hidden />
          <PasswordInput
            label={t('account.currentPassword')}
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            autoComplete="current-password"
            withAsterisk
            visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
          />
          <PasswordInput
            label={t('auth.newPassword')}
            description={t('auth.passwordHint', { min: PASSWORD_MIN_LENGTH })}
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            autoComplete="new-password"
            error={isShort ? t('auth.passwordTooShort', { min: PASSWORD_MIN_LENGTH }) : undefined}
            withAsterisk
            visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
          />
          <Text size="xs" c="gray.7">
            {t('account.password.hint')}
          </Text>
          <Outcome
            error={mutation.error}
            success={mutation.isSuccess ? t('account.password.changed') : null}
          />
          <Group>
            <Button type="submit" loading={mutation.isPending} disabled={!current || !next}>
              {t('account.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

/** Notification choices live on their own screen (built with the notifications). */
function NotificationsCard() {
  const { t } = useTranslation();
  const { company } = useTenant();
  return (
    <Section title={t('account.notifications.title')} id="account-notifications">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconBell size={20} aria-hidden />
        <Text size="sm">
          {t('account.notifications.text')}{' '}
          <Anchor component={Link} to={`/${encodeURIComponent(company)}/Notifications`} underline="always">
            {t('account.notifications.link')}
          </Anchor>
        </Text>
      </Group>
    </Section>
  );
}
