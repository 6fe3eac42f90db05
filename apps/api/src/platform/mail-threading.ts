/**
 * Threading of ticket e-mails (issue 26, docs/email.md "Matching"). Every e-mail about a ticket names
 * the ticket three ways, which an answer carries back:
 * - a Reply-To `<local>+t-<token>@<domain>` on the portal's support address;
 * - a Message-ID `<t-<token>.<random>@<domain>>`, and In-Reply-To/References naming the ticket's thread
 *   root `<t-<token>@<domain>>`, so mail clients group the messages and replies quote them;
 * - the ticket number in the subject (the texts already say it).
 * The token is `<ticket ext id>-<HMAC>`, keyed by SECRET and bound to the portal, so a reference cannot be
 * made up for another ticket or portal; nothing needs storing per message.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN = /(?:^|[^0-9a-z])t-(\d{1,15})-([0-9a-z]{16})(?=[.@>+]|$)/gi;

function mac(secret: string, portalId: number, ticketExtId: number): string {
  return createHmac('sha256', secret)
    .update(`sportello:ticket-thread:v1:${portalId}:${ticketExtId}`)
    .digest('base64url')
    .replace(/[^0-9a-zA-Z]/g, '')
    .toLowerCase()
    .slice(0, 16);
}

/** The ticket's token: its ext id and a MAC that only this installation can make. */
export function ticketToken(secret: string, portalId: number, ticketExtId: number): string {
  return `${ticketExtId}-${mac(secret, portalId, ticketExtId)}`;
}

/**
 * The ticket ext ids whose genuine tokens `text` contains (addresses, Message-IDs), first seen first.
 * A token with a wrong MAC, or another portal's, is not a reference.
 */
export function ticketsReferenced(secret: string, portalId: number, text: string): number[] {
  const found: number[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const ext = Number(m[1]);
    const want = Buffer.from(mac(secret, portalId, ext));
    const got = Buffer.from(m[2]!.toLowerCase());
    if (want.length === got.length && timingSafeEqual(want, got) && !found.includes(ext)) found.push(ext);
  }
  return found;
}

/** `support@acme.example` → `acme.example`; undefined when it has no domain. */
export function domainOf(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  const domain =
    at < 0
      ? ''
      : address
          .slice(at + 1)
          .replace(/>.*$/, '')
          .trim()
          .toLowerCase();
  return /^[a-z0-9.-]+$/.test(domain) ? domain : undefined;
}

/** The bare address of `Name <a@b>` or `a@b`. */
export function bareAddress(from: string): string {
  const m = /<([^<>]+)>\s*$/.exec(from);
  return (m ? m[1]! : from).trim();
}

/** `support@acme.example` + token → `support+t-<token>@acme.example` (plus addressing). */
export function replyAddress(mailbox: string, token: string): string {
  const at = mailbox.lastIndexOf('@');
  return `${mailbox.slice(0, at)}+t-${token}${mailbox.slice(at)}`;
}

export interface ThreadHeaders {
  messageId: string;
  inReplyTo: string;
  references: string[];
  /** Only when the portal has a support mailbox: otherwise an answer would reach nobody. */
  replyTo?: string;
}

/**
 * The threading of one e-mail about a ticket. `mailbox`: the portal's support address, when it has one;
 * `fallbackDomain`: the domain of the installation's sender (MAIL_FROM) for the Message-ID.
 */
export function threadHeaders(
  secret: string,
  portalId: number,
  ticketExtId: number,
  mailbox: string | null | undefined,
  fallbackDomain: string | undefined,
): ThreadHeaders {
  const token = ticketToken(secret, portalId, ticketExtId);
  const domain = (mailbox && domainOf(mailbox)) || fallbackDomain || 'sportello.invalid';
  const root = `<t-${token}@${domain}>`;
  return {
    messageId: `<t-${token}.${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}@${domain}>`,
    inReplyTo: root,
    references: [root],
    ...(mailbox ? { replyTo: replyAddress(mailbox, token) } : {}),
  };
}
