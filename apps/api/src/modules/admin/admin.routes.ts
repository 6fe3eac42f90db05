import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { errorSchema, importDocumentSchema, importResultSchema } from '@sportello/contracts';
import { bearerOf } from '../../platform/auth';
import type { App, AppContext } from '../../platform/context';
import { AppError, unauthorized } from '../../platform/errors';
import { importDocument } from './import.service';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <PORTAL_ADMIN_KEY>`, compared in constant time (equal-length digests). */
export function requireAdminKey(req: FastifyRequest, ctx: AppContext): void {
  const key = ctx.config.PORTAL_ADMIN_KEY;
  if (!key) throw new AppError(503, 'import_disabled', 'Imports are disabled: PORTAL_ADMIN_KEY is not set');
  const given = bearerOf(req);
  if (!given || !timingSafeEqual(digest(given), digest(key))) {
    throw unauthorized('A valid admin key is required', 'unauthorized');
  }
}

export function registerAdminRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/api/admin/import',
    {
      schema: {
        tags: ['admin'],
        summary: 'Import a back-office document (fixture-format.md): all or nothing, idempotent',
        security: [{ bearer: [] }],
        body: importDocumentSchema,
        response: {
          200: importResultSchema,
          400: errorSchema,
          401: errorSchema,
          409: errorSchema,
          503: errorSchema,
        },
      },
      // Checked before the (up to 200 MB) body is read.
      onRequest: async (req) => requireAdminKey(req, ctx),
      // The service validates, so every problem (shape and references) comes back in one answer
      // with document paths; the schema above is for the OpenAPI document.
      validatorCompiler: () => (data: unknown) => ({ value: data }),
    },
    async (req) => ({ imported: await importDocument(ctx, req.body) }),
  );
}
