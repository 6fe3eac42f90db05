/**
 * The IMAP reader (docs/email.md "Reading"): one per process, reading every enabled mailbox whose
 * lease it holds. A lease is a row's `lease_owner`/`lease_until`, taken when free or expired and renewed
 * while reading, so with several processes on one database exactly one reads a mailbox; a process that
 * dies leaves its lease to expire and another takes over.
 *
 * Each mailbox keeps a connection open with IMAP IDLE (imapflow), so new mail is read within seconds; a
 * poll every `pollMs` covers servers without IDLE and connections that went quiet. A pass fetches the
 * messages above `last_uid` one by one, hands each to `ingestMessage` (which records it exactly once
 * by its Message-ID) and then moves `last_uid`: a crash in between reads that message again, and the
 * record says it was read. The first pass of a new mailbox reads its unread messages only.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ImapFlow } from 'imapflow';
import type { AppContext } from '../../platform/context';
import { queryRows } from '../../platform/sql-json';
import { INBOUND_LIMITS, ingestMessage } from './inbound.service';
import { explainImapError, imapClient, settingsOf, type MailboxRow } from './mailbox.service';

export const READER_DEFAULTS = {
  /** How often the mailboxes and leases are looked at, and each held mailbox polled. */
  pollMs: 30_000,
  /** A lease not renewed for this long is free for another process. */
  leaseMs: 90_000,
  /** Wait after a failed connection before trying again (doubles up to 15 min). */
  retryMs: 30_000,
};

interface Session {
  portalId: number;
  /** The settings' version it was opened with: a change reopens it. */
  version: string;
  client: ImapFlow;
  busy: Promise<void> | undefined;
  again: boolean;
  closed: boolean;
}

