/**
 * Webhook endpoints of a portal (managed by a staff admin, with the installation key or a key with the
 * `events` scope), their delivery log, replay from a feed cursor and rotation of the signing secret.
 * Every change writes its audit row and emits `webhook_endpoint.<action>` in its transaction (the
 * endpoint's public answer: never a secret). Delivery itself is the WebhookWorker's.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type {
  EntityAction,
  EventType,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookEndpointWithSecret,
} from '@sportello/contracts';
import type { Tx } from '../../db/client';
import { apiKeys, webhookEndpoints } from '../../db/schema';
import { recordAdminChange, type AdminActor } from '../../platform/audit';
import type { AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { isoText, queryRows } from '../../platform/sql-json';
import { parseCursor } from './feed.service';
import { assertPublicTarget } from './ssrf';
import { secretBoxOf } from './webhook-secrets';
import { creatorColumns, webhookEndpointAnswer } from './core';

type Row = typeof webhookEndpoints.$inferSelect;

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const toAnswer = webhookEndpointAnswer;

const endpointNotFound = () =>
  notFound('No webhook endpoint with this id in the portal', 'webhook_not_found');

/** The endpoint of the portal, locked for the change's transaction, or 404. */
async function lockEndpoint(tx: Tx, portalId: number, id: number): Promise<Row> {
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.portalId, portalId)))
    .for('update');
  if (!row) throw endpointNotFound();
  return row;
}

async function findEndpoint(ctx: AppContext, portalId: number, id: number): Promise<Row> {
  const [row] = await ctx.database.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.portalId, portalId)));
  if (!row) throw endpointNotFound();
  return row;
}

const audit = (
  tx: Tx,
  ctx: AppContext,
  actor: AdminActor,
  id: number,
  action: EntityAction,
  before: unknown,
  after: unknown,
) => recordAdminChange(tx, ctx, actor, { entity: 'webhook_endpoint', entityId: id, action, before, after });

/** The name of the key that acts, recorded as the endpoint's creator (it reads the same after a rename). */
async function keyNameOf(tx: Tx, actor: AdminActor): Promise<string | undefined> {
  if (actor.type !== 'api_key') return undefined;
  const [k] = await tx.select({ name: apiKeys.name }).from(apiKeys).where(eq(apiKeys.id, actor.apiKeyId));
  return k?.name;
}

export async function createEndpoint(
  ctx: AppContext,
  actor: AdminActor,
  body: WebhookEndpointCreate,
): Promise<WebhookEndpointWithSecret> {
  await assertPublicTarget(body.url, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  const now = ctx.clock.now();
  const secret = newWebhookSecret();
  return ctx.database.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        portalId: actor.portalId,
        url: body.url,
        description: body.description,
        eventTypes: [...new Set(body.eventTypes)],
        secret: secretBoxOf(ctx).seal(secret, actor.portalId),
        notifyEmail: body.notifyEmail,
        createdAt: now,
        updatedAt: now,
        ...creatorColumns(actor, await keyNameOf(tx, actor)),
      })
      .returning();
    const after = toAnswer(row!, now);
    await audit(tx, ctx, actor, row!.id, 'created', null, after);
    // Deliveries start after the endpoint exists: its own creation is not sent to it.
    await tx.execute(sql`delete from webhook_deliveries where endpoint_id = ${row!.id}::int`);
    return { ...after, secret };
  });
}

export async function listEndpoints(ctx: AppContext, portalId: number): Promise<WebhookEndpoint[]> {
  const rows = await ctx.database.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.portalId, portalId))
    .orderBy(asc(webhookEndpoints.id));
  const now = ctx.clock.now();
  return rows.map((r) => toAnswer(r, now));
}

