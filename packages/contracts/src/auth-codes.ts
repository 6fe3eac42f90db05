// The auth area's error codes and the sign-in answer's check: no zod, so the web's sign-in page can use
// them without loading the schemas (auth.ts re-exports both).
import type { LoginAnswer, SecondFactorAnswer } from './auth';

/** Stable error codes of the auth area; the client maps them to translated texts. */
export const authErrorCodes = {
  /** 401, login: 'Wrong username or password' (same answer for unknown users). */
  wrongCredentials: 'wrong_credentials',
  /** 429 with Retry-After (seconds): too many failed logins / recovery requests. */
  tooManyAttempts: 'too_many_attempts',
  /** 401 on any signed-in call: missing token. */
  unauthorized: 'unauthorized',
  /** 401 on any signed-in call: forged, expired or revoked token. */
  invalidToken: 'invalid_token',
  /** 400, confirm: 'Please check the entered passwords'. */
  passwordsDiffer: 'passwords_differ',
  /** 400, confirm / password change: fewer than PASSWORD_MIN_LENGTH characters. */
  passwordTooShort: 'password_too_short',
  /** 400, password change: the current password is wrong. */
  wrongPassword: 'wrong_password',
  /** 410, link check / confirm: the link is past its validity. */
  linkExpired: 'link_expired',
  /** 404, link check / confirm: unknown or already used link. */
  linkInvalid: 'link_invalid',
  /** 401, second factor: the code (authenticator, recovery code) or the passkey is not right. */
  wrongCode: 'wrong_code',
  /** 401, second factor: the sign-in ticket is unknown, used or older than 5 minutes: sign in again. */
  challengeExpired: 'challenge_expired',
} as const;

/** Whether a sign-in answered the ticket of a second factor rather than a session. */
export const isSecondFactor = (a: LoginAnswer): a is SecondFactorAnswer => 'secondFactor' in a;
