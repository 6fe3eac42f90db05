/**
 * Webhook endpoints of a portal (managed with the installation key or a key with the `events` scope),
 * their delivery log, and replay from a feed cursor. Delivery itself is the WebhookWorker's.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type {
  EventType,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
} from '@sportello/contracts';
import { webhookEndpoints } from '../../db/schema';
import type { AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { isoText, queryRows } from '../../platform/sql-json';
import { parseCursor } from './feed.service';
import { assertPublicTarget } from './ssrf';

type Row = typeof webhookEndpoints.$inferSelect;

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function toAnswer(r: Row): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    eventTypes: r.eventTypes as EventType[],
    notifyEmail: r.notifyEmail,
    enabled: r.enabled,
    disabledReason: r.disabledReason,
    failingSince: r.failingSince ? r.failingSince.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
  };
}

const endpointNotFound = () =>
  notFound('No webhook endpoint with this id in the portal', 'webhook_not_found');

async function findEndpoint(ctx: AppContext, portalId: number, id: number): Promise<Row> {
  const [row] = await ctx.database.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.portalId, portalId)));
  if (!row) throw endpointNotFound();
  return row;
}

export async function createEndpoint(
  ctx: AppContext,
  portalId: number,
  body: WebhookEndpointCreate,
): Promise<WebhookEndpoint & { secret: string }> {
  await assertPublicTarget(body.url, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  const now = ctx.clock.now();
  const secret = newWebhookSecret();
  const [row] = await ctx.database.db
    .insert(webhookEndpoints)
    .values({
      portalId,
      url: body.url,
      description: body.description,
      eventTypes: [...new Set(body.eventTypes)],
      secret,
      notifyEmail: body.notifyEmail,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return { ...toAnswer(row!), secret };
}

export async function listEndpoints(ctx: AppContext, portalId: number): Promise<WebhookEndpoint[]> {
  const rows = await ctx.database.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.portalId, portalId))
    .orderBy(asc(webhookEndpoints.id));
  return rows.map(toAnswer);
}

export async function updateEndpoint(
  ctx: AppContext,
  portalId: number,
  id: number,
  body: WebhookEndpointUpdate,
): Promise<WebhookEndpoint> {
  const cur = await findEndpoint(ctx, portalId, id);
  if (body.url !== undefined) await assertPublicTarget(body.url, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  const reenable = body.enabled === true && !cur.enabled;
  const [row] = await ctx.database.db
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
      updatedAt: ctx.clock.now(),
    })
    .where(eq(webhookEndpoints.id, cur.id))
    .returning();
  return toAnswer(row!);
}

export async function deleteEndpoint(ctx: AppContext, portalId: number, id: number): Promise<void> {
  const cur = await findEndpoint(ctx, portalId, id);
  await ctx.database.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, cur.id));
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

/** Queues every kept event after `after` (a feed cursor) that the endpoint subscribes to, again. */
export async function replay(ctx: AppContext, portalId: number, id: number, after: string | undefined) {
  const cur = await findEndpoint(ctx, portalId, id);
  const c = parseCursor(after);
  const now = ctx.clock.now().toISOString();
  const [r] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`with q as (insert into webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
        select w.id, e.id, ${now}::timestamptz, ${now}::timestamptz
        from webhook_endpoints w join events e on e.portal_id = w.portal_id
        where w.id = ${cur.id}::int and (e.xid, e.id) > (${c.xid}::xid8, ${c.id}::bigint)
          and (cardinality(w.event_types) = 0 or e.type = any(w.event_types))
        order by e.xid, e.id
        returning 1)
      select count(*)::int as n from q`,
  );
  return { queued: Number(r?.n ?? 0) };
}
