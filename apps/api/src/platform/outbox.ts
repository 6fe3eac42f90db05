import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client';
import { outbox } from '../db/schema';
import type { AppContext } from './context';
import { createMailTransport, purgeOutboxFiles, type MailTransport, type SendMeta } from './mail';
import { purgeStale } from './rate-limit';
import { createSmsTransport, type SmsTransport } from './sms';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; contentType: string; contentBase64: string }[];
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
  return Math.min(cap, base * 2 ** Math.max(0, failures - 1));
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

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  if (!(ms > 0)) return p;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** The polling state of one channel's loop. */
class ChannelLoop {
  timer: NodeJS.Timeout | undefined;
  pass: Promise<number> | undefined;
  again = false;
  constructor(readonly channel: OutboxChannel) {}
}

/**
 * Sends queued messages, one loop per channel. Each pass claims the channel's due rows with
 * `for update skip locked` and moves their `next_attempt_at` past a lease in the same statement, so
 * two processes never take the same row and no transaction stays open while a message is on the
 * wire. Delivery is at least once: a process that dies between sending and recording sends that
 * message again after the lease. A sent message's body is removed at once (see REDACTED_PAYLOAD).
 */
export class OutboxWorker {
  private readonly opts: typeof OUTBOX_DEFAULTS;
  private readonly loops: ChannelLoop[];
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
    this.loops = [...builtIn, ...channels].map((c) => new ChannelLoop(c));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    workers.add(this);
    this.log.info(
      Object.fromEntries(this.loops.map((l) => [l.channel.name, l.channel.kind])),
      'outbox worker started',
    );
    this.kick();
  }

  /** Runs a pass of every channel now (or right after the one in flight) instead of at the next tick. */
  kick(): void {
    if (!this.running) return;
    for (const loop of this.loops) {
      if (loop.pass) {
        loop.again = true;
        continue;
      }
      if (loop.timer) clearTimeout(loop.timer);
      loop.timer = undefined;
      void this.loop(loop);
    }
  }

  private async loop(loop: ChannelLoop): Promise<void> {
    do {
      loop.again = false;
      loop.pass = this.runChannel(loop.channel).catch((err: unknown) => {
        this.log.error({ err, channel: loop.channel.name }, 'outbox pass failed');
        return 0;
      });
      const sent = await loop.pass;
      loop.pass = undefined;
      // A full batch means more may be due: go on without waiting.
      if (sent >= this.opts.batchSize) loop.again = true;
    } while (loop.again && this.running);
    if (this.running) loop.timer = setTimeout(() => void this.loop(loop), this.opts.pollMs);
  }

  /** Stops polling, lets the passes in flight finish, then sends what is due once more. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    workers.delete(this);
    for (const loop of this.loops) {
      if (loop.timer) clearTimeout(loop.timer);
      loop.timer = undefined;
    }
    await Promise.all(this.loops.map((l) => l.pass));
    try {
      await this.runOnce();
    } catch (err) {
      this.log.error({ err }, 'outbox flush at shutdown failed');
    }
    for (const loop of this.loops) loop.channel.close?.();
  }

  /** One pass of every channel, side by side. Returns how many rows were claimed in all. */
  async runOnce(): Promise<number> {
    const counts = await Promise.all(this.loops.map((l) => this.runChannel(l.channel)));
    return counts.reduce((a, b) => a + b, 0);
  }

  /** One pass of one channel: claims its due rows, sends them one by one, records the outcome. */
  private async runChannel(channel: OutboxChannel): Promise<number> {
    const db = this.ctx.database.db;
    const now = this.ctx.clock.now();
    await this.housekeeping(now);
    const leaseUntil = new Date(now.getTime() + this.opts.leaseMs);
    const claimed = rowsOf<ClaimedRow>(
      await db.execute(sql`
        update outbox set next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
        where id in (
          select id from outbox
          where sent_at is null and attempts < ${this.opts.maxAttempts}
            and next_attempt_at <= ${now.toISOString()}::timestamptz and channel = ${channel.name}
          order by next_attempt_at, id
          limit ${this.opts.batchSize}
          for update skip locked)
        returning id, channel, payload, attempts`),
    ).sort((a, b) => a.id - b.id);
    for (const row of claimed) await this.deliver(channel, row);
    return claimed.length;
  }

  private async deliver(channel: OutboxChannel, row: ClaimedRow): Promise<void> {
    const db = this.ctx.database.db;
    const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
    const meta: SendMeta = { id: row.id, now: this.ctx.clock.now() };
    try {
      await withTimeout(channel.send(payload, meta), this.opts.sendTimeoutMs, `sending ${channel.name}`);
    } catch (err) {
      const failures = Number(row.attempts) + 1;
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      const next = new Date(
        this.ctx.clock.now().getTime() + backoffMs(failures, this.opts.baseBackoffMs, this.opts.maxBackoffMs),
      );
      await db.execute(sql`
        update outbox set attempts = ${failures}, last_error = ${message},
          next_attempt_at = ${next.toISOString()}::timestamptz
        where id = ${row.id}`);
      const giveUp = failures >= this.opts.maxAttempts;
      this.log[giveUp ? 'error' : 'warn'](
        { outboxId: row.id, channel: row.channel, attempts: failures, err: message },
        giveUp ? 'outbox message given up after too many failures' : 'outbox message failed, will retry',
      );
      return;
    }
    await db.execute(sql`
      update outbox set sent_at = ${this.ctx.clock.now().toISOString()}::timestamptz, last_error = null,
        payload = ${REDACTED_PAYLOAD}
      where id = ${row.id}`);
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