export async function updateEndpoint(
  ctx: AppContext,
  actor: AdminActor,
  id: number,
  body: WebhookEndpointUpdate,
): Promise<WebhookEndpoint> {
  if (body.url !== undefined) await assertPublicTarget(body.url, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    const cur = await lockEndpoint(tx, actor.portalId, id);
    const reenable = body.enabled === true && !cur.enabled;
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.eventTypes !== undefined ? { eventTypes: [...new Set(body.eventTypes)] } : {}),
        ...(body.notifyEmail !== undefined ? { notifyEmail: body.notifyEmail } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        // Re-enabled (or disabled by hand): the failure clock and reason start afresh.
        ...(body.enabled !== undefined
          ? { disabledReason: body.enabled ? null : 'disabled by the integrator' }
          : {}),
        ...(reenable ? { failingSince: null } : {}),
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, cur.id))
      .returning();
    const before = toAnswer(cur, now);
    const after = toAnswer(row!, now);
    // A change that changes nothing is not one: no audit row, no event.
    if (JSON.stringify(before) !== JSON.stringify(after))
      await audit(tx, ctx, actor, cur.id, 'updated', before, after);
    return after;
  });
}

export async function deleteEndpoint(ctx: AppContext, actor: AdminActor, id: number): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const cur = await lockEndpoint(tx, actor.portalId, id);
    await audit(tx, ctx, actor, cur.id, 'deleted', toAnswer(cur, ctx.clock.now()), null);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, cur.id));
  });
}

/**
 * A new signing secret (answered once). The current one becomes the previous one and goes on signing
 * beside it for `overlapHours` (0: it stops now); a secret two rotations old stops at once.
 */
export async function rotateSecret(
  ctx: AppContext,
  actor: AdminActor,
  id: number,
  overlapHours: number,
): Promise<WebhookEndpointWithSecret> {
  const now = ctx.clock.now();
  const secret = newWebhookSecret();
  return ctx.database.db.transaction(async (tx) => {
    const cur = await lockEndpoint(tx, actor.portalId, id);
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        secret: secretBoxOf(ctx).seal(secret, actor.portalId),
        previousSecret: overlapHours > 0 ? cur.secret : null,
        previousValidUntil: overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3600_000) : null,
        rotatedAt: now,
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, cur.id))
      .returning();
    const after = toAnswer(row!, now);
    await audit(tx, ctx, actor, cur.id, 'rotated', toAnswer(cur, now), after);
    return { ...after, secret };
  });
}

/** The latest attempts (newest first) and how many deliveries wait. */
export async function endpointAttempts(ctx: AppContext, portalId: number, id: number, limit: number) {
  const cur = await findEndpoint(ctx, portalId, id);
  const attempts = await queryRows<{
    event_id: string;
    event_type: EventType;
    attempted_at: string;
    status: number | null;
    latency_ms: number;
    error: string | null;
  }>(
    ctx.database.db,
    sql`select 'evt_' || d.event_id as event_id, e.type as event_type,
        ${sql.raw(isoText('a.attempted_at'))} as attempted_at, a.status, a.latency_ms, a.error
      from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      join events e on e.id = d.event_id
      where a.endpoint_id = ${cur.id}::int order by a.id desc limit ${limit}::int`,
  );
  const [pending] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(*)::int as n from webhook_deliveries
      where endpoint_id = ${cur.id}::int and delivered_at is null and given_up_at is null`,
  );
  return {
    attempts: attempts.map((a) => ({
      eventId: a.event_id,
      eventType: a.event_type,
      attemptedAt: a.attempted_at,
      status: a.status === null ? null : Number(a.status),
      latencyMs: Number(a.latency_ms),
      error: a.error,
    })),
    pending: Number(pending?.n ?? 0),
  };
}

/**
 * Queues every kept event after `after` (a feed cursor) that the endpoint subscribes to, again; the
 * replay's own event is emitted after, so it is not part of what it queued.
 */
export async function replay(ctx: AppContext, actor: AdminActor, id: number, after: string | undefined) {
  const c = parseCursor(after);
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    const cur = await lockEndpoint(tx, actor.portalId, id);
    const [r] = await queryRows<{ n: number }>(
      tx,
      sql`with q as (insert into webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
          select w.id, e.id, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
          from webhook_endpoints w join events e on e.portal_id = w.portal_id
          where w.id = ${cur.id}::int and (e.xid, e.id) > (${c.xid}::xid8, ${c.id}::bigint)
            and (cardinality(w.event_types) = 0 or e.type = any(w.event_types))
          order by e.xid, e.id
          returning 1)
        select count(*)::int as n from q`,
    );
    const queued = Number(r?.n ?? 0);
    await audit(tx, ctx, actor, cur.id, 'replayed', null, {
      ...toAnswer(cur, now),
      replay: { after: after ?? null, queued },
    });
    return { queued };
  });
}
