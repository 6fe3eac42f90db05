/**
 * Every received message, from the IMAP reader or the SMTP ingress, goes through `ingestMessage` once
 * (docs/email.md): parsed with mailparser, recorded in `inbound_emails` under its Message-ID (or the
 * digest of its bytes) in the same transaction as whatever it becomes, so a message read twice (the
 * reader died between fetching and recording) is recognised and skipped, and a message that fails is
 * kept with its reason instead of being retried for ever.
 */
import { createHash } from 'node:crypto';
import {
  emailErrorCodes,
  type InboundAttachBody,
  type InboundEmail,
  type InboundStatus,
} from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Tx } from '../../db/client';
import { escapeHtml, langOf } from '../../platform/account-mail';
import type { AppContext } from '../../platform/context';
import { conflict, notFound } from '../../platform/errors';
import type { StagedBlob } from '../../platform/files';
import { DEFAULT_MAIL_FROM, senderDomain } from '../../platform/mail';
import { bareAddress, ticketsReferenced } from '../../platform/mail-threading';
import { enqueueEmail, kickOutbox } from '../../platform/outbox';
import { hit } from '../../platform/rate-limit';
import { queryRows } from '../../platform/sql-json';
import type { CommentAuthor } from '../tickets/core';
import { applyMailAction, type MailAction } from './inbound.apply';
import {
  authenticationFailed,
  automaticReason,
  bouncedRecipients,
  cleanText,
  previewOf,
  referenceText,
  replyText,
  senderOf,
} from './inbound.classify';

export const INBOUND_LIMITS = {
  /** A message larger than this is not read (recorded as unprocessed with its headers' facts). */
  maxBytes: 40 * 1024 * 1024,
  /** Headers larger than this are not a mail anyone wrote. */
  maxHeaderBytes: 256 * 1024,
  /** Automatic answers (the "we received your mail" to an unknown sender) per address and hour. */
  autoAnswersPerHour: 3,
};

export interface IngestResult {
  /** The `inbound_emails` row; null when it was there already. */
  id: number | null;
  status: InboundStatus;
  reason: string | null;
  duplicate: boolean;
}

interface Facts {
  key: string;
  from: { address: string; name: string } | undefined;
  subject: string;
  preview: string;
  authFailed: boolean;
}

interface Outcome {
  status: InboundStatus;
  reason: string | null;
  ticketId?: number | null;
  commentId?: number | null;
  /** What the message becomes, when the sender may do what it asks (inbound.apply.ts). */
  action?: MailAction;
}

const digestKey = (raw: Buffer) => `sha256:${createHash('sha256').update(raw).digest('hex')}`;

/** Where the headers end (the first empty line), or -1. */
function headerEnd(raw: Buffer): number {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  return crlf < 0 ? lf : lf < 0 ? crlf : Math.min(crlf, lf);
}

interface SenderContact {
  id: number;
  extId: number;
  companyId: number;
  manageTickets: boolean;
  administrator: boolean;
  /** The portal user holding the contact under this address (null: the contact's own address). */
  userId: number | null;
}

interface Sender {
  staff?: { staffUserId: number; displayName: string };
  /** Lowest contact id first (the first one made). */
  contacts: SenderContact[];
}

async function senderIn(tx: Tx, portalId: number, address: string): Promise<Sender> {
  const [staff] = await queryRows<{ staff_user_id: number; display_name: string }>(
    tx,
    sql`select su.id as staff_user_id, su.display_name from staff_users su
      join staff_memberships m on m.staff_user_id = su.id and m.portal_id = ${portalId}::int
      where lower(su.email) = ${address} and su.status = 'active'`,
  );
  const contacts = await queryRows<{
    id: number;
    ext_id: number;
    company_id: number;
    manage_tickets: boolean;
    administrator: boolean;
    user_id: number | null;
  }>(
    tx,
    sql`select distinct on (x.id) x.* from (
        select c.id, c.ext_id, c.company_id, c.manage_tickets, c.administrator, null::int as user_id
        from contacts c where c.portal_id = ${portalId}::int and lower(c.email) = ${address}
        union all
        select c.id, c.ext_id, c.company_id, c.manage_tickets, c.administrator, u.id from users u
        join user_contacts uc on uc.user_id = u.id
        join contacts c on c.id = uc.contact_id and c.portal_id = ${portalId}::int
        where lower(u.email) = ${address}
      ) x order by x.id, x.user_id nulls last`,
  );
  return {
    ...(staff
      ? { staff: { staffUserId: Number(staff.staff_user_id), displayName: staff.display_name } }
      : {}),
    contacts: contacts.map((c) => ({
      id: Number(c.id),
      extId: Number(c.ext_id),
      companyId: Number(c.company_id),
      manageTickets: c.manage_tickets,
      administrator: c.administrator,
      userId: c.user_id === null ? null : Number(c.user_id),
    })),
  };
}

