import { Alert, Anchor, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { authErrorKey } from '../lib/auth-errors';

/**
 * The fields and failure line of the sign-in and recovery forms, shared by the portal's pages, the
 * session-expired dialog and the staff desk's pages (the set-password fields are new-password-fields.tsx:
 * their check is the shared schema, which would bring zod and the contracts' schemas into the sign-in's
 * first load). Each caller passes its own `t`: the desk reads the same keys (`auth.*`) in its own namespace.
 */

/** A sign-in or link request's failure, in words (lib/auth-errors decides the key); nothing without one. */
export function AuthErrorAlert({
  error,
  t,
  values,
}: {
  error: unknown;
  t: TFunction;
  values?: Record<string, unknown>;
}) {
  if (!error) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
      {t(authErrorKey(error), values)}
    </Alert>
  );
}

/** A link that cannot be used (missing, unknown, expired): what happened, and the way back to sign in. */
export function LinkProblem({
  title,
  text,
  loginTo,
  t,
}: {
  title: string;
  text: string;
  loginTo: string;
  t: TFunction;
}) {
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
        {text}
      </Alert>
      <Anchor component={Link} to={loginTo} size="sm">
        {t('auth.backToLogin')}
      </Anchor>
    </Stack>
  );
}

/**
 * The account's name on a sign-in or recovery form: the portal's user name, or the desk's e-mail.
 * Required: marked once the form was submitted empty.
 */
export function IdentityField({
  kind,
  value,
  onChange,
  submitted,
  t,
  autoFocus,
}: {
  kind: 'userName' | 'email';
  value: string;
  onChange: (value: string) => void;
  submitted: boolean;
  t: TFunction;
  autoFocus?: boolean;
}) {
  return (
    <TextInput
      label={t(kind === 'email' ? 'auth.email' : 'auth.userName')}
      name={kind === 'email' ? 'email' : 'username'}
      type={kind === 'email' ? 'email' : undefined}
      autoComplete="username"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={submitted && !value.trim() ? t('auth.requiredField') : undefined}
      withAsterisk
      autoFocus={autoFocus}
    />
  );
}

/** The current password of a sign-in form; required as the identity is. */
export function SignInPasswordField({
  value,
  onChange,
  submitted,
  t,
  dataAutofocus,
}: {
  value: string;
  onChange: (value: string) => void;
  submitted: boolean;
  t: TFunction;
  /** Focus it when a Mantine modal opens (the session-expired dialog knows the user already). */
  dataAutofocus?: boolean;
}) {
  return (
    <PasswordInput
      label={t('auth.password')}
      name="password"
      autoComplete="current-password"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={submitted && !value ? t('auth.requiredField') : undefined}
      withAsterisk
      data-autofocus={dataAutofocus || undefined}
      visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
    />
  );
}
