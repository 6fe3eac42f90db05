/**
 * The e-mail confirming a ticket the customer opened (issue 29): on the portal, to the user who opened
 * it, in their language (else the portal's); by e-mail (issue 26), to the address that wrote, in the
 * portal's language. With the ticket's number, what they wrote and a link to it, and the ticket's
 * threading (a reply to it lands on the ticket). Queued in the ticket's own transaction (the outbox), so
 * it goes if and only if the ticket exists.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import type { AppContext } from '../../../platform/context';
import { langOf } from '../../../platform/account-mail';
import { escapeHtml } from '../../../platform/account-mail';
import { htmlToText, safeColor } from './agent-answer';
import { senderDomain } from '../../../platform/mail';
import { threadHeaders, type ThreadHeaders } from '../../../platform/mail-threading';
import { enqueueEmail, type EmailMessage } from '../../../platform/outbox';
import { queryRows } from '../../../platform/sql-json';

const texts = {
  it: {
    subject: (n: string, title: string) => `Ticket ${n} ricevuto: ${title}`,
    intro: (n: string) => `Abbiamo ricevuto il tuo ticket ${n}. Ti risponderemo sul portale e per e-mail.`,
    open: 'Apri il ticket',
    introForYou: (agent: string, n: string) =>
      `${agent} ha aperto per te il ticket ${n}. Ti risponderemo sul portale e per e-mail.`,
    why: 'Ricevi questo messaggio perché hai aperto il ticket sul portale.',
    whyForYou: 'Ricevi questo messaggio perché un nostro operatore ha aperto il ticket a tuo nome.',
    whyEmail: "Ricevi questo messaggio perché hai scritto all'indirizzo dell'assistenza.",
  },
  en: {
    subject: (n: string, title: string) => `Ticket ${n} received: ${title}`,
    intro: (n: string) => `We have received your ticket ${n}. We will answer on the portal and by e-mail.`,
    open: 'Open the ticket',
    introForYou: (agent: string, n: string) =>
      `${agent} opened ticket ${n} for you. We will answer on the portal and by e-mail.`,
    why: 'You receive this message because you opened the ticket on the portal.',
    whyForYou: 'You receive this message because one of our agents opened the ticket on your behalf.',
    whyEmail: 'You receive this message because you wrote to the support address.',
  },
  es: {
    subject: (n: string, title: string) => `Ticket ${n} recibido: ${title}`,
    intro: (n: string) => `Hemos recibido tu ticket ${n}. Te responderemos en el portal y por correo.`,
    open: 'Abrir el ticket',
    introForYou: (agent: string, n: string) =>
      `${agent} abrió para ti el ticket ${n}. Te responderemos en el portal y por correo.`,
    why: 'Recibes este mensaje porque abriste el ticket en el portal.',
    whyForYou: 'Recibes este mensaje porque uno de nuestros agentes abrió el ticket en tu nombre.',
    whyEmail: 'Recibes este mensaje porque escribiste a la dirección de asistencia.',
  },
} as const;

export interface TicketReceivedMail {
  to: string;
  language: string | null;
  portalName: string;
  baseColor: string | null;
  ticketNumber: string;
  ticketTitle: string;
  /** Sanitised HTML of the description. */
  descriptionHtml: string;
  link: string;
  /** Opened by an e-mail to the support address (not on the portal). */
  viaEmail?: boolean;
  /** Opened on the desk by this agent, for the customer (issue 28 item 12). */
  openedBy?: string;
  thread?: ThreadHeaders;
}

