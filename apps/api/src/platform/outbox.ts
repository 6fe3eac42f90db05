import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client';
import { outbox } from '../db/schema';
import type { AppContext } from './context';
import { createMailTransport, purgeOutboxFiles, type MailTransport, type SendMeta } from './mail';
import type { ThreadHeaders } from './mail-threading';
import { purgeStale } from './rate-limit';
import { createSmsTransport, type SmsTransport } from './sms';
import { jobBackoffMs, JobRunner, type ClaimRequest, type Settled } from './jobs';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; contentType: string; contentBase64: string }[];
  /** About a ticket: Message-ID, In-Reply-To/References and Reply-To (platform/mail-threading.ts). */
  thread?: ThreadHeaders;
  /** RFC 3834: what a machine sent on its own, so auto-responders leave it unanswered. */
  autoSubmitted?: 'auto-generated' | 'auto-replied';
}

export interface SmsMessage {
  to: string;
  text: string;
}

/** Queues an e-mail in the caller's transaction: it is sent only if that transaction commits. */
export async function enqueueEmail(tx: Tx | Db, message: EmailMessage, now: Date): Promise<void> {
  await tx.insert(outbox).values({ channel: 'email', payload: message, createdAt: now, nextAttemptAt: now });
}

/** Queues an SMS in the caller's transaction. */
export async function enqueueSms(tx: Tx | Db, message: SmsMessage, now: Date): Promise<void> {
  await tx.insert(outbox).values({ channel: 'sms', payload: message, createdAt: now, nextAttemptAt: now });
}

export const OUTBOX_DEFAULTS = {
  pollMs: 1000,
  batchSize: 20,
  /** A claimed row is hidden from other workers this long; a crash mid-send makes it due again after. */
  leaseMs: 5 * 60_000,
  baseBackoffMs: 30_000,
  maxBackoffMs: 3600_000,
  /** After this many failures the row stays unsent with its last error, for a human to look at. */
  maxAttempts: 10,
  /**
   * One send that has not settled after this long counts as failed (and is retried with backoff), so
   * a server that accepts and never answers holds its own channel for at most this long. 0: no limit.
   */
  sendTimeoutMs: 60_000,
  /** A given-up message keeps its body this long for a human to look at, then only to and subject. */
  keepGivenUpMs: 7 * 24 * 3600_000,
  /** Sent rows (already without body) are deleted after this long. */
  keepSentMs: 30 * 24 * 3600_000,
};

/** Delay before the next try after the `failures`-th failure: 30 s, 1 min, 2 min … capped at 1 h. */
export function backoffMs(
  failures: number,
  base = OUTBOX_DEFAULTS.baseBackoffMs,
  cap = OUTBOX_DEFAULTS.maxBackoffMs,
) {
  return jobBackoffMs(failures, { baseBackoffMs: base, maxBackoffMs: cap, jitter: 0 });
}

/**
 * One way out (e-mail, SMS, … a webhook channel is one more entry): the worker runs a loop per
 * channel, so a channel whose server hangs never delays another's messages.
 */
export interface OutboxChannel {
  /** The `outbox.channel` value of its rows. */
  readonly name: string;
  /** How it delivers (for the start log line), e.g. `smtp` or `file`. */
  readonly kind: string;
  send(payload: unknown, meta: SendMeta): Promise<void>;
  close?(): void;
}

export interface OutboxWorkerOptions extends Partial<typeof OUTBOX_DEFAULTS> {
  mail?: MailTransport;
  sms?: SmsTransport;
  /** Further channels, beside e-mail and SMS. */
  channels?: OutboxChannel[];
}

interface ClaimedRow {
  id: number;
  channel: string;
  payload: unknown;
  attempts: number;
}

const workers = new Set<OutboxWorker>();

/** Asks every running worker of this process to look at the outbox now (call it after a commit). */
export function kickOutbox(): void {
  for (const w of workers) w.kick();
}

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/**
 * What a row keeps once its message is out (or given up for good): whom and what it was about, not
 * the body (recovery and invitation links, SMS codes are secrets).
 */
const REDACTED_PAYLOAD = sql`jsonb_strip_nulls(jsonb_build_object(
  'to', payload->'to', 'subject', payload->'subject', 'redacted', true))`;

/**
 * Sends queued messages through the job building block (platform/jobs.ts): each channel is a key of
 * its own, sent one message at a time, so a channel whose server hangs never delays another's
 * messages. Delivery is at least once: a process that dies between sending and recording sends that
 * message again after the lease. A sent message's body is removed at once (see REDACTED_PAYLOAD).
 */
