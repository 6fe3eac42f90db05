import type { FastifyReply, FastifyRequest } from 'fastify';
import { signingRoutes } from '@sportello/contracts';
import type { App, AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { route } from '../../platform/route';
import { getSigningDocument, sendOtp, signDocument, type ClientInfo } from './signing.service';

const clientOf = (req: Pick<FastifyRequest, 'ip' | 'headers'>): ClientInfo => ({
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

export function registerSigningRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, signingRoutes.document, async (req, reply) => {
    // The answer holds a signed file URL and a changing state: never cache it.
    reply.header('Cache-Control', 'no-store');
    return getSigningDocument(ctx, req.params.company, req.params.documentkey, clientOf(req));
  });
  route(app, ctx, signingRoutes.otp, (req, reply) =>
    answering(reply, () => sendOtp(ctx, req.params.company, req.params.documentkey, clientOf(req))),
  );
  route(app, ctx, signingRoutes.sign, (req, reply) =>
    answering(reply, () =>
      signDocument(ctx, req.params.company, req.params.documentkey, req.body ?? {}, clientOf(req)),
    ),
  );
}