interface MatchedTicket {
  id: number;
  extId: number;
  companyId: number;
  creatorContactId: number | null;
  ticketNumber: string;
  /** How it was found, most trusted first. */
  by: 'reply-to' | 'thread' | 'subject';
}

type TicketRow = {
  id: number;
  ext_id: number;
  company_id: number;
  creator_contact_id: number | null;
  ticket_number: string;
};

const matchedOf = (t: TicketRow, by: MatchedTicket['by']): MatchedTicket => ({
  id: Number(t.id),
  extId: Number(t.ext_id),
  companyId: Number(t.company_id),
  creatorContactId: t.creator_contact_id === null ? null : Number(t.creator_contact_id),
  ticketNumber: t.ticket_number,
  by,
});

/**
 * The ticket a message answers: a genuine token in its recipients (our Reply-To), then in In-Reply-To/
 * References (our Message-IDs), then a ticket number in the subject among the tickets of the sender's
 * companies (the least trusted: anyone may type a number).
 */
async function matchTicket(
  tx: Tx,
  ctx: AppContext,
  portalId: number,
  m: ParsedMail,
  companyIds: number[],
): Promise<MatchedTicket | undefined> {
  const refs = referenceText(m);
  const candidates: [MatchedTicket['by'], number[]][] = [
    ['reply-to', ticketsReferenced(ctx.secret, portalId, refs.addresses)],
    ['thread', ticketsReferenced(ctx.secret, portalId, refs.threads)],
  ];
  for (const [by, exts] of candidates) {
    if (exts.length === 0) continue;
    const [t] = await queryRows<TicketRow>(
      tx,
      sql`select id, ext_id, company_id, creator_contact_id, ticket_number from tickets
        where portal_id = ${portalId}::int and ext_id = ${exts[0]!}`,
    );
    if (t) return matchedOf(t, by);
  }
  const subject = m.subject ?? '';
  if (companyIds.length === 0 || subject.length === 0) return undefined;
  const hash = /#(\d{1,15})\b/.exec(subject);
  const [t] = await queryRows<TicketRow>(
    tx,
    sql`select id, ext_id, company_id, creator_contact_id, ticket_number from tickets
      where portal_id = ${portalId}::int and company_id = any(${sql.param(companyIds)}::int[])
        and ((ticket_number <> '' and strpos(${subject}, ticket_number) > 0)
          or (ticket_number = '' and ext_id = ${hash ? Number(hash[1]) : -1}))
      order by length(ticket_number) desc, last_activity_at desc limit 1`,
  );
  return t && matchedOf(t, 'subject');
}

/** Our own addresses: the portal's support address (any +tag of it) and the installation's sender. */
function isOwnAddress(ctx: AppContext, mailbox: string | null, address: string): boolean {
  const own = [bareAddress(ctx.config.MAIL_FROM ?? DEFAULT_MAIL_FROM).toLowerCase()];
  if (mailbox) own.push(mailbox.toLowerCase());
  const plain = address.replace(/\+[^@]*@/, '@');
  return own.includes(address) || own.includes(plain);
}

const receivedTexts = {
  it: {
    subject: (s: string) => `Re: ${s || 'il tuo messaggio'}`,
    body: (portal: string) =>
      `Buongiorno,\n\nabbiamo ricevuto il tuo messaggio. Il tuo indirizzo non è tra quelli dei clienti di ${portal}: un operatore lo leggerà e ti risponderà.\n\n-- \n${portal}\n(Risposta automatica: non serve rispondere a questo messaggio.)\n`,
  },
  en: {
    subject: (s: string) => `Re: ${s || 'your message'}`,
    body: (portal: string) =>
      `Hello,\n\nwe received your message. Your address is not among those of ${portal}'s customers: a member of our staff will read it and answer you.\n\n-- \n${portal}\n(Automatic answer: there is no need to reply to this message.)\n`,
  },
  es: {
    subject: (s: string) => `Re: ${s || 'tu mensaje'}`,
    body: (portal: string) =>
      `Hola:\n\nhemos recibido tu mensaje. Tu dirección no está entre las de los clientes de ${portal}: una persona de nuestro equipo lo leerá y te responderá.\n\n-- \n${portal}\n(Respuesta automática: no hace falta responder a este mensaje.)\n`,
  },
} as const;

