/**
 * What a staff member made that outlives them (issue 29, B8): the portal's live API keys and enabled
 * webhook endpoints whose creator they are, and the endpoints made through one of their keys (a key's
 * endpoint sends the portal's events wherever its maker chose). Removing the member, or taking their admin role, lists these
 * and may retire them in the same transaction: keys revoked (both secrets), endpoints disabled, each
 * change audited under the admin who made it, like the same change made by hand.
 */
import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { ApiKey, WebhookEndpoint } from '@sportello/contracts';
import type { Tx } from '../../../db/client';
import { apiKeys, webhookEndpoints } from '../../../db/schema';
import { recordAdminChange, type AdminActor } from '../../../platform/audit';
import type { EmitContext } from '../../../platform/events';
import type { Queryable } from '../../../platform/sql-json';
import { apiKeyAnswer, webhookEndpointAnswer } from './answers';

export interface MadeBy {
  apiKeys: ApiKey[];
  webhookEndpoints: WebhookEndpoint[];
}

/** Why an endpoint retired this way stopped, as its answer and the delivery log show it. */
export const CREATOR_REMOVED_REASON = 'disabled with the removal of the staff admin who made it';

async function rowsMadeBy(db: Queryable, portalId: number, staffUserId: number, lock: boolean) {
  const keys = db
    .select()
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.portalId, portalId),
        eq(apiKeys.createdByStaffId, staffUserId),
        isNull(apiKeys.revokedAt),
      ),
    )
    .orderBy(asc(apiKeys.id));
  const hooks = db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.portalId, portalId),
        eq(webhookEndpoints.enabled, true),
        or(
          eq(webhookEndpoints.createdByStaffId, staffUserId),
          inArray(
            webhookEndpoints.createdByApiKeyId,
            db
              .select({ id: apiKeys.id })
              .from(apiKeys)
              .where(and(eq(apiKeys.portalId, portalId), eq(apiKeys.createdByStaffId, staffUserId))),
          ),
        ),
      ),
    )
    .orderBy(asc(webhookEndpoints.id));
  return {
    keys: lock ? await keys.for('update') : await keys,
    hooks: lock ? await hooks.for('update') : await hooks,
  };
}

/** The live keys and enabled endpoints `staffUserId` made in the portal. */
export async function listMadeBy(
  db: Queryable,
  portalId: number,
  staffUserId: number,
  now: Date,
): Promise<MadeBy> {
  const { keys, hooks } = await rowsMadeBy(db, portalId, staffUserId, false);
  return {
    apiKeys: keys.map(apiKeyAnswer),
    webhookEndpoints: hooks.map((h) => webhookEndpointAnswer(h, now)),
  };
}

/**
 * Revokes the keys and disables the endpoints `staffUserId` made in the portal, in the caller's
 * transaction, each with its audit row and event under `actor`; answers what it retired (as it is now).
 */
export async function retireMadeBy(
  tx: Tx,
  ec: EmitContext,
  actor: AdminActor,
  staffUserId: number,
): Promise<MadeBy> {
  const now = ec.clock.now();
  const { keys, hooks } = await rowsMadeBy(tx, actor.portalId, staffUserId, true);
  const out: MadeBy = { apiKeys: [], webhookEndpoints: [] };
  for (const cur of keys) {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: now, previousSecretHash: null, previousValidUntil: null })
      .where(eq(apiKeys.id, cur.id))
      .returning();
    const after = apiKeyAnswer(row!);
    await recordAdminChange(tx, ec, actor, {
      entity: 'api_key',
      entityId: cur.id,
      action: 'revoked',
      before: apiKeyAnswer(cur),
      after,
    });
    out.apiKeys.push(after);
  }
  for (const cur of hooks) {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: CREATOR_REMOVED_REASON, updatedAt: now })
      .where(eq(webhookEndpoints.id, cur.id))
      .returning();
    const after = webhookEndpointAnswer(row!, now);
    await recordAdminChange(tx, ec, actor, {
      entity: 'webhook_endpoint',
      entityId: cur.id,
      action: 'updated',
      before: webhookEndpointAnswer(cur, now),
      after,
    });
    out.webhookEndpoints.push(after);
  }
  return out;
}
