import { ApiRequestError } from '../../lib/api-client';

/** The translation key of an account failure; the caller falls back to errorText for others. */
export function accountErrorKey(error: unknown): string | null {
  if (error instanceof ApiRequestError) {
    switch (error.code) {
      case 'wrong_password':
        return 'account.errors.wrongPassword';
      case 'wrong_code':
        return 'account.errors.wrongCode';
      case 'email_unchanged':
        return 'account.errors.emailUnchanged';
      case 'no_pending_enrolment':
        return 'account.errors.noPendingEnrolment';
      case 'passkey_exists':
        return 'account.errors.passkeyExists';
      case 'too_many_attempts':
        return 'auth.tooManyAttempts';
      case 'password_too_short':
        return 'auth.passwordTooShort';
      case 'validation_error':
        return 'account.errors.invalid';
      case 'link_invalid':
        return 'auth.linkInvalid';
      case 'link_expired':
        return 'account.errors.linkExpired';
    }
    // No key: the caller's errorText speaks (network, server, throttling, the server's own words).
    return null;
  }
  // The browser refused a passkey (cancelled, not allowed, timed out).
  if (error instanceof Error && error.name !== 'TypeError') return 'account.errors.passkeyFailed';
  return null;
}