/**
 * The one polite answer to an unknown sender, in the portal's language: never to an automatic message
 * (the caller has ruled those out), at most `autoAnswersPerHour` per address and hour.
 */
async function answerUnknownSender(
  tx: Tx,
  ctx: AppContext,
  portalId: number,
  to: string,
  m: ParsedMail,
  now: Date,
): Promise<boolean> {
  const rate = await hit(tx, `email-auto:${portalId}:${to}`, INBOUND_LIMITS.autoAnswersPerHour, 3600, now);
  if (!rate.allowed) return false;
  const [p] = await queryRows<{ name: string; default_language: string; address: string | null }>(
    tx,
    sql`select p.name, p.default_language, mb.address from portals p
      left join portal_mailboxes mb on mb.portal_id = p.id where p.id = ${portalId}::int`,
  );
  if (!p) return false;
  const t = receivedTexts[langOf(p.default_language)];
  const body = t.body(p.name);
  const domain = (p.address && p.address.split('@')[1]) || senderDomain(ctx.config) || 'sportello.invalid';
  await enqueueEmail(
    tx,
    {
      to,
      subject: cleanText(t.subject(m.subject ?? ''), 300),
      text: body,
      html: `<p>${escapeHtml(body).replace(/\n/g, '<br>')}</p>`,
      autoSubmitted: 'auto-replied',
      thread: {
        messageId: `<received.${createHash('sha256')
          .update(`${portalId}:${m.messageId ?? to}`)
          .digest('hex')
          .slice(0, 24)}@${domain}>`,
        inReplyTo: m.messageId ?? '',
        references: m.messageId ? [m.messageId] : [],
        ...(p.address ? { replyTo: p.address } : {}),
      },
    },
    now,
  );
  return true;
}

/** What the message becomes (inside the ingest transaction). */
async function decide(
  tx: Tx,
  ctx: AppContext,
  portalId: number,
  mailbox: string | null,
  m: ParsedMail,
  facts: Facts,
  now: Date,
): Promise<Outcome> {
  if (!facts.from) return { status: 'unprocessed', reason: 'no sender address (From)' };
  const from = facts.from.address;
  if (isOwnAddress(ctx, mailbox, from)) return { status: 'ignored', reason: 'sent from our own address' };
  if (ticketsReferenced(ctx.secret, portalId, m.messageId ?? '').length > 0)
    return { status: 'ignored', reason: 'one of our own messages came back' };
  const bounced = bouncedRecipients(m);
  if (bounced) {
    for (const b of bounced)
      await tx.execute(sql`insert into email_bounces (portal_id, address, reason, bounced_at)
        values (${portalId}::int, ${b.address}, ${cleanText(b.status, 100)}, ${now.toISOString()}::timestamptz)
        on conflict (portal_id, address) do update set reason = excluded.reason, bounced_at = excluded.bounced_at`);
    return {
      status: 'bounce',
      reason: bounced.length
        ? `delivery failed to ${bounced.map((b) => b.address).join(', ')}`
        : 'delivery report',
    };
  }
  const automatic = automaticReason(m);
  if (automatic) return { status: 'ignored', reason: automatic };
  const sender = await senderIn(tx, portalId, from);
  const companyIds = [...new Set(sender.contacts.map((c) => c.companyId))];
  const ticket = await matchTicket(tx, ctx, portalId, m, companyIds);
  if (sender.staff) {
    if (!ticket) return { status: 'waiting', reason: 'from an agent, about no ticket' };
    return {
      status: 'waiting',
      reason: `agent answer to ticket ${ticket.ticketNumber || ticket.extId}`,
      ticketId: ticket.id,
      action: {
        kind: 'comment',
        ticketExtId: ticket.extId,
        author: { kind: 'staff', ...sender.staff },
      },
    };
  }
  if (sender.contacts.length === 0) {
    await answerUnknownSender(tx, ctx, portalId, from, m, now);
    return { status: 'unknown', reason: null, ticketId: ticket?.id ?? null };
  }
  if (ticket) {
    const contact = sender.contacts.find((c) => c.companyId === ticket.companyId);
    if (!contact)
      return {
        status: 'waiting',
        reason: "the sender is no contact of the ticket's company",
        ticketId: ticket.id,
      };
    if (!contact.manageTickets)
      return { status: 'waiting', reason: 'the contact may not write on tickets', ticketId: ticket.id };
    return {
      status: 'waiting',
      reason: `reply to ticket ${ticket.ticketNumber || ticket.extId}`,
      ticketId: ticket.id,
      action: { kind: 'comment', ticketExtId: ticket.extId, author: contactAuthor(portalId, contact) },
    };
  }
  // A new ticket: in the company of the sender's first contact (lowest id) that may open tickets.
  const opener = sender.contacts.find((c) => c.manageTickets);
  if (!opener) return { status: 'waiting', reason: 'the contact may not open tickets' };
  return {
    status: 'waiting',
    reason: 'new ticket request',
    action: {
      kind: 'ticket',
      contact: { id: opener.id, extId: opener.extId, companyId: opener.companyId },
      address: from,
      messageId: m.messageId,
    },
  };
}

