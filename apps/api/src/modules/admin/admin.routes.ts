import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { adminRoutes } from '@sportello/contracts';
import { registerGuard } from '../../platform/access';
import { bearerOf } from '../../platform/auth';
import type { App, AppContext } from '../../platform/context';
import { AppError, unauthorized } from '../../platform/errors';
import { route } from '../../platform/route';
import { registerContentRoutes } from './content/content.routes';
import { registerEntityRoutes } from './entities/entities.routes';
import { registerPeopleRoutes } from './people/people.routes';
import { registerSettingsRoutes } from './settings/settings.routes';
import { registerTicketSetupRoutes } from './ticket-setup/ticket-setup.routes';
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

declare module '../../platform/access' {
  interface GuardResults {
    adminKey: null;
  }
}

// The import's guard: checked in the access hook, before the (large) body is read.
registerGuard('adminKey', async (req, ctx) => {
  requireAdminKey(req, ctx);
  return null;
});

export function registerAdminRoutes(app: App, ctx: AppContext): void {
  // The service validates, so every problem (shape and references) comes back in one answer with
  // document paths; the contract's body schema is for the OpenAPI document.
  route(app, ctx, adminRoutes.import, async (req) => ({ imported: await importDocument(ctx, req.body) }), {
    validateBody: false,
  });
  registerEntityRoutes(app, ctx);
  registerContentRoutes(app, ctx);
  registerPeopleRoutes(app, ctx);
  registerSettingsRoutes(app, ctx);
  registerTicketSetupRoutes(app, ctx);
}
