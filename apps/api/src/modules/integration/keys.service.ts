/**
 * Portal API keys, managed with the installation key: create (the secret is answered once), list,
 * rotate (a new secret; the old one keeps working for a grace period), revoke.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { ApiKey, ApiKeyCreate, ApiKeyWithSecret } from '@sportello/contracts';
import { apiKeys, portals } from '../../db/schema';
import type { Db, Tx } from '../../db/client';
import { newApiKeySecret } from '../../platform/api-keys';
import type { AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import type { AdminActor } from '../../platform/audit';
import { apiKeyAnswer, creatorColumns } from './core';

const toAnswer = apiKeyAnswer;

/** The internal id of a portal by its key, or 404. */
export async function portalIdOf(db: Db, portalKey: string): Promise<number> {
  const rows = await db
    .select({ id: portals.id })
    .from(portals)
    .where(eq(portals.key, portalKey.toLowerCase()))
    .limit(1);
  if (!rows[0]) throw notFound('No portal with this key', 'portal_not_found');
  return rows[0].id;
}

/** More of the same change, in its transaction (the desk's audit row and event); never the secret. */
export type KeyChangeHook = (
  tx: Tx,
  c: { portalId: number; before: ApiKey | null; after: ApiKey },
) => Promise<void>;

const keyNotFound = () => notFound('No API key with this id in this portal', 'api_key_not_found');

/** A new key of the portal, made by `actor` (recorded on the key: removing a member lists what they made). */
export async function createKey(
  ctx: AppContext,
  portalKey: string,
  body: ApiKeyCreate,
  actor: (portalId: number) => AdminActor,
  within?: KeyChangeHook,
): Promise<ApiKeyWithSecret> {
  const db = ctx.database.db;
  const portalId = await portalIdOf(db, portalKey);
  const { secret, prefix, hash } = newApiKeySecret();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({
        portalId,
        name: body.name,
        prefix,
        secretHash: hash,
        scopes: [...new Set(body.scopes)],
        createdAt: ctx.clock.now(),
        ...creatorColumns(actor(portalId)),
      })
      .returning();
    const after = toAnswer(row!);
    await within?.(tx, { portalId, before: null, after });
    return { ...after, secret };
  });
}

export async function listKeys(ctx: AppContext, portalKey: string): Promise<ApiKey[]> {
  const db = ctx.database.db;
  const portalId = await portalIdOf(db, portalKey);
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.portalId, portalId)).orderBy(asc(apiKeys.id));
  return rows.map(toAnswer);
}

/**
 * A new secret for the key. The current one becomes the previous one, valid `graceHours` more (0: at
 * once invalid); a secret two rotations old stops working now.
 */
export async function rotateKey(
  ctx: AppContext,
  portalKey: string,
  keyId: number,
  graceHours: number,
  within?: KeyChangeHook,
): Promise<ApiKeyWithSecret> {
  const db = ctx.database.db;
  const portalId = await portalIdOf(db, portalKey);
  const now = ctx.clock.now();
  const { secret, prefix, hash } = newApiKeySecret();
  return db.transaction(async (tx) => {
    const [cur] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.portalId, portalId)))
      .for('update');
    if (!cur || cur.revokedAt) throw keyNotFound();
    const [row] = await tx
      .update(apiKeys)
      .set({
        prefix,
        secretHash: hash,
        previousSecretHash: graceHours > 0 ? cur.secretHash : null,
        previousValidUntil: graceHours > 0 ? new Date(now.getTime() + graceHours * 3600_000) : null,
        rotatedAt: now,
      })
      .where(eq(apiKeys.id, cur.id))
      .returning();
    const after = toAnswer(row!);
    await within?.(tx, { portalId, before: toAnswer(cur), after });
    return { ...after, secret };
  });
}

/** Revokes the key (both secrets) at once; revoking a revoked key answers it unchanged. */
export async function revokeKey(
  ctx: AppContext,
  portalKey: string,
  keyId: number,
  within?: KeyChangeHook,
): Promise<ApiKey> {
  const db = ctx.database.db;
  const portalId = await portalIdOf(db, portalKey);
  return db.transaction(async (tx) => {
    const [cur] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.portalId, portalId)))
      .for('update');
    if (!cur) throw keyNotFound();
    if (cur.revokedAt) return toAnswer(cur);
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: ctx.clock.now(), previousSecretHash: null, previousValidUntil: null })
      .where(eq(apiKeys.id, cur.id))
      .returning();
    const after = toAnswer(row!);
    await within?.(tx, { portalId, before: toAnswer(cur), after });
    return after;
  });
}
