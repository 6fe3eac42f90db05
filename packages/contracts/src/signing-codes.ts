// The signing area's code limits and error codes: no zod, so the web's signing page can use them without
// loading the schemas (signing.ts re-exports them).

/** SPEC B3: the one-time code and its limits. */
export const OTP_LENGTH = 6;
export const OTP_TTL_SECONDS = 10 * 60;
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_RESEND_SECONDS = 60;
export const OTP_MAX_PER_HOUR = 5;

/** Stable error codes of the signing area; the client maps them to translated texts. */
export const signingErrorCodes = {
  /** 404: unknown key, a key of another portal, or an unsigned request past its expiry (one answer for all). */
  documentNotFound: 'document_not_found',
  /** 409 on send-code: the contact has no phone on file ('no phone number provided…'). */
  noPhone: 'no_phone',
  /** 409 on send-code: this request is signed by acceptance alone. */
  otpNotRequired: 'otp_not_required',
  /** 409 on send-code, with `retryAfterSeconds`: a code was sent less than 60 s ago. */
  otpResendTooEarly: 'otp_resend_too_early',
  /** 429 on send-code, with `retryAfterSeconds` (and Retry-After): 5 codes in the last hour. */
  otpTooMany: 'otp_too_many',
  /** 400 on sign: a required field is missing ('Please fill in all fields'). */
  fieldsRequired: 'fields_required',
  /** 400 on sign: no code was sent for this request (or it was replaced); ask for one. */
  otpNotSent: 'otp_not_sent',
  /** 400 on sign, with `attemptsLeft`: wrong code ('Invalid OTP code'). */
  invalidOtp: 'invalid_otp',
  /** 400 on sign: 5 wrong tries on this code; ask for a new one. */
  otpLocked: 'otp_locked',
  /** 400 on sign: the code is older than 10 minutes; ask for a new one. */
  otpExpired: 'otp_expired',
  /** 409 on send-code and sign, with `signedAt`: the document is already signed. */
  alreadySigned: 'already_signed',
} as const;
export type SigningErrorCode = (typeof signingErrorCodes)[keyof typeof signingErrorCodes];
