import { PasswordInput } from '@mantine/core';
import { confirmRequestSchema, issueCode, PASSWORD_MIN_LENGTH } from '@sportello/contracts';
import type { TFunction } from 'i18next';

/**
 * The set-password fields of the invitation and recovery links, apart from auth-fields.tsx: their check
 * is the server's own schema (zod), which the sign-in page must not load.
 */

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
