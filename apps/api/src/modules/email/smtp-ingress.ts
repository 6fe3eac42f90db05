/**
 * The second way in (docs/email.md "Receiving by SMTP"): with `INBOUND_SMTP_PORT` set, the process
 * receives mail itself, for the portals' support addresses (and any `+tag` of them) only, and hands
 * each message to `ingestMessage`, the same path as the IMAP reader's, so a message that arrives both
 * ways is recorded once, by its Message-ID.
 *
 * What it refuses, and when: a recipient that is no enabled mailbox's address at RCPT (550); a message
 * over the reader's 40 MB at MAIL (SIZE=) or at the end of DATA (552); a sender address (the connecting
 * IP) over its rate at MAIL (421, come back later). A message that cannot be read is still accepted and
 * recorded `unprocessed`: refusing it would only send it round again. A database that fails answers
 * 451, so the sending server keeps the message and tries later.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerDataStream,
  type SMTPServerSession,
} from 'smtp-server';
import type { AppContext } from '../../platform/context';
import { addressKey, hit } from '../../platform/rate-limit';
import { queryRows } from '../../platform/sql-json';
import { INBOUND_LIMITS, ingestMessage } from './inbound.service';

export const INGRESS_DEFAULTS = {
  /** Messages one sending address (an IPv6 /64) may start in a window. */
  messagesPerIp: 60,
  windowSeconds: 600,
  /** Recipients of one message. */
  maxRecipients: 50,
  /** Connections open at once. */
  maxClients: 100,
  /** The largest message taken: the IMAP reader's limit. */
  maxBytes: INBOUND_LIMITS.maxBytes,
};

/** An SMTP reply with its code (smtp-server sends `responseCode` and the message). */
function reply(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** The support address a recipient names (`support+t-12-ab@acme.example` → `support@acme.example`). */
export function supportAddressOf(recipient: string): string {
  return recipient
    .trim()
    .toLowerCase()
    .replace(/\+[^@]*@/, '@');
}

type Envelope = SMTPServerSession & { portals?: Map<number, string[]> };

export interface IngressOptions extends Partial<typeof INGRESS_DEFAULTS> {
  port: number;
  host: string;
}

export class SmtpIngress {
  private readonly server: SMTPServer;
  private readonly opts: typeof INGRESS_DEFAULTS & IngressOptions;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    options: IngressOptions,
  ) {
    this.opts = { ...INGRESS_DEFAULTS, ...options };
    this.server = new SMTPServer({
      name: ctx.config.DKIM_DOMAIN ?? undefined,
      banner: 'Sportello',
      // Receiving only: nobody signs in to send through it.
      disabledCommands: ['AUTH'],
      authOptional: true,
      size: this.opts.maxBytes,
      maxClients: this.opts.maxClients,
      // Its reverse DNS names are of no use here, and the look-up is one more wait per connection.
      disableReverseLookup: true,
      logger: false,
      onMailFrom: (_address, session, cb) => void this.mailFrom(session).then(() => cb(), cb),
      onRcptTo: (address, session, cb) => void this.rcptTo(address, session).then(() => cb(), cb),
      onData: (stream, session, cb) => void this.data(stream, session).then(() => cb(), cb),
    });
    this.server.on('error', (err) => this.log.warn({ err }, 'SMTP ingress error'));
  }

  /** Listens; resolves with the port (the one the system chose for port 0). */
  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.server.once('error', onError);
      this.server.listen(this.opts.port, this.opts.host, () => {
        this.server.server.off('error', onError);
        resolve();
      });
    });
    const address = this.server.server.address();
    const port = typeof address === 'object' && address ? address.port : this.opts.port;
    this.log.info({ port, host: this.opts.host }, 'SMTP ingress listening');
    return port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async mailFrom(session: Envelope): Promise<void> {
    session.portals = new Map();
    const ip = addressKey(session.remoteAddress || 'unknown');
    const rate = await hit(
      this.ctx.database.db,
      `smtp-in:${ip}`,
      this.opts.messagesPerIp,
      this.opts.windowSeconds,
      this.ctx.clock.now(),
    ).catch((err: unknown) => {
      this.log.error({ err }, 'SMTP ingress: rate limit not readable');
      throw reply(451, 'Temporary failure, try again later');
    });
    if (!rate.allowed)
      throw reply(421, `Too many messages from ${ip}, try again in ${rate.retryAfterSeconds} s`);
  }

  private async rcptTo(address: SMTPServerAddress, session: Envelope): Promise<void> {
    const portals = (session.portals ??= new Map());
    const count = [...portals.values()].reduce((n, list) => n + list.length, 0);
    if (count >= this.opts.maxRecipients) throw reply(452, 'Too many recipients');
    const recipient = address.address.trim().toLowerCase();
    const [row] = await queryRows<{ portal_id: number }>(
      this.ctx.database.db,
      sql`select portal_id from portal_mailboxes where lower(address) = ${supportAddressOf(recipient)} and enabled`,
    ).catch((err: unknown) => {
      this.log.error({ err }, 'SMTP ingress: mailboxes not readable');
      throw reply(451, 'Temporary failure, try again later');
    });
    if (!row) throw reply(550, `No such recipient here: ${recipient}`);
    const id = Number(row.portal_id);
    portals.set(id, [...(portals.get(id) ?? []), recipient]);
  }

  private async data(stream: SMTPServerDataStream, session: Envelope): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Past the limit the rest is only counted (the stream must be read to its end to answer).
      if (size <= this.opts.maxBytes) chunks.push(chunk);
    }
    if (stream.sizeExceeded || size > this.opts.maxBytes)
      throw reply(552, `Message larger than ${Math.round(this.opts.maxBytes / 1024)} KB`);
    const body = Buffer.concat(chunks);
    for (const [portalId, recipients] of session.portals ?? []) {
      // The envelope's recipients, as a receiving server writes them: a reply's +token may be in the
      // envelope only (Bcc), and the reader matches Delivered-To.
      const raw = Buffer.concat([
        Buffer.from(recipients.map((r) => `Delivered-To: ${r}\r\n`).join('')),
        body,
      ]);
      try {
        await ingestMessage(this.ctx, portalId, raw, 'smtp', this.log);
      } catch (err) {
        this.log.error({ err, portalId }, 'SMTP ingress: message not recorded');
        throw reply(451, 'Temporary failure, try again later');
      }
    }
  }
}
