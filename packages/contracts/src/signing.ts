// Schemas of the signing area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { errorSchema, isoDateTime } from './common';
import { defineRoute } from './route';

export {
  OTP_LENGTH,
  OTP_TTL_SECONDS,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_SECONDS,
  OTP_MAX_PER_HOUR,
  signingErrorCodes,
} from './signing-codes';
export type { SigningErrorCode } from './signing-codes';

/** Error answers of the signing routes: `{code, message}` plus the field the code promises. */
export const signingErrorSchema = errorSchema.extend({
  retryAfterSeconds: z.number().int().optional(),
  attemptsLeft: z.number().int().optional(),
  signedAt: isoDateTime.optional(),
});
export type SigningError = z.infer<typeof signingErrorSchema>;

/** `{company}/{documentkey}`: the key is an unguessable capability, compared exactly (case-sensitive). */
export const signingParamsSchema = z.object({
  company: z.string().min(1).max(40),
  documentkey: z.string().min(1).max(200),
});

/** The state of the latest one-time code, so a reloaded page keeps its countdown. */
export const otpStateSchema = z.object({
  sentAt: isoDateTime,
  expiresAt: isoDateTime,
  /** Not before this instant may another code be sent (60 s after the last one). */
  resendAvailableAt: isoDateTime,
  attemptsLeft: z.number().int(),
});
export type OtpState = z.infer<typeof otpStateSchema>;

/** `GET /api/signing/{company}/{documentkey}` (public): what the signing page shows. */
export const signingDocumentSchema = z.object({
  documentName: z.string(),
  /** The contact's referent name. */
  signerName: z.string(),
  companyName: z.string(),
  webPortalName: z.string(),
  /** True: signing needs a code sent by SMS; false: accepting is enough. */
  requireOtp: z.boolean(),
  hasPhone: z.boolean(),
  /** E.g. `+39 ••• ••• •567`; null without a phone. */
  maskedPhone: z.string().nullable(),
  status: z.enum(['pending', 'signed']),
  signedAt: isoDateTime.nullable(),
  /** Signed, expiring URL of the original while pending, of the signed PDF once signed. */
  documentUrl: z.string(),
  /** Content type of the file behind documentUrl (a PDF shows in an iframe). */
  contentType: z.string(),
  /** After this instant an unsigned request is gone (404); null: no deadline. */
  expiresAt: isoDateTime.nullable(),
  /** The latest code still usable (not replaced, not used); null when none was sent. */
  otp: otpStateSchema.nullable(),
});
export type SigningDocument = z.infer<typeof signingDocumentSchema>;

/** `POST …/otp` → a code is on its way to the contact's phone. */
export const otpSentSchema = z.object({
  sentAt: isoDateTime,
  expiresAt: isoDateTime,
  resendAvailableAt: isoDateTime,
  maskedPhone: z.string(),
});
export type OtpSent = z.infer<typeof otpSentSchema>;

/**
 * `POST …/sign`. Every field is checked by the server, which answers `400 fields_required` ('Please
 * fill in all fields') when `fullName` is blank, `accept` is not true, or the code of an OTP request is
 * missing; so they are optional here, to reach that answer instead of a generic validation error.
 */
export const signRequestSchema = z.object({
  /** The signer types their full name; it is recorded in the audit trail. */
  fullName: z.string().max(200).optional(),
  /** Must be true: the signer accepts the document. */
  accept: z.boolean().optional(),
  /** The 6-digit code of an OTP request. */
  otpCode: z.string().max(20).optional(),
});
export type SignRequest = z.infer<typeof signRequestSchema>;

/** `POST …/sign` → signed: the signed PDF (original pages plus an audit page). */
export const signedAnswerSchema = z.object({
  signedAt: isoDateTime,
  documentUrl: z.string(),
});
export type SignedAnswer = z.infer<typeof signedAnswerSchema>;

// --- Routes (see route.ts) ---

const PUBLIC_NOTE =
  'Public: the unguessable document key is the capability. Unknown keys, keys of another portal and ' +
  'unsigned requests past their expiry all answer the same 404 `document_not_found`.';

export const signingRoutes = {
  document: defineRoute({
    method: 'GET',
    path: '/api/signing/:company/:documentkey',
    params: signingParamsSchema,
    responses: { 200: signingDocumentSchema, 404: signingErrorSchema },
    access: { guard: 'public' },
    tags: ['signing'],
    summary: 'A document to sign: name, signer, state, file URL and the state of the last code',
    description: PUBLIC_NOTE,
  }),
  otp: defineRoute({
    method: 'POST',
    path: '/api/signing/:company/:documentkey/otp',
    params: signingParamsSchema,
    responses: {
      200: otpSentSchema,
      404: signingErrorSchema,
      409: signingErrorSchema,
      429: signingErrorSchema,
    },
    access: { guard: 'public' },
    tags: ['signing'],
    summary: "Send (or resend) a 6-digit code by SMS to the signer's phone on file",
    description:
      `${PUBLIC_NOTE}\n\nA code is valid 10 minutes and replaces the previous one. 409 ` +
      '`otp_resend_too_early` within 60 s of the last code (with `retryAfterSeconds`), 429 `otp_too_many` ' +
      'after 5 codes in an hour, 409 `no_phone` without a phone, 409 `otp_not_required` when acceptance ' +
      'suffices, 409 `already_signed` (with `signedAt`).',
  }),
  sign: defineRoute({
    method: 'POST',
    path: '/api/signing/:company/:documentkey/sign',
    params: signingParamsSchema,
    body: signRequestSchema,
    responses: {
      200: signedAnswerSchema,
      400: signingErrorSchema,
      404: signingErrorSchema,
      409: signingErrorSchema,
    },
    access: { guard: 'public' },
    tags: ['signing'],
    summary: 'Sign: accept the document (and give the code of an OTP request)',
    description:
      `${PUBLIC_NOTE}\n\n400 \`fields_required\` ('Please fill in all fields') when fullName, accept: true ` +
      'or the code is missing; 400 `invalid_otp` (with `attemptsLeft`), `otp_locked` after 5 wrong tries, ' +
      '`otp_expired` after 10 minutes, `otp_not_sent` when no code is pending; 409 `already_signed` ' +
      '(with `signedAt`). On success the answer links the signed PDF (the original pages plus an audit ' +
      "page), which is also filed among the contact's documents.",
  }),
};
