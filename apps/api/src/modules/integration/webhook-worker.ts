/**
 * Delivers webhooks: a loop of its own (never behind the mail/SMS outbox, never inside a request).
 *
 * Runs on the job building block (platform/jobs.ts): a pass claims due deliveries of enabled endpoints
 * with `for update skip locked` and pushes their `next_attempt_at` past a lease in the same statement,
 * so several processes share the work and a crash mid-send only delays a delivery until the lease ends
 * (at least once). Each endpoint is a key of its own, with `perEndpoint` requests at most in flight:
 * a receiver that never answers holds its own slots until the timeout, never another endpoint's, and
 * each outcome is recorded as it ends, not when a batch does. Each message is signed
 * as Standard Webhooks with the `standardwebhooks` package (`webhook-id` = the event id, stable across
 * retries and replays, so receivers can deduplicate): with the endpoint's secret, opened from its
 * sealed form (webhook-secrets.ts), and during a rotation's overlap with the previous one too (two
 * space-separated `v1,` signatures, either of which verifies). A secret this process cannot open
 * sends nothing: the attempt is logged as failed with the reason. Each is sent with a timeout. Failures retry with exponential backoff and jitter until the delivery is
 * `retryWindowMs` old; an endpoint failing without a single success for `disableAfterMs` is disabled
 * and its owner told by e-mail through the outbox. The worker wakes on the events NOTIFY, so delivery
 * follows a commit at once.
 */
import http from 'node:http';
import https from 'node:https';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../../platform/clock';
import type { AppContext } from '../../platform/context';
import { eventSignalOf } from '../../platform/event-signal';
import { jobBackoffMs, JobRunner, type ClaimRequest, type Settled } from '../../platform/jobs';
import { enqueueEmail, kickOutbox } from '../../platform/outbox';
import { isoText, queryRows } from '../../platform/sql-json';
import { purgeOldEvents } from './feed.service';
import { IDEMPOTENCY_TTL_MS, purgeIdempotencyKeys } from '../../platform/idempotency';
import { assertLiteralAllowed, guardedLookup } from './ssrf';
import { sealClearWebhookSecrets, secretBoxOf, unreadableSecretError } from './webhook-secrets';

export const WEBHOOK_DEFAULTS = {
  /** Longest sleep between passes when no NOTIFY comes. */
  pollMs: 1000,
  batchSize: 200,
  /** Requests in flight at once per process. */
  concurrency: 64,
  /** Requests in flight at once to one endpoint (per process). */
  perEndpoint: 8,
  leaseMs: 2 * 60_000,
  baseBackoffMs: 5_000,
  maxBackoffMs: 3600_000,
  /** A delivery is retried this long after it was queued (at least 24 h; default 3 days). */
  retryWindowMs: 3 * 86400_000,
  /** An endpoint with no success for this long is disabled. */
  disableAfterMs: 3 * 86400_000,
  /** Bytes of a receiver's answer kept for the log. */
  maxResponseBytes: 1024,
};

export type WebhookWorkerOptions = Partial<typeof WEBHOOK_DEFAULTS> & {
  /** The worker's own clock (tests run it on real time while the app's clock is fixed). */
  clock?: Clock;
  timeoutMs?: number;
  allowPrivate?: boolean;
};

const JITTER = 0.25;

/** Delay after the `failures`-th failure: base·2^(n−1), capped, with ±25 % jitter. */
export function webhookBackoffMs(failures: number, base: number, cap: number, random = Math.random): number {
  return jobBackoffMs(failures, { baseBackoffMs: base, maxBackoffMs: cap, jitter: JITTER }, random);
}

/** A receiver's answer outside 2xx. */
class StatusError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

interface Claimed {
  id: number;
  endpoint_id: number;
  portal_id: number;
  attempts: number;
  created_at: string;
  url: string;
  secret: string;
  /** The secret before the last rotation, while it still signs. */
  previous_secret: string | null;
  event_id: string;
  body: string;
}

interface Outcome {
  id: number;
  endpoint_id: number;
  ok: boolean;
  status: number | null;
  latency_ms: number;
  error: string | null;
  next_at: string | null;
  give_up: boolean;
}

