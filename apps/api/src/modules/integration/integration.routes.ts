import { integrationRoutes } from '@sportello/contracts';
import type { FastifyRequest } from 'fastify';
import { registerGuard } from '../../platform/access';
import { requireApiKey, type ApiKeyAccess } from '../../platform/api-keys';
import { sendJsonText } from '../../platform/answer-cache';
import type { App, AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { sendBlob } from '../../platform/file-download';
import { contentDisposition } from '../../platform/files';
import { route } from '../../platform/route';
import { receiveUpload } from '../../platform/uploads';
import { findPortalFile } from './comments.queries';
import { addAgentComment, integrationFileUrl } from './comments.service';
import { feed } from './feed.service';
import { checkIdempotencyKey } from '../../platform/idempotency';
import { registerKeyRoutes } from './keys.routes';
import { registerWebhookRoutes } from './webhooks.routes';

declare module '../../platform/access' {
  interface GuardResults {
    apiKey: ApiKeyAccess;
  }
}

// A live key of some portal holding the route's scope: 401 invalid_api_key, 403 missing_scope.
registerGuard('apiKey', (req, ctx, access) => requireApiKey(req, ctx.database.db, ctx.clock, access.scope));

/** The integration API (docs/integration.md). */
export function registerIntegrationRoutes(app: App, ctx: AppContext): void {
  registerKeyRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);

  route(app, ctx, integrationRoutes.events, async (req, reply, key) =>
    sendJsonText(reply, await feed(ctx, key, req.query)),
  );

  route(app, ctx, integrationRoutes.agentComment, async (req, reply, key) => {
    const idem = checkIdempotencyKey(req.headers['idempotency-key']);
    const answer = await addAgentComment(ctx, key, req.params.ticketid, req.body, idem);
    if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
    return reply.code(answer.status).send(answer.body);
  });

  route(app, ctx, integrationRoutes.uploadFile, async (req, _reply, key) => {
    const file = await receiveUpload(
      req as FastifyRequest,
      ctx,
      { portalId: key.portalId, apiKeyId: key.apiKeyId },
      async (_tx, f) => f,
    );
    const row = await findPortalFile(ctx.database.db, key.portalId, file.id);
    return {
      id: file.id,
      name: file.name,
      contentType: file.contentType,
      size: row?.size ?? 0,
      url: integrationFileUrl(ctx, file.id),
    };
  });

  route(app, ctx, integrationRoutes.file, async (req, reply, key) => {
    const row = await findPortalFile(ctx.database.db, key.portalId, req.params.id);
    if (!row) throw notFound('No file with this id in the portal', 'file_not_found');
    reply
      // Bytes for a program: always a download, never rendered.
      .header('Content-Type', row.contentType)
      .header('Content-Disposition', contentDisposition('attachment', row.name))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', 'private, no-store');
    return sendBlob(req, reply, ctx.fileStore, row);
  });
}
