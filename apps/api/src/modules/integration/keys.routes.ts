import { accessRoutes, integrationRoutes, type EntityAction } from '@sportello/contracts';
import { recordAdminChange, type AdminActor } from '../../platform/audit';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';
import { createKey, listKeys, revokeKey, rotateKey, type KeyChangeHook } from './keys.service';

/** What the staff guard resolves on a `:company` route (read by shape: modules do not import each other). */
interface StaffAdmin {
  staffUserId: number;
  displayName: string;
  portal: { portalId: number; portalKey: string } | null;
}
function portalOfStaff(s: StaffAdmin) {
  if (!s.portal) throw new Error('staff admin route without :company');
  return s.portal;
}

/**
 * A key change leaves its audit row and its event (the key's answer: never a secret), under whoever
 * made it: a staff admin or the installation key.
 */
const audited =
  (ctx: AppContext, actor: (portalId: number) => AdminActor, action: EntityAction): KeyChangeHook =>
  (tx, c) =>
    recordAdminChange(tx, ctx, actor(c.portalId), {
      entity: 'api_key',
      entityId: c.after.id,
      action,
      before: c.before,
      after: c.after,
    });

const byAdminKey = (portalId: number): AdminActor => ({ type: 'admin_key', portalId });
const byStaff =
  (s: StaffAdmin) =>
  (portalId: number): AdminActor => ({
    type: 'staff',
    staffUserId: s.staffUserId,
    displayName: s.displayName,
    portalId,
  });

/**
 * The portal API keys, over one service: /api/admin/portals/:portal/keys with the installation key, and
 * /api/staff/portals/:company/admin/keys for a staff admin of the portal; every change audited.
 */
export function registerKeyRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, integrationRoutes.createKey, async (req) =>
    createKey(ctx, req.params.portal, req.body, byAdminKey, audited(ctx, byAdminKey, 'created')),
  );
  route(app, ctx, integrationRoutes.listKeys, async (req) => listKeys(ctx, req.params.portal));
  route(app, ctx, integrationRoutes.rotateKey, async (req) =>
    rotateKey(
      ctx,
      req.params.portal,
      req.params.keyId,
      req.body?.graceHours ?? 24,
      audited(ctx, byAdminKey, 'rotated'),
    ),
  );
  route(app, ctx, integrationRoutes.revokeKey, async (req) =>
    revokeKey(ctx, req.params.portal, req.params.keyId, audited(ctx, byAdminKey, 'revoked')),
  );

  const a = accessRoutes;
  route(app, ctx, a.keys, async (_req, _reply, s) => listKeys(ctx, portalOfStaff(s).portalKey));
  route(app, ctx, a.createKey, async (req, _reply, s) =>
    createKey(ctx, portalOfStaff(s).portalKey, req.body, byStaff(s), audited(ctx, byStaff(s), 'created')),
  );
  route(app, ctx, a.rotateKey, async (req, _reply, s) =>
    rotateKey(
      ctx,
      portalOfStaff(s).portalKey,
      req.params.keyId,
      req.body?.graceHours ?? 24,
      audited(ctx, byStaff(s), 'rotated'),
    ),
  );
  route(app, ctx, a.revokeKey, async (req, _reply, s) =>
    revokeKey(ctx, portalOfStaff(s).portalKey, req.params.keyId, audited(ctx, byStaff(s), 'revoked')),
  );
}