const workers = new Set<WebhookWorker>();

/** Wakes every webhook worker of this process now. */
export function kickWebhooks(): void {
  for (const w of workers) w.kick();
}

export class WebhookWorker {
  private readonly opts: typeof WEBHOOK_DEFAULTS;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly lookup: ReturnType<typeof guardedLookup>;
  private readonly allowPrivate: boolean;
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly runner: JobRunner<Claimed, number>;
  private running = false;
  private lastHousekeeping = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    options: WebhookWorkerOptions = {},
  ) {
    const { clock, timeoutMs, allowPrivate, ...rest } = options;
    this.opts = { ...WEBHOOK_DEFAULTS, ...rest };
    this.clock = clock ?? ctx.clock;
    this.timeoutMs = timeoutMs ?? ctx.config.WEBHOOK_TIMEOUT_SECONDS * 1000;
    this.allowPrivate = allowPrivate ?? ctx.config.WEBHOOK_ALLOW_PRIVATE;
    this.lookup = guardedLookup(this.allowPrivate);
    this.agents = {
      http: new http.Agent({ keepAlive: true, maxSockets: this.opts.perEndpoint }),
      https: new https.Agent({ keepAlive: true, maxSockets: this.opts.perEndpoint }),
    };
    const o = this.opts;
    const signal = eventSignalOf(ctx.database);
    this.runner = new JobRunner<Claimed, number>(
      {
        name: 'webhooks',
        claim: (req) => this.claim(req),
        keyOf: (row) => Number(row.endpoint_id),
        attemptsOf: (row) => Number(row.attempts),
        createdAtOf: (row) => new Date(row.created_at),
        run: (row) => this.deliver(row),
        record: (settled) => this.record(settled),
      },
      {
        pollMs: o.pollMs,
        batchSize: o.batchSize,
        leaseMs: o.leaseMs,
        concurrency: o.concurrency,
        perKey: o.perEndpoint,
        // Only what can be sent at once is claimed: a delivery never waits its turn under a lease.
        perKeyHeld: o.perEndpoint,
        // The request has its own timeout over the whole exchange (post).
        timeoutMs: 0,
        baseBackoffMs: o.baseBackoffMs,
        maxBackoffMs: o.maxBackoffMs,
        jitter: JITTER,
        maxAttempts: Number.POSITIVE_INFINITY,
        retryWindowMs: o.retryWindowMs,
      },
      log,
      // Wakes on the events NOTIFY: delivery follows a commit at once.
      { now: () => this.clock.now(), wait: (ms) => signal.wait(ms) },
    );
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    workers.add(this);
    this.runner.start();
  }

  kick(): void {
    this.runner.kick();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    workers.delete(this);
    await this.runner.stop();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** One pass: claim, send, record; answers how many were claimed, once all of them ended. */
  runOnce(): Promise<number> {
    return this.runner.runOnce();
  }

  /** Due deliveries of enabled endpoints, each endpoint up to the requests it may still have in flight. */
  private async claim(req: ClaimRequest): Promise<Claimed[]> {
    const now = req.now;
    await this.housekeeping(now);
    return queryRows<Claimed>(
      this.ctx.database.db,
      sql`with due as (
          select d.id from webhook_endpoints w
          cross join lateral (
            select d.id, d.next_attempt_at from webhook_deliveries d
            where d.endpoint_id = w.id and d.delivered_at is null and d.given_up_at is null
              and d.next_attempt_at <= ${now.toISOString()}::timestamptz
            order by d.next_attempt_at, d.id
            limit greatest(0, ${req.perKeyHeld}::int
              - coalesce((${JSON.stringify(req.held)}::jsonb ->> w.id::text)::int, 0))
            for update skip locked) d
          where w.enabled
          order by d.next_attempt_at, d.id
          limit ${req.limit}::int),
        upd as (
          update webhook_deliveries d set next_attempt_at = ${req.leaseUntil.toISOString()}::timestamptz
          from due where d.id = due.id
          returning d.id, d.endpoint_id, d.event_id, d.attempts, d.created_at)
        select u.id, u.endpoint_id, w.portal_id, u.attempts,
          ${sql.raw(isoText('u.created_at'))} as created_at, w.url, w.secret,
          case when w.previous_valid_until > ${now.toISOString()}::timestamptz then w.previous_secret end
            as previous_secret,
          e.id::text as event_id,
          json_build_object('id', 'evt_' || e.id, 'type', e.type,
            'timestamp', ${sql.raw(isoText('e.occurred_at'))}, 'portal', p.key,
            'source', e.source, 'data', e.data)::text as body
        from upd u join webhook_endpoints w on w.id = u.endpoint_id
        join events e on e.id = u.event_id join portals p on p.id = e.portal_id
        order by u.id`,
    );
  }

  /** Signs and POSTs one delivery; answers the receiver's 2xx status, throws otherwise. */
  private async deliver(row: Claimed): Promise<number> {
    const sentAt = this.clock.now();
    const msgId = `evt_${row.event_id}`;
    const signature = this.signatures(row, msgId, sentAt);
    const status = await this.post(row.url, row.body, {
      'content-type': 'application/json',
      'user-agent': 'Sportello-Webhooks/1',
      'webhook-id': msgId,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    });
    if (status < 200 || status >= 300) throw new StatusError(status);
    return status;
  }

  /**
   * `webhook-signature`: the current secret's `v1,…`, after the previous secret's during a rotation's
   * overlap. A current secret this process cannot open throws (the attempt fails with the reason,
   * nothing is sent); a previous one it cannot open is left out.
   */
  private signatures(row: Claimed, msgId: string, sentAt: Date): string {
    const box = secretBoxOf(this.ctx);
    const portalId = Number(row.portal_id);
    const current = box.open(row.secret, portalId);
    // Its reason goes to the endpoint's delivery log; the process log says it hourly (housekeeping).
    if (!current.ok) throw new Error(unreadableSecretError(current.reason));
    const previous = row.previous_secret === null ? undefined : box.open(row.previous_secret, portalId);
    return [previous?.ok ? previous.secret : undefined, current.secret]
      .flatMap((secret) => (secret ? [new Webhook(secret).sign(msgId, sentAt, row.body)] : []))
      .join(' ');
  }

  /** POSTs with a timeout over the whole exchange; answers the status (the body is read and dropped). */
  private post(url: string, body: string, headers: Record<string, string>): Promise<number> {
    const u = new URL(url);
    assertLiteralAllowed(u.hostname, this.allowPrivate);
    const mod = u.protocol === 'https:' ? https : http;
    return new Promise<number>((resolve, reject) => {
      const req = mod.request(
        u,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          agent: u.protocol === 'https:' ? this.agents.https : this.agents.http,
          lookup: this.lookup as never,
          signal: AbortSignal.timeout(this.timeoutMs),
        },
        (res) => {
          let seen = 0;
          res.on('data', (chunk: Buffer) => {
            seen += chunk.length;
            if (seen > this.opts.maxResponseBytes * 64) res.destroy();
          });
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('close', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('error', (e: Error) =>
        reject(e.name === 'AbortError' ? new Error(`timed out after ${this.timeoutMs} ms`) : e),
      );
      req.end(body);
    });
  }

  /**
   * Writes the outcomes that ended together in one statement, then moves the endpoints' failure clocks. An
   * endpoint deleted while its message was on the wire took its deliveries along: their outcomes are
   * dropped rather than failing the batch.
   */
  private async record(settled: Settled<Claimed, number>[]): Promise<void> {
    const outcomes: Outcome[] = settled.map((s) => ({
      id: Number(s.job.id),
      endpoint_id: Number(s.job.endpoint_id),
      ok: s.ok,
      status: s.ok ? s.result : s.error instanceof StatusError ? s.error.status : null,
      latency_ms: s.latencyMs,
      error: s.ok ? null : s.message.slice(0, 500),
      next_at: s.ok ? null : (s.nextAt?.toISOString() ?? null),
      give_up: !s.ok && s.givenUp,
    }));
    const db = this.ctx.database.db;
    const now = this.clock.now();
    await db.execute(sql`with r as (
        select * from json_to_recordset(${JSON.stringify(outcomes)}::json) as x(id bigint, endpoint_id int,
          ok boolean, status int, latency_ms int, error text, next_at timestamptz, give_up boolean)),
      a as (
        insert into webhook_attempts (delivery_id, endpoint_id, attempted_at, status, latency_ms, error)
        select r.id, r.endpoint_id, ${now.toISOString()}::timestamptz, r.status, r.latency_ms, r.error
        from r join webhook_deliveries d on d.id = r.id)
      update webhook_deliveries d set attempts = d.attempts + 1,
        delivered_at = case when r.ok then ${now.toISOString()}::timestamptz end,
        given_up_at = case when r.give_up then ${now.toISOString()}::timestamptz end,
        next_attempt_at = coalesce(r.next_at, d.next_attempt_at),
        last_status = r.status, last_error = r.error
      from r where d.id = r.id`);
    const okIds = [...new Set(outcomes.filter((o) => o.ok).map((o) => o.endpoint_id))];
    const failedIds = [
      ...new Set(outcomes.filter((o) => !o.ok && !okIds.includes(o.endpoint_id)).map((o) => o.endpoint_id)),
    ];
    if (okIds.length > 0)
      await db.execute(sql`update webhook_endpoints set failing_since = null
        where id = any(${sql.param(okIds)}::int[]) and failing_since is not null`);
    if (failedIds.length > 0) await this.noteFailures(failedIds, now);
  }

  /** Starts the failure clock of failing endpoints; disables (and reports) those failing too long. */
  private async noteFailures(endpointIds: number[], now: Date): Promise<void> {
    const db = this.ctx.database.db;
    const cutoff = new Date(now.getTime() - this.opts.disableAfterMs).toISOString();
    const disabled = await db.transaction(async (tx) => {
      await tx.execute(sql`update webhook_endpoints set failing_since = ${now.toISOString()}::timestamptz
        where id = any(${sql.param(endpointIds)}::int[]) and failing_since is null`);
      const rows = await queryRows<{
        id: number;
        url: string;
        notify_email: string | null;
        portal_name: string;
        since: string;
      }>(
        tx,
        sql`update webhook_endpoints w set enabled = false, updated_at = ${now.toISOString()}::timestamptz,
            disabled_reason = 'failing since ' || ${sql.raw(isoText('w.failing_since'))}
          from portals p
          where p.id = w.portal_id and w.id = any(${sql.param(endpointIds)}::int[]) and w.enabled
            and w.failing_since <= ${cutoff}::timestamptz
          returning w.id, w.url, w.notify_email, p.name as portal_name, ${sql.raw(isoText('w.failing_since'))} as since`,
      );
      for (const r of rows) {
        if (!r.notify_email) continue;
        await enqueueEmail(
          tx,
          {
            to: r.notify_email,
            subject: `[${r.portal_name}] Webhook endpoint disabled: ${r.url}`,
            text:
              `The webhook endpoint ${r.url} of the portal ${r.portal_name} failed every delivery since ` +
              `${r.since} and has been disabled.\n\nEvents are still recorded: fix the receiver, enable ` +
              `the endpoint again and replay from your last cursor (docs/integration.md).\n`,
          },
          now,
        );
      }
      return rows;
    });
    for (const r of disabled) this.log.warn({ endpointId: r.id, url: r.url }, 'webhook endpoint disabled');
    if (disabled.length > 0) kickOutbox();
  }

  /**
   * Hourly: events past the retention, idempotency records past their day, and any signing secret still
   * in clear (an older process wrote it during a rolling upgrade) sealed.
   */
  private async housekeeping(now: Date): Promise<void> {
    if (now.getTime() - this.lastHousekeeping < 3600_000) return;
    this.lastHousekeeping = now.getTime();
    const db = this.ctx.database.db;
    const purged = await purgeOldEvents(
      db,
      new Date(now.getTime() - this.ctx.config.EVENT_RETENTION_DAYS * 86400_000),
    );
    await purgeIdempotencyKeys(db, new Date(now.getTime() - IDEMPOTENCY_TTL_MS));
    await sealClearWebhookSecrets(this.ctx, this.log);
    if (purged > 0) this.log.info({ purged }, 'events past the retention deleted');
  }
}
