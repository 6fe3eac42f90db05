// The codes without the schemas: the signing page loads no zod.
import type { SigningError } from '@sportello/contracts';
import { signingErrorCodes as codes } from '@sportello/contracts/signing-codes';
import { ApiRequestError } from '../../lib/api-client';

export interface SigningMessage {
  key: string;
  values?: Record<string, string | number>;
}

/** The translated message of a failed send or sign: the server's code decides. */
export function signingErrorMessage(error: unknown): SigningMessage {
  if (!(error instanceof ApiRequestError)) return { key: 'signing.requestFailed' };
  const body = (error.body ?? {}) as Partial<SigningError>;
  switch (error.code) {
    case codes.fieldsRequired:
      return { key: 'signing.fillAllFields' };
    case codes.invalidOtp:
      if (body.attemptsLeft === undefined) return { key: 'signing.invalidOtp' };
      return body.attemptsLeft === 0
        ? { key: 'signing.invalidOtpNoneLeft' }
        : { key: 'signing.invalidOtpAttempts', values: { count: body.attemptsLeft } };
    case codes.otpLocked:
      return { key: 'signing.otpLocked' };
    case codes.otpExpired:
      return { key: 'signing.otpExpired' };
    case codes.otpNotSent:
      return { key: 'signing.otpNotSent' };
    case codes.noPhone:
      return { key: 'signing.noPhone' };
    case codes.otpResendTooEarly:
      return { key: 'signing.resendTooEarly', values: { seconds: body.retryAfterSeconds ?? 60 } };
    case codes.otpTooMany:
      return {
        key: 'signing.otpTooMany',
        values: { minutes: Math.max(1, Math.ceil((body.retryAfterSeconds ?? 3600) / 60)) },
      };
    case codes.alreadySigned:
      return { key: 'signing.alreadySigned' };
    case codes.documentNotFound:
      return { key: 'signing.notFoundText' };
  }
  return { key: 'signing.requestFailed' };
}

/** Seconds the server asked to wait before another code, when it refused one. */
export function retryAfterOf(error: unknown): number | undefined {
  if (!(error instanceof ApiRequestError)) return undefined;
  const body = (error.body ?? {}) as Partial<SigningError>;
  return error.code === codes.otpResendTooEarly ? body.retryAfterSeconds : undefined;
}
