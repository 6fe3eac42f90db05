/**
 * The e-mail confirming a ticket the customer opened on the portal (issue 29): to the user who opened
 * it, in their language (else the portal's), with the ticket's number, what they wrote and a link to
 * it. Queued in the ticket's own transaction (the outbox), so it goes if and only if the ticket exists.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { AppContext } from '../../platform/context';
import { langOf } from '../../platform/account-mail';
import { escapeHtml, htmlToText, safeColor } from './core';
import { enqueueEmail, type EmailMessage } from '../../platform/outbox';
import { queryRows } from '../../platform/sql-json';

const texts = {
  it: {
    subject: (n: string, title: string) => `Ticket ${n} ricevuto: ${title}`,
    intro: (n: string) => `Abbiamo ricevuto il tuo ticket ${n}. Ti risponderemo sul portale e per e-mail.`,
    open: 'Apri il ticket',
    why: 'Ricevi questo messaggio perché hai aperto il ticket sul portale.',
  },
  en: {
    subject: (n: string, title: string) => `Ticket ${n} received: ${title}`,
    intro: (n: string) => `We have received your ticket ${n}. We will answer on the portal and by e-mail.`,
    open: 'Open the ticket',
    why: 'You receive this message because you opened the ticket on the portal.',
  },
  es: {
    subject: (n: string, title: string) => `Ticket ${n} recibido: ${title}`,
    intro: (n: string) => `Hemos recibido tu ticket ${n}. Te responderemos en el portal y por correo.`,
    open: 'Abrir el ticket',
    why: 'Recibes este mensaje porque abriste el ticket en el portal.',
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
}

export function ticketReceivedEmail(m: TicketReceivedMail): EmailMessage {
  const t = texts[langOf(m.language ?? undefined)];
  const intro = t.intro(m.ticketNumber);
  const color = safeColor(m.baseColor);
  return {
    to: m.to,
    subject: `[${m.portalName}] ${t.subject(m.ticketNumber, m.ticketTitle)}`,
    text: `${intro}\n\n${m.ticketTitle}\n\n${htmlToText(m.descriptionHtml)}\n\n${t.open}: ${m.link}\n\n-- \n${m.portalName}\n${t.why}\n`,
    html:
      `<div style="font-family:sans-serif;max-width:640px">` +
      `<div style="background:${color};color:#fff;padding:12px 16px;font-weight:bold">${escapeHtml(m.portalName)}</div>` +
      `<div style="padding:16px"><p>${escapeHtml(intro)}</p><p><strong>${escapeHtml(m.ticketTitle)}</strong></p>` +
      `<blockquote style="border-left:3px solid ${color};margin:0;padding:0 12px">${m.descriptionHtml}</blockquote>` +
      `<p><a href="${escapeHtml(m.link)}" style="color:${color}">${escapeHtml(t.open)}</a></p>` +
      `<p style="color:#666;font-size:12px">${escapeHtml(t.why)}</p></div></div>`,
  };
}

/** Queues the confirmation of a new ticket to the user who opened it, when they have an address. */
export async function queueTicketReceivedEmail(
  tx: Tx,
  ctx: Pick<AppContext, 'config'>,
  userId: number,
  ticketId: number,
  now: Date,
): Promise<void> {
  const [r] = await queryRows<{
    email: string | null;
    language: string | null;
    default_language: string;
    portal_name: string;
    portal_key: string;
    base_color: string | null;
    ticket_number: string;
    title: string;
    description: string;
    ticket_ext: number;
    contact_ext: number;
  }>(
    tx,
    sql`select u.email, u.language, p.default_language, p.name as portal_name, p.key as portal_key,
        p.base_color, t.ticket_number, t.title, t.description, t.ext_id as ticket_ext, c.ext_id as contact_ext
      from tickets t
      join portals p on p.id = t.portal_id
      join contacts c on c.id = t.creator_contact_id
      join users u on u.id = ${userId}::int
      where t.id = ${ticketId}::int`,
  );
  if (!r?.email) return;
  await enqueueEmail(
    tx,
    ticketReceivedEmail({
      to: r.email,
      language: r.language ?? r.default_language,
      portalName: r.portal_name,
      baseColor: r.base_color,
      ticketNumber: r.ticket_number || `#${Number(r.ticket_ext)}`,
      ticketTitle: r.title,
      descriptionHtml: r.description,
      link: `${ctx.config.publicUrl}/${r.portal_key}/${Number(r.contact_ext)}/tickets/${Number(r.ticket_ext)}`,
    }),
    now,
  );
}