export class OutboxWorker {
  private readonly opts: typeof OUTBOX_DEFAULTS;
  private readonly channels: Map<string, OutboxChannel>;
  private readonly runner: JobRunner<ClaimedRow>;
  private running = false;
  private lastPurge = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    options: OutboxWorkerOptions = {},
  ) {
    const { mail, sms, channels = [], ...rest } = options;
    this.opts = { ...OUTBOX_DEFAULTS, ...rest };
    const mailer = mail ?? createMailTransport(ctx.config, log);
    const texter = sms ?? createSmsTransport(ctx.config, log);
    const builtIn: OutboxChannel[] = [
      {
        name: 'email',
        kind: mailer.kind,
        send: (p, meta) => mailer.send(p as EmailMessage, meta),
        close: () => mailer.close(),
      },
      { name: 'sms', kind: texter.kind, send: (p, meta) => texter.send(p as SmsMessage, meta) },
    ];
    this.channels = new Map([...builtIn, ...channels].map((c) => [c.name, c]));
    const o = this.opts;
    this.runner = new JobRunner<ClaimedRow>(
      {
        name: 'outbox',
        claim: (req) => this.claim(req),
        keyOf: (row) => row.channel,
        attemptsOf: (row) => Number(row.attempts),
        run: (row) => this.send(row),
        record: (settled) => this.record(settled),
      },
      {
        pollMs: o.pollMs,
        batchSize: o.batchSize,
        leaseMs: o.leaseMs,
        concurrency: 64,
        // One message at a time per channel (one SMTP conversation), a batch of them claimed ahead.
        perKey: 1,
        perKeyHeld: o.batchSize,
        timeoutMs: o.sendTimeoutMs,
        baseBackoffMs: o.baseBackoffMs,
        maxBackoffMs: o.maxBackoffMs,
        jitter: 0,
        maxAttempts: o.maxAttempts,
        retryWindowMs: Number.POSITIVE_INFINITY,
      },
      log,
      { now: () => ctx.clock.now() },
    );
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    workers.add(this);
    this.log.info(
      Object.fromEntries([...this.channels.values()].map((c) => [c.name, c.kind])),
      'outbox worker started',
    );
    this.runner.start();
  }

  /** Runs a pass now (or right after the one in flight) instead of at the next tick. */
  kick(): void {
    if (this.running) this.runner.kick();
  }

  /** Stops polling, lets the sends in flight finish, then sends what is due once more. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    workers.delete(this);
    await this.runner.stop();
    try {
      await this.runOnce();
    } catch (err) {
      this.log.error({ err }, 'outbox flush at shutdown failed');
    }
    for (const c of this.channels.values()) c.close?.();
  }

  /** One pass over every channel, waited for. Returns how many rows were claimed in all. */
  runOnce(): Promise<number> {
    return this.runner.runOnce();
  }

  /** Claims due rows of every channel, each channel up to what it may hold. */
  private async claim(req: ClaimRequest): Promise<ClaimedRow[]> {
    await this.housekeeping(req.now);
    const rows = rowsOf<ClaimedRow>(
      await this.ctx.database.db.execute(sql`
        update outbox set next_attempt_at = ${req.leaseUntil.toISOString()}::timestamptz
        where id in (
          select o.id from unnest(${sql.param([...this.channels.keys()])}::text[]) as c(name)
          cross join lateral (
            select id, next_attempt_at from outbox
            where sent_at is null and attempts < ${this.opts.maxAttempts}
              and next_attempt_at <= ${req.now.toISOString()}::timestamptz and channel = c.name
            order by next_attempt_at, id
            limit greatest(0, ${req.perKeyHeld}::int
              - coalesce((${JSON.stringify(req.held)}::jsonb ->> c.name)::int, 0))
            for update skip locked) o
          order by o.next_attempt_at, o.id
          limit ${req.limit}::int)
        returning id, channel, payload, attempts`),
    );
    return rows.sort((a, b) => a.id - b.id);
  }

  private send(row: ClaimedRow): Promise<void> {
    const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
    const meta: SendMeta = { id: row.id, now: this.ctx.clock.now() };
    return this.channels.get(row.channel)!.send(payload, meta);
  }

  private async record(settled: Settled<ClaimedRow, void>[]): Promise<void> {
    const db = this.ctx.database.db;
    for (const s of settled) {
      const row = s.job;
      if (s.ok) {
        await db.execute(sql`
          update outbox set sent_at = ${s.endedAt.toISOString()}::timestamptz, last_error = null,
            payload = ${REDACTED_PAYLOAD}
          where id = ${row.id}`);
        continue;
      }
      // A given-up row keeps its last try's time: its body is dropped keepGivenUpMs after it.
      const next = s.nextAt ?? s.endedAt;
      await db.execute(sql`
        update outbox set attempts = ${s.attempts}, last_error = ${s.message},
          next_attempt_at = ${next.toISOString()}::timestamptz
        where id = ${row.id}`);
      this.log[s.givenUp ? 'error' : 'warn'](
        { outboxId: row.id, channel: row.channel, attempts: s.attempts, err: s.message },
        s.givenUp ? 'outbox message given up after too many failures' : 'outbox message failed, will retry',
      );
    }
  }

  /**
   * Hourly: rate-limit counters older than a day (only read within their window); bodies of messages
   * given up for a week; sent rows older than a month, and the file transport's `.eml` / `.sms.json`
   * files of the same age (they hold the links and codes the rows no longer do).
   */
  private async housekeeping(now: Date): Promise<void> {
    if (now.getTime() - this.lastPurge < 3600_000) return;
    this.lastPurge = now.getTime();
    const db = this.ctx.database.db;
    await purgeStale(db, new Date(now.getTime() - 24 * 3600_000));
    const givenUpBefore = new Date(now.getTime() - this.opts.keepGivenUpMs).toISOString();
    await db.execute(sql`
      update outbox set payload = ${REDACTED_PAYLOAD}
      where sent_at is null and attempts >= ${this.opts.maxAttempts}
        and next_attempt_at < ${givenUpBefore}::timestamptz and not (payload ? 'redacted')`);
    const sentBefore = new Date(now.getTime() - this.opts.keepSentMs);
    await db.execute(sql`delete from outbox where sent_at < ${sentBefore.toISOString()}::timestamptz`);
    purgeOutboxFiles(join(this.ctx.config.DATA_DIR, 'outbox'), sentBefore);
  }
}