/**
 * A contact writing by e-mail, with the portal's reach: every ticket of the company for an
 * administrator, else the ones they opened and the ones their user follows.
 */
function contactAuthor(portalId: number, c: SenderContact): Extract<CommentAuthor, { kind: 'contact' }> {
  return {
    kind: 'contact',
    contactId: c.id,
    contactExtId: c.extId,
    userId: null,
    scope: {
      portalId,
      companyId: c.companyId,
      creatorContactId: c.administrator ? null : c.id,
      followerUserId: c.administrator ? null : c.userId,
      withReports: false,
    },
  };
}

/** Makes the comment or ticket the outcome asks for; refused by the rules, the message waits with why. */
async function applyOutcome(
  tx: Tx,
  ctx: AppContext,
  portalId: number,
  outcome: Outcome,
  mail: ParsedMail,
  text: string,
  rawFileId: number,
  now: Date,
): Promise<Outcome> {
  const applied = await applyMailAction(tx, ctx, {
    portalId,
    action: outcome.action!,
    mail,
    text,
    rawFileId,
    now,
  });
  if ('refused' in applied)
    return {
      status: 'waiting',
      reason: `${outcome.reason}: ${applied.refused}`,
      ticketId: outcome.ticketId ?? null,
    };
  return { status: 'done', reason: applied.note, ticketId: applied.ticketId, commentId: applied.commentId };
}

/**
 * Reads one received message into the portal (see the module's comment). Never throws for what the
 * message holds: a message that cannot be read ends `unprocessed` with the reason.
 */
