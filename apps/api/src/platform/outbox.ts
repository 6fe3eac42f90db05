import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client';
import { outbox } from '../db/schema';
import type { AppContext } from './context';
import { createMailTransport, type MailTransport, type SendMeta } from './mail';
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
};

/** Delay before the next try after the `failures`-th failure: 30 s, 1 min, 2 min … capped at 1 h. */
export function backoffMs(
  failures: number,
  base = OUTBOX_DEFAULTS.baseBackoffMs,
  cap = OUTBOX_DEFAULTS.maxBackoffMs,
) {
  return Math.min(cap, base * 2 ** Math.max(0, failures - 1));
}

export interface OutboxWorkerOptions extends Partial<typeof OUTBOX_DEFAULTS> {
  mail?: MailTransport;
  sms?: SmsTransport;
}

interface ClaimedRow {
  id: number;
  channel: 'email' | 'sms';
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
 * Sends queued e-mail and SMS. Each pass claims due rows with `for update skip locked` and moves their
 * `next_attempt_at` past a lease in the same statement, so two processes never take the same row and
 * no transaction stays open while a message is on the wire. Delivery is at least once: a process that
 * dies between sending and recording sends that message again after the lease.
 */
export class OutboxWorker {
  private readonly opts: typeof OUTBOX_DEFAULTS;
  private readonly mail: MailTransport;
  private readonly sms: SmsTransport;
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<number> | undefined;
  private again = false;
  private running = false;
  private lastPurge = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    options: OutboxWorkerOptions = {},
  ) {
    const { mail, sms, ...rest } = options;
    this.opts = { ...OUTBOX_DEFAULTS, ...rest };
    this.mail = mail ?? createMailTransport(ctx.config, log);
    this.sms = sms ?? createSmsTransport(ctx.config, log);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    workers.add(this);
    this.log.info({ mail: this.mail.kind, sms: this.sms.kind }, 'outbox worker started');
    this.kick();
  }

  /** Runs a pass now (or right after the one in flight) instead of waiting for the next tick. */
  kick(): void {
    if (!this.running) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    void this.loop();
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      this.pass = this.runOnce().catch((err: unknown) => {
        this.log.error({ err }, 'outbox pass failed');
        return 0;
      });
      const sent = await this.pass;
      this.pass = undefined;
      // A full batch means more may be due: go on without waiting.
      if (sent >= this.opts.batchSize) this.again = true;
    } while (this.again && this.running);
    if (this.running) this.timer = setTimeout(() => void this.loop(), this.opts.pollMs);
  }

  /** Stops polling, lets the pass in flight finish, then sends what is due once more. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    workers.delete(this);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.pass;
    try {
      await this.runOnce();
    } catch (err) {
      this.log.error({ err }, 'outbox flush at shutdown failed');
    }
    this.mail.close();
  }

  /** One pass: claims due rows, sends them one by one, records the outcome. Returns how many were claimed. */
  async runOnce(): Promise<number> {
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
            and next_attempt_at <= ${now.toISOString()}::timestamptz
          order by next_attempt_at, id
          limit ${this.opts.batchSize}
          for update skip locked)
        returning id, channel, payload, attempts`),
    ).sort((a, b) => a.id - b.id);
    for (const row of claimed) await this.deliver(row);
    return claimed.length;
  }

  private async deliver(row: ClaimedRow): Promise<void> {
    const db = this.ctx.database.db;
    const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
    const meta: SendMeta = { id: row.id, now: this.ctx.clock.now() };
    try {
      if (row.channel === 'email') await this.mail.send(payload as EmailMessage, meta);
      else await this.sms.send(payload as SmsMessage, meta);
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
      update outbox set sent_at = ${this.ctx.clock.now().toISOString()}::timestamptz, last_error = null
      where id = ${row.id}`);
  }

  /** Rate-limit counters are only read within their window; a day-old one is dead weight. */
  private async housekeeping(now: Date): Promise<void> {
    if (now.getTime() - this.lastPurge < 3600_000) return;
    this.lastPurge = now.getTime();
    await purgeStale(this.ctx.database.db, new Date(now.getTime() - 24 * 3600_000));
  }
}