export class MailboxReader {
  readonly owner = `${process.pid}:${randomUUID()}`;
  private readonly opts: typeof READER_DEFAULTS;
  private readonly sessions = new Map<number, Session>();
  private readonly failures = new Map<number, { count: number; until: number }>();
  private timer: NodeJS.Timeout | undefined;
  private tick: Promise<void> | undefined;
  private running = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    options: Partial<typeof READER_DEFAULTS> = {},
  ) {
    this.opts = { ...READER_DEFAULTS, ...options };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  private schedule(ms: number) {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.tick = this.runTick()
        .catch((err: unknown) => this.log.error({ err }, 'mailbox reader pass failed'))
        .finally(() => this.schedule(this.opts.pollMs));
    }, ms);
    this.timer.unref();
  }

  /** Takes (or renews) the leases it can, opens the mailboxes it got, polls those it holds. */
  async runTick(): Promise<void> {
    const now = this.ctx.clock.now();
    const until = new Date(now.getTime() + this.opts.leaseMs).toISOString();
    const held = await queryRows<MailboxRow>(
      this.ctx.database.db,
      sql`update portal_mailboxes set lease_owner = ${this.owner}, lease_until = ${until}::timestamptz
        where enabled and imap_host <> ''
          and (lease_owner = ${this.owner} or lease_until is null or lease_until < ${now.toISOString()}::timestamptz)
        returning *`,
    );
    const ids = new Set(held.map((r) => Number(r.portal_id)));
    // Lost, disabled or deleted: stop reading it.
    for (const [portalId, s] of this.sessions) if (!ids.has(portalId)) await this.close(s);
    for (const row of held) {
      const portalId = Number(row.portal_id);
      const s = this.sessions.get(portalId);
      if (s && !s.closed && s.version === String(row.updated_at)) {
        this.pass(s);
        continue;
      }
      if (s) await this.close(s);
      const failed = this.failures.get(portalId);
      if (failed && failed.until > Date.now()) continue;
      await this.open(row);
    }
  }

  private async open(row: MailboxRow): Promise<void> {
    const portalId = Number(row.portal_id);
    const settings = settingsOf(this.ctx, row);
    if (!settings.ok) return this.failed(portalId, settings.test.detail);
    const client = imapClient(settings.settings, 1000);
    const session: Session = {
      portalId,
      version: String(row.updated_at),
      client,
      busy: undefined,
      again: false,
      closed: false,
    };
    client.on('error', (err: unknown) => this.log.warn({ err, portalId }, 'mailbox connection error'));
    client.on('close', () => {
      session.closed = true;
      if (this.sessions.get(portalId) === session) this.sessions.delete(portalId);
    });
    // IDLE tells of new mail as it arrives.
    client.on('exists', () => this.pass(session));
    try {
      await client.connect();
      const box = await client.mailboxOpen(row.folder);
      const validity = Number(box.uidValidity);
      if (row.uid_validity === null || Number(row.uid_validity) !== validity) {
        // A new mailbox (or the server renumbered it): start at its unread messages.
        const unseen = (await client.search({ seen: false }, { uid: true })) || [];
        const start = unseen.length > 0 ? Math.min(...unseen) - 1 : Math.max(0, Number(box.uidNext) - 1);
        await this.ctx.database.db.execute(sql`update portal_mailboxes
          set uid_validity = ${validity}, last_uid = ${start} where portal_id = ${portalId}::int`);
      }
    } catch (err) {
      await client.logout().catch(() => client.close());
      return this.failed(portalId, explainImapError(err).detail);
    }
    this.failures.delete(portalId);
    this.sessions.set(portalId, session);
    this.log.info({ portalId, folder: row.folder }, 'mailbox reader connected');
    this.pass(session);
  }

  private async failed(portalId: number, detail: string): Promise<void> {
    const prev = this.failures.get(portalId)?.count ?? 0;
    const wait = Math.min(15 * 60_000, this.opts.retryMs * 2 ** prev);
    this.failures.set(portalId, { count: prev + 1, until: Date.now() + wait });
    this.log.warn({ portalId, detail }, 'mailbox could not be read');
    await this.ctx.database.db.execute(sql`update portal_mailboxes set last_error = ${detail.slice(0, 500)}
      where portal_id = ${portalId}::int`);
  }

  /** Runs a read of the session now, or right after the one in flight. */
  private pass(s: Session): void {
    if (s.busy) {
      s.again = true;
      return;
    }
    s.busy = (async () => {
      do {
        s.again = false;
        try {
          await this.readNew(s);
        } catch (err) {
          this.log.warn({ err, portalId: s.portalId }, 'mailbox read failed');
          await this.failed(s.portalId, explainImapError(err).detail);
          // From inside the read: `close` would wait for this very read.
          await this.disconnect(s);
          return;
        }
      } while (s.again && !s.closed);
    })().finally(() => (s.busy = undefined));
  }

  /** Reads the messages above `last_uid`, one at a time, each recorded before the cursor moves. */
  private async readNew(s: Session): Promise<void> {
    const db = this.ctx.database.db;
    const [row] = await queryRows<{ last_uid: number | string; lease_owner: string | null }>(
      db,
      sql`select last_uid, lease_owner from portal_mailboxes where portal_id = ${s.portalId}::int`,
    );
    // The lease went to another process: stop (not `close`, which waits for this read).
    if (!row || row.lease_owner !== this.owner) return this.disconnect(s);
    let last = Number(row.last_uid);
    const uids = ((await s.client.search({ uid: `${last + 1}:*` }, { uid: true })) || [])
      .filter((u) => u > last)
      .sort((a, b) => a - b);
    for (const uid of uids) {
      if (s.closed) return;
      const meta = await s.client.fetchOne(String(uid), { size: true }, { uid: true });
      const announced = meta ? meta.size : undefined;
      const tooLarge = announced !== undefined && announced > INBOUND_LIMITS.maxBytes;
      // Too large: not downloaded; its headers say enough for the "unprocessed" entry.
      const msg = await s.client.fetchOne(String(uid), tooLarge ? { headers: true } : { source: true }, {
        uid: true,
      });
      const raw = tooLarge ? msg && msg.headers : msg && msg.source;
      if (!raw) continue;
      await ingestMessage(this.ctx, s.portalId, raw, 'imap', this.log, tooLarge ? announced : undefined);
      await s.client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true }).catch(() => undefined);
      last = uid;
      await db.execute(sql`update portal_mailboxes set last_uid = ${last}
        where portal_id = ${s.portalId}::int and lease_owner = ${this.owner}`);
    }
    await db.execute(sql`update portal_mailboxes set last_read_at = ${this.ctx.clock.now().toISOString()}::timestamptz,
        last_error = null where portal_id = ${s.portalId}::int and lease_owner = ${this.owner}`);
  }

  /** Stops a session after the read in flight. */
  private async close(s: Session): Promise<void> {
    s.closed = true;
    await s.busy;
    await this.disconnect(s);
  }

  private async disconnect(s: Session): Promise<void> {
    s.closed = true;
    if (this.sessions.get(s.portalId) === s) this.sessions.delete(s.portalId);
    await s.client.logout().catch(() => s.client.close());
  }

  /** Waits for the reads in flight (tests). */
  async settle(): Promise<void> {
    await this.tick;
    await Promise.all([...this.sessions.values()].map((s) => s.busy));
  }

  /** Stops reading and gives the leases back, so another process takes over at once. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.tick?.catch(() => undefined);
    for (const s of [...this.sessions.values()]) {
      await s.busy;
      await this.close(s);
    }
    await this.ctx.database.db.execute(sql`update portal_mailboxes set lease_owner = null, lease_until = null
      where lease_owner = ${this.owner}`);
  }
}
