// From their own zod-free files: the sign-in page's first load carries no schema.
import { authErrorCodes } from '@sportello/contracts/auth-codes';
import { staffErrorCodes } from '@sportello/contracts/staff-errors';
import { ApiRequestError } from './api-client';

/**
 * The translation key of a sign-in or link failure, for the portal and the staff desk alike (each reads
 * it in its own namespace): the server's code decides, the status is the fallback.
 */
export function authErrorKey(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return 'auth.requestFailed';
  switch (error.code) {
    case authErrorCodes.wrongCredentials:
      return 'auth.wrongCredentials';
    case authErrorCodes.tooManyAttempts:
      return 'auth.tooManyAttempts';
    case authErrorCodes.passwordsDiffer:
      return 'auth.passwordsDiffer';
    case authErrorCodes.passwordTooShort:
      return 'auth.passwordTooShort';
    case authErrorCodes.linkExpired:
      return 'auth.linkExpired';
    case authErrorCodes.linkInvalid:
      return 'auth.linkInvalid';
    case staffErrorCodes.staffDisabled:
      return 'auth.disabled';
  }
  if (error.status === 401) return 'auth.wrongCredentials';
  if (error.status === 429) return 'auth.tooManyAttempts';
  if (error.status === 410) return 'auth.linkExpired';
  if (error.status === 404) return 'auth.linkInvalid';
  return 'auth.requestFailed';
}