export function ticketReceivedEmail(m: TicketReceivedMail): EmailMessage {
  const t = texts[langOf(m.language ?? undefined)];
  const intro = m.openedBy ? t.introForYou(m.openedBy, m.ticketNumber) : t.intro(m.ticketNumber);
  const color = safeColor(m.baseColor);
  const why = m.viaEmail ? t.whyEmail : m.openedBy ? t.whyForYou : t.why;
  return {
    to: m.to,
    ...(m.thread ? { thread: m.thread } : {}),
    // An answer to the customer's own e-mail: auto-responders leave it alone (RFC 3834).
    ...(m.viaEmail ? { autoSubmitted: 'auto-replied' as const } : {}),
    subject: `[${m.portalName}] ${t.subject(m.ticketNumber, m.ticketTitle)}`,
    text: `${intro}\n\n${m.ticketTitle}\n\n${htmlToText(m.descriptionHtml)}\n\n${t.open}: ${m.link}\n\n-- \n${m.portalName}\n${why}\n`,
    html:
      `<div style="font-family:sans-serif;max-width:640px">` +
      `<div style="background:${color};color:#fff;padding:12px 16px;font-weight:bold">${escapeHtml(m.portalName)}</div>` +
      `<div style="padding:16px"><p>${escapeHtml(intro)}</p><p><strong>${escapeHtml(m.ticketTitle)}</strong></p>` +
      `<blockquote style="border-left:3px solid ${color};margin:0;padding:0 12px">${m.descriptionHtml}</blockquote>` +
      `<p><a href="${escapeHtml(m.link)}" style="color:${color}">${escapeHtml(t.open)}</a></p>` +
      `<p style="color:#666;font-size:12px">${escapeHtml(why)}</p></div></div>`,
  };
}

/**
 * Queues the confirmation of a new ticket: to the portal user who opened it (when they have an
 * address), to the address whose e-mail opened it (`inReplyTo`: that e-mail's Message-ID), or to the
 * contact an agent opened it for (`openedBy`: the agent's display name; the contact's address, else
 * their portal user's, in that user's language).
 */
export async function queueTicketReceivedEmail(
  tx: Tx,
  ctx: Pick<AppContext, 'config' | 'secret'>,
  to: { userId: number } | { address: string; inReplyTo?: string | undefined } | { openedBy: string },
  ticketId: number,
  now: Date,
): Promise<void> {
  const userId = 'userId' in to ? to.userId : -1;
  const forContact = 'openedBy' in to;
  const [r] = await queryRows<{
    email: string | null;
    language: string | null;
    default_language: string;
    portal_id: number;
    portal_name: string;
    portal_key: string;
    base_color: string | null;
    ticket_number: string;
    title: string;
    description: string;
    ticket_ext: number;
    contact_ext: number;
    contact_email: string | null;
    mailbox: string | null;
  }>(
    tx,
    sql`select u.email, u.language, p.default_language, p.id as portal_id, p.name as portal_name,
        p.key as portal_key, p.base_color, t.ticket_number, t.title, t.description, t.ext_id as ticket_ext,
        c.ext_id as contact_ext, c.email as contact_email, mb.address as mailbox
      from tickets t
      join portals p on p.id = t.portal_id
      join contacts c on c.id = t.creator_contact_id
      left join users u on u.id = case when ${forContact}::boolean
        then (select min(uc.user_id) from user_contacts uc where uc.contact_id = c.id) else ${userId}::int end
      left join portal_mailboxes mb on mb.portal_id = p.id and mb.enabled
      where t.id = ${ticketId}::int`,
  );
  const address = 'address' in to ? to.address : forContact ? r?.contact_email || r?.email : r?.email;
  if (!r || !address) return;
  const thread = threadHeaders(
    ctx.secret,
    Number(r.portal_id),
    Number(r.ticket_ext),
    r.mailbox,
    senderDomain(ctx.config),
  );
  const inReplyTo = 'address' in to ? to.inReplyTo : undefined;
  await enqueueEmail(
    tx,
    ticketReceivedEmail({
      to: address,
      language: r.language ?? r.default_language,
      portalName: r.portal_name,
      baseColor: r.base_color,
      ticketNumber: r.ticket_number || `#${Number(r.ticket_ext)}`,
      ticketTitle: r.title,
      descriptionHtml: r.description,
      link: `${ctx.config.publicUrl}/${r.portal_key}/${Number(r.contact_ext)}/tickets/${Number(r.ticket_ext)}`,
      viaEmail: 'address' in to,
      ...(forContact ? { openedBy: to.openedBy } : {}),
      thread: inReplyTo ? { ...thread, inReplyTo, references: [inReplyTo, ...thread.references] } : thread,
    }),
    now,
  );
}