export async function ingestMessage(
  ctx: AppContext,
  portalId: number,
  raw: Buffer,
  via: 'imap' | 'smtp',
  log?: FastifyBaseLogger,
  /** The size the server announced, when `raw` is only the headers of a message too large to fetch. */
  announcedSize?: number,
): Promise<IngestResult> {
  const now = ctx.clock.now();
  let parsed: ParsedMail | undefined;
  let early: Outcome | undefined;
  const size = announcedSize ?? raw.length;
  const end = headerEnd(raw);
  const tooLarge = size > INBOUND_LIMITS.maxBytes;
  if ((end < 0 ? raw.length : end) > INBOUND_LIMITS.maxHeaderBytes)
    early = {
      status: 'unprocessed',
      reason: `headers larger than ${INBOUND_LIMITS.maxHeaderBytes / 1024} KB`,
    };
  else {
    try {
      // A message too large to read still names its sender and subject in its headers.
      parsed = await simpleParser(tooLarge ? raw.subarray(0, end < 0 ? raw.length : end) : raw, {
        skipImageLinks: true,
        skipTextLinks: true,
      });
    } catch (err) {
      early = { status: 'unprocessed', reason: `unreadable MIME: ${cleanText((err as Error).message, 300)}` };
    }
    if (tooLarge)
      early = { status: 'unprocessed', reason: `larger than ${INBOUND_LIMITS.maxBytes / 1024 / 1024} MB` };
  }
  const messageId = parsed?.messageId ? cleanText(parsed.messageId.trim(), 998) : '';
  const text = parsed && !tooLarge ? replyText(parsed) : '';
  const facts: Facts = {
    key: messageId || digestKey(raw),
    from: parsed ? senderOf(parsed) : undefined,
    subject: cleanText(parsed?.subject, 500),
    preview: previewOf(cleanText(text, 2000)),
    authFailed: parsed ? authenticationFailed(parsed) : false,
  };
  // The bytes are kept (for "show full e-mail") unless they are what was refused for size.
  let blob: StagedBlob | undefined;
  if (!tooLarge) blob = await ctx.fileStore.stageBuffer(raw);
  try {
    const result = await ctx.database.db.transaction(async (tx) => {
      const [row] = await queryRows<{ id: number }>(
        tx,
        sql`insert into inbound_emails (portal_id, message_key, via, status, from_address, from_name, subject,
            preview, size, auth_failed, received_at)
          values (${portalId}::int, ${facts.key}, ${via}, 'unprocessed', ${cleanText(facts.from?.address, 320)},
            ${cleanText(facts.from?.name, 200)}, ${facts.subject}, ${facts.preview}, ${Math.min(size, 2 ** 31 - 1)}::int,
            ${facts.authFailed}, ${now.toISOString()}::timestamptz)
          on conflict (portal_id, message_key) do nothing returning id`,
      );
      if (!row) return undefined;
      const id = Number(row.id);
      const [mb] = await queryRows<{ address: string }>(
        tx,
        sql`select address from portal_mailboxes where portal_id = ${portalId}::int`,
      );
      let outcome =
        early ?? (await decide(tx, ctx, portalId, mb?.address.toLowerCase() ?? null, parsed!, facts, now));
      let fileId: number | null = null;
      if (blob) {
        await ctx.fileStore.record(tx, blob, now);
        const [f] = await queryRows<{ id: number }>(
          tx,
          sql`insert into files (portal_id, sha256, name, content_type, size, attached_at, created_at)
            values (${portalId}::int, ${blob.sha256}, ${`message-${id}.eml`}, 'message/rfc822', ${blob.size},
              ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
            returning id`,
        );
        fileId = Number(f!.id);
      }
      if (outcome.action && parsed && fileId !== null)
        outcome = await applyOutcome(tx, ctx, portalId, outcome, parsed, text, fileId, now);
      await tx.execute(sql`update inbound_emails set status = ${outcome.status}, reason = ${outcome.reason},
          raw_file_id = ${fileId}::int, ticket_id = ${outcome.ticketId ?? null}::int,
          comment_id = ${outcome.commentId ?? null}::int,
          handled_at = ${outcome.status === 'done' ? now.toISOString() : null}::timestamptz
        where id = ${id}::bigint`);
      return { id, status: outcome.status, reason: outcome.reason, duplicate: false } satisfies IngestResult;
    });
    if (!result) {
      ctx.fileStore.discard(blob);
      return { id: null, status: 'done', reason: 'already read', duplicate: true };
    }
    kickOutbox();
    log?.info({ portalId, inbound: result.id, status: result.status }, 'e-mail received');
    return result;
  } catch (err) {
    ctx.fileStore.discard(blob);
    throw err;
  }
}

interface InboundRow {
  id: number | string;
  status: InboundStatus;
  reason: string | null;
  from_address: string;
  from_name: string;
  subject: string;
  preview: string;
  received_at: Date | string;
  auth_failed: boolean;
  ticket_ext: number | string | null;
}

const entryOf = (r: InboundRow): InboundEmail => ({
  id: Number(r.id),
  status: r.status,
  reason: r.reason,
  fromAddress: r.from_address,
  fromName: r.from_name,
  subject: r.subject,
  preview: r.preview,
  receivedAt: new Date(r.received_at).toISOString(),
  authFailed: r.auth_failed,
  ticketId: r.ticket_ext === null ? null : Number(r.ticket_ext),
});

export async function listInbound(
  ctx: AppContext,
  portalId: number,
  q: { status: InboundStatus; before?: number | undefined; limit: number },
) {
  const rows = await queryRows<InboundRow>(
    ctx.database.db,
    sql`select e.id, e.status, e.reason, e.from_address, e.from_name, e.subject, e.preview, e.received_at,
        e.auth_failed, t.ext_id as ticket_ext
      from inbound_emails e left join tickets t on t.id = e.ticket_id
      where e.portal_id = ${portalId}::int and e.status = ${q.status}
        and e.id < ${q.before ?? Number.MAX_SAFE_INTEGER}::bigint
      order by e.id desc limit ${q.limit + 1}::int`,
  );
  const items = rows.slice(0, q.limit).map(entryOf);
  return { items, nextBefore: rows.length > q.limit ? items[items.length - 1]!.id : null };
}

