import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import { bareAddress, domainOf } from './mail-threading';
import type { EmailMessage } from './outbox';

/** Limits of one SMTP exchange (the outbox also bounds a whole send, see sendTimeoutMs). */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
  dnsTimeout: 10_000,
};

export const DEFAULT_MAIL_FROM = 'Sportello <no-reply@localhost>';

/** The domain of the installation's sender (MAIL_FROM), for Message-IDs. */
export function senderDomain(config: Pick<Config, 'MAIL_FROM'>): string | undefined {
  return domainOf(bareAddress(config.MAIL_FROM ?? DEFAULT_MAIL_FROM));
}

/** Which queued message is being sent, so a file transport can name its output after it. */
export interface SendMeta {
  id: number;
  now: Date;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  send(message: EmailMessage, meta: SendMeta): Promise<void>;
  close(): void;
}

function mailOptions(message: EmailMessage, from: string, now: Date) {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html === undefined ? {} : { html: message.html }),
    date: now,
    ...(message.thread
      ? {
          messageId: message.thread.messageId,
          inReplyTo: message.thread.inReplyTo,
          references: message.thread.references,
          ...(message.thread.replyTo ? { replyTo: message.thread.replyTo } : {}),
        }
      : {}),
    ...(message.autoSubmitted ? { headers: { 'Auto-Submitted': message.autoSubmitted } } : {}),
    attachments: (message.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: Buffer.from(a.contentBase64, 'base64'),
    })),
  };
}

/** `<id>-<timestamp>` without characters some file systems refuse. */
export function outboxFileStem(meta: SendMeta): string {
  return `${meta.id}-${meta.now.toISOString().replace(/[:.]/g, '')}`;
}

/** When a file of `outboxFileStem` was written (its name says, by the injected clock), or undefined. */
function writtenAt(name: string): Date | undefined {
  const m = /^\d+-(\d{4}-\d\d-\d\dT)(\d\d)(\d\d)(\d\d)(\d{3})Z\./.exec(name);
  return m ? new Date(`${m[1]}${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) : undefined;
}

/**
 * Removes the outbox files written before `before`: a local install's messages keep their recovery
 * links, codes and capability links (task, booking, signing) no longer than the sent rows are kept.
 */
export function purgeOutboxFiles(dir: string, before: Date): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const at = writtenAt(name);
    if (at && at.getTime() < before.getTime()) rmSync(join(dir, name), { force: true });
  }
}

/**
 * Writes through a temporary name, so a reader never sees half a message. The files hold recovery
 * links and SMS codes: readable by the server user only.
 */
export function writeOutboxFile(dir: string, name: string, data: Buffer | string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, name);
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  renameSync(tmp, path);
  return path;
}

/** DKIM signing of every outgoing message when DKIM_DOMAIN, DKIM_SELECTOR and DKIM_KEY_FILE are set. */
export function dkimOptions(config: Config) {
  if (!config.DKIM_DOMAIN || !config.DKIM_SELECTOR || !config.DKIM_KEY_FILE) return {};
  return {
    dkim: {
      domainName: config.DKIM_DOMAIN,
      keySelector: config.DKIM_SELECTOR,
      privateKey: readFileSync(config.DKIM_KEY_FILE, 'utf8'),
    },
  };
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise every e-mail becomes an RFC 822 `.eml` file
 * in DATA_DIR/outbox (the same bytes SMTP would carry, attachments included), so a local install works.
 */
export function createMailTransport(config: Config, log: FastifyBaseLogger): MailTransport {
  const from = config.MAIL_FROM ?? DEFAULT_MAIL_FROM;
  if (config.SMTP_URL) {
    // nodemailer waits 2 min to connect, 30 s for the greeting and 10 min on a silent socket: a server
    // that accepts and never answers would hold the e-mail channel that long per message.
    const transporter = nodemailer.createTransport({
      url: config.SMTP_URL,
      ...SMTP_TIMEOUTS,
      ...dkimOptions(config),
    });
    return {
      kind: 'smtp',
      async send(message, meta) {
        await transporter.sendMail(mailOptions(message, from, meta.now));
      },
      close: () => transporter.close(),
    };
  }
  const dir = join(config.DATA_DIR, 'outbox');
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
    ...dkimOptions(config),
  });
  return {
    kind: 'file',
    async send(message, meta) {
      const info = await composer.sendMail(mailOptions(message, from, meta.now));
      const path = writeOutboxFile(dir, `${outboxFileStem(meta)}.eml`, info.message as Buffer);
      log.info(
        { outboxId: meta.id, to: message.to, subject: message.subject, path },
        'e-mail written to file',
      );
    },
    close: () => composer.close(),
  };
}
