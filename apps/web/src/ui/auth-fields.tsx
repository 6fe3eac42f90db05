import { Alert, Anchor, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { confirmRequestSchema, issueCode, PASSWORD_MIN_LENGTH } from '@sportello/contracts';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { authErrorKey } from '../lib/auth-errors';

/**
 * The fields and failure line of the sign-in, recovery and set-password forms, shared by the portal's
 * pages, the session-expired dialog and the staff desk's pages. Each caller passes its own `t`: the
 * desk reads the same keys (`auth.*`) in its own namespace.
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

export interface NewPasswordProblems {
  password?: string;
  repeat?: string;
}

/**
 * What is wrong with a new password and its repetition, as translation keys: the server's own rules
 * (the shared `confirmRequestSchema`: length in characters, not UTF-16 units; both equal).
 */
export function checkNewPassword(password: string, repeat: string): NewPasswordProblems {
  const out: NewPasswordProblems = {};
  const r = confirmRequestSchema.safeParse({ token: '-', password, passwordRepeat: repeat });
  for (const issue of r.error?.issues ?? []) {
    const code = issueCode(issue);
    if (code === 'password_too_short') out.password = 'auth.passwordTooShort';
    if (code === 'passwords_differ') out.repeat = 'auth.passwordsDiffer';
  }
  return out;
}

/**
 * A new password typed twice (invitation and recovery links), with the account named for password
 * managers. `problems` is `checkNewPassword`'s answer once the form was submitted, else `{}`.
 */
export function NewPasswordFields({
  account,
  password,
  repeat,
  onPassword,
  onRepeat,
  problems,
  t,
}: {
  account: string;
  password: string;
  repeat: string;
  onPassword: (value: string) => void;
  onRepeat: (value: string) => void;
  problems: NewPasswordProblems;
  t: TFunction;
}) {
  return (
    <>
      {/* Lets password managers file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={account} readOnly hidden />
      <PasswordInput
        label={t('auth.newPassword')}
        description={t('auth.passwordHint', { min: PASSWORD_MIN_LENGTH })}
        autoComplete="new-password"
        value={password}
        onChange={(e) => onPassword(e.currentTarget.value)}
        error={problems.password ? t(problems.password, { min: PASSWORD_MIN_LENGTH }) : undefined}
        withAsterisk
        autoFocus
        visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
      />
      <PasswordInput
        label={t('auth.repeatPassword')}
        autoComplete="new-password"
        value={repeat}
        onChange={(e) => onRepeat(e.currentTarget.value)}
        error={problems.repeat ? t(problems.repeat) : undefined}
        withAsterisk
        visibilityToggleButtonProps={{ 'aria-label': t('auth.showPassword') }}
      />
    </>
  );
}
