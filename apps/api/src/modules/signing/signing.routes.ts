import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  otpSentSchema,
  signRequestSchema,
  signedAnswerSchema,
  signingDocumentSchema,
  signingErrorSchema,
  signingParamsSchema,
} from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { getSigningDocument, sendOtp, signDocument, type ClientInfo } from './signing.service';

const clientOf = (req: FastifyRequest): ClientInfo => ({
  ip: req.ip,
  userAgent: String(req.headers['user-agent'] ?? '').slice(0, 1000),
});

/**
 * The shared error handler answers `{code, message}` only; signing errors also carry the one field
 * their code promises (`retryAfterSeconds`, `attemptsLeft`, `signedAt`), so they are answered here.
 */
async function answering<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof AppError) || !e.details || typeof e.details !== 'object' || Array.isArray(e.details))
      throw e;
    const details = e.details as Record<string, unknown>;
    if (typeof details.retryAfterSeconds === 'number')
      reply.header('Retry-After', String(details.retryAfterSeconds));
    return reply.code(e.statusCode).send({ code: e.code, message: e.message, ...details });
  }
}

const tags = ['signing'];
const PUBLIC_NOTE =
  'Public: the unguessable document key is the capability. Unknown keys, keys of another portal and ' +
  'unsigned requests past their expiry all answer the same 404 `document_not_found`.';

export function registerSigningRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/signing/:company/:documentkey',
    {
      schema: {
        tags,
        summary: 'A document to sign: name, signer, state, file URL and the state of the last code',
        description: PUBLIC_NOTE,
        params: signingParamsSchema,
        response: { 200: signingDocumentSchema, 404: signingErrorSchema },
      },
    },
    async (req, reply) => {
      // The answer holds a signed file URL and a changing state: never cache it.
      reply.header('Cache-Control', 'no-store');
      return getSigningDocument(ctx, req.params.company, req.params.documentkey);
    },
  );

  app.post(
    '/api/signing/:company/:documentkey/otp',
    {
      schema: {
        tags,
        summary: "Send (or resend) a 6-digit code by SMS to the signer's phone on file",
        description:
          `${PUBLIC_NOTE}\n\nA code is valid 10 minutes and replaces the previous one. 409 ` +
          '`otp_resend_too_early` within 60 s of the last code (with `retryAfterSeconds`), 429 `otp_too_many` ' +
          'after 5 codes in an hour, 409 `no_phone` without a phone, 409 `otp_not_required` when acceptance ' +
          'suffices, 409 `already_signed` (with `signedAt`).',
        params: signingParamsSchema,
        response: {
          200: otpSentSchema,
          404: signingErrorSchema,
          409: signingErrorSchema,
          429: signingErrorSchema,
        },
      },
    },
    async (req, reply) =>
      answering(reply, () => sendOtp(ctx, req.params.company, req.params.documentkey, clientOf(req))),
  );

  app.post(
    '/api/signing/:company/:documentkey/sign',
    {
      schema: {
        tags,
        summary: 'Sign: accept the document (and give the code of an OTP request)',
        description:
          `${PUBLIC_NOTE}\n\n400 \`fields_required\` ('Please fill in all fields') when fullName, accept: true ` +
          'or the code is missing; 400 `invalid_otp` (with `attemptsLeft`), `otp_locked` after 5 wrong tries, ' +
          '`otp_expired` after 10 minutes, `otp_not_sent` when no code is pending; 409 `already_signed` ' +
          '(with `signedAt`). On success the answer links the signed PDF (the original pages plus an audit ' +
          "page), which is also filed among the contact's documents.",
        params: signingParamsSchema,
        body: signRequestSchema,
        response: {
          200: signedAnswerSchema,
          400: signingErrorSchema,
          404: signingErrorSchema,
          409: signingErrorSchema,
        },
      },
    },
    async (req, reply) =>
      answering(reply, () =>
        signDocument(ctx, req.params.company, req.params.documentkey, req.body ?? {}, clientOf(req)),
      ),
  );
}