/** An agent discards a message that waits; it stays listed under `discarded`, with who and when. */
export async function discardInbound(
  ctx: AppContext,
  portalId: number,
  staffUserId: number,
  id: number,
): Promise<void> {
  const done = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`update inbound_emails set status = 'discarded', handled_at = ${ctx.clock.now().toISOString()}::timestamptz,
        handled_by_staff_id = ${staffUserId}::int
      where id = ${id}::bigint and portal_id = ${portalId}::int and status in ('unknown', 'waiting', 'unprocessed')
      returning id`,
  );
  if (done.length === 0) throw notFound('No such message waiting in this portal', 'inbound_not_found');
}

/** The stored bytes of a message of the portal. */
export async function inboundRaw(ctx: AppContext, portalId: number, id: number) {
  const [row] = await queryRows<{ sha256: string; size: number | string; name: string }>(
    ctx.database.db,
    sql`select f.sha256, f.size, f.name from inbound_emails e join files f on f.id = e.raw_file_id
      where e.id = ${id}::bigint and e.portal_id = ${portalId}::int`,
  );
  if (!row) throw notFound('No such message in this portal', 'inbound_not_found');
  return { sha256: row.sha256, size: Number(row.size), name: row.name };
}

/** A waiting message of the portal, read back from its stored bytes (before any transaction). */
export async function readWaiting(
  ctx: AppContext,
  portalId: number,
  id: number,
): Promise<{ mail: ParsedMail; fileId: number }> {
  const [entry] = await queryRows<{ sha256: string | null; file_id: number | null }>(
    ctx.database.db,
    sql`select f.sha256, f.id as file_id from inbound_emails e left join files f on f.id = e.raw_file_id
      where e.id = ${id}::bigint and e.portal_id = ${portalId}::int and e.status in ('unknown', 'waiting', 'unprocessed')`,
  );
  if (!entry) throw notFound('No such message waiting in this portal', emailErrorCodes.inboundNotFound);
  if (!entry.sha256 || entry.file_id === null)
    throw conflict('The message was not kept (too large)', emailErrorCodes.inboundRefused);
  try {
    const mail = await simpleParser(await ctx.fileStore.readAll(entry.sha256), {
      skipImageLinks: true,
      skipTextLinks: true,
    });
    return { mail, fileId: Number(entry.file_id) };
  } catch (err) {
    throw conflict(
      `The message cannot be read: ${cleanText((err as Error).message, 200)}`,
      emailErrorCodes.inboundRefused,
    );
  }
}

/** Locks a waiting message in `tx`: of two agents at once, the second finds it handled (404). */
export async function lockWaiting(tx: Tx, portalId: number, id: number): Promise<void> {
  const [locked] = await queryRows<{ id: number }>(
    tx,
    sql`select id from inbound_emails where id = ${id}::bigint and portal_id = ${portalId}::int
      and status in ('unknown', 'waiting', 'unprocessed') for update`,
  );
  if (!locked) throw notFound('No such message waiting in this portal', emailErrorCodes.inboundNotFound);
}

/**
 * Makes a locked waiting message the contact's new ticket or, with `ticketId`, their comment on that
 * ticket of their company, and records its entry as done by the agent.
 */
export async function attachIn(
  tx: Tx,
  ctx: AppContext,
  p: {
    portalId: number;
    staffUserId: number;
    id: number;
    mail: ParsedMail;
    fileId: number;
    contact: { id: number; extId: number; companyId: number };
    ticketId?: number | undefined;
    now: Date;
  },
): Promise<void> {
  const { portalId, contact: c, mail } = p;
  let action: MailAction;
  if (p.ticketId !== undefined) {
    const [ticket] = await queryRows<{ id: number }>(
      tx,
      sql`select id from tickets where portal_id = ${portalId}::int and ext_id = ${p.ticketId}::bigint
        and company_id = ${c.companyId}::int`,
    );
    if (!ticket) throw notFound("No such ticket of the contact's company", emailErrorCodes.ticketNotFound);
    action = {
      kind: 'comment',
      ticketExtId: p.ticketId,
      // The agent chose the ticket: the contact writes on it as one who reaches the company's tickets.
      author: {
        kind: 'contact',
        contactId: c.id,
        contactExtId: c.extId,
        userId: null,
        scope: {
          portalId,
          companyId: c.companyId,
          creatorContactId: null,
          followerUserId: null,
          withReports: false,
        },
      },
    };
  } else
    action = {
      kind: 'ticket',
      contact: c,
      address: senderOf(mail)?.address ?? '',
      messageId: mail.messageId,
    };
  const applied = await applyMailAction(tx, ctx, {
    portalId,
    action,
    mail,
    text: replyText(mail),
    rawFileId: p.fileId,
    now: p.now,
  });
  if ('refused' in applied) throw conflict(applied.refused, emailErrorCodes.inboundRefused);
  await tx.execute(sql`update inbound_emails set status = 'done', reason = ${applied.note},
      ticket_id = ${applied.ticketId}::int, comment_id = ${applied.commentId}::int,
      handled_at = ${p.now.toISOString()}::timestamptz, handled_by_staff_id = ${p.staffUserId}::int
    where id = ${p.id}::bigint`);
}

/** A message's entry as the desk lists it. */
export async function inboundEntry(ctx: AppContext, id: number): Promise<InboundEmail> {
  const [row] = await queryRows<InboundRow>(
    ctx.database.db,
    sql`select e.id, e.status, e.reason, e.from_address, e.from_name, e.subject, e.preview, e.received_at,
        e.auth_failed, t.ext_id as ticket_ext
      from inbound_emails e left join tickets t on t.id = e.ticket_id where e.id = ${id}::bigint`,
  );
  return entryOf(row!);
}

/**
 * An agent gives a waiting message to a contact of the portal (docs/email.md "Unknown senders"): it
 * becomes the contact's new ticket or, with `ticketId`, their comment on that ticket of their company,
 * as if they had written it, in one transaction with the message's entry (done, by whom, when).
 */
export async function attachInbound(
  ctx: AppContext,
  portalId: number,
  staffUserId: number,
  id: number,
  body: InboundAttachBody,
): Promise<InboundEmail> {
  const { mail, fileId } = await readWaiting(ctx, portalId, id);
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    await lockWaiting(tx, portalId, id);
    const [contact] = await queryRows<{ id: number; ext_id: number; company_id: number }>(
      tx,
      sql`select id, ext_id, company_id from contacts
        where portal_id = ${portalId}::int and ext_id = ${body.contactId}::bigint`,
    );
    if (!contact) throw notFound('No contact with this id in the portal', emailErrorCodes.contactNotFound);
    await attachIn(tx, ctx, {
      portalId,
      staffUserId,
      id,
      mail,
      fileId,
      contact: {
        id: Number(contact.id),
        extId: Number(contact.ext_id),
        companyId: Number(contact.company_id),
      },
      ticketId: body.ticketId,
      now,
    });
  });
  kickOutbox();
  return inboundEntry(ctx, id);
}

/** The addresses of the portal whose mail bounced: one (a contact's), or the newest. */
export async function listBounces(
  ctx: AppContext,
  portalId: number,
  q: { address?: string | undefined; limit: number },
) {
  const rows = await queryRows<{ address: string; reason: string; bounced_at: Date | string }>(
    ctx.database.db,
    q.address === undefined
      ? sql`select address, reason, bounced_at from email_bounces where portal_id = ${portalId}::int
          order by bounced_at desc, address limit ${q.limit}::int`
      : sql`select address, reason, bounced_at from email_bounces
          where portal_id = ${portalId}::int and address = ${q.address.toLowerCase()}`,
  );
  return {
    items: rows.map((r) => ({
      address: r.address,
      reason: r.reason,
      bouncedAt: new Date(r.bounced_at).toISOString(),
    })),
  };
}

/** Forgets that an address bounced (corrected, or its mailbox works again); a new report marks it again. */
export async function clearBounce(ctx: AppContext, portalId: number, address: string): Promise<void> {
  const done = await queryRows<{ address: string }>(
    ctx.database.db,
    sql`delete from email_bounces where portal_id = ${portalId}::int and address = ${address.toLowerCase()}
      returning address`,
  );
  if (done.length === 0) throw notFound('This address is not marked bouncing', 'bounce_not_found');
}
