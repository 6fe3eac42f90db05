/**
 * The e-mail a customer gets when their ticket is merged into another (issue 28 item 8): in the user's
 * language (else the portal's), naming both tickets, with a link to the one the conversation continues
 * on. Queued in the merge's transaction.
 */
import type { Tx } from '../../db/client';
import type { AppContext } from '../../platform/context';
import { escapeHtml, langOf } from '../../platform/account-mail';
import { enqueueEmail, type EmailMessage } from '../../platform/outbox';
import { safeColor } from '../tickets/core';
import { mergeRecipients, type MergeTicket } from './merge.queries';

const texts = {
  it: {
    subject: (s: string, t: string) => `Il ticket ${s} è stato unito al ticket ${t}`,
    intro: (s: string, st: string, t: string, tt: string) =>
      `Il tuo ticket ${s} («${st}») riguardava la stessa richiesta del ticket ${t} («${tt}») ed è stato unito a quest'ultimo.`,
    detail: 'I messaggi e gli allegati sono stati spostati lì: la conversazione continua sul ticket unito.',
    open: (t: string) => `Apri il ticket ${t}`,
    why: 'Ricevi questo messaggio perché hai aperto o segui il ticket sul portale.',
  },
  en: {
    subject: (s: string, t: string) => `Ticket ${s} was merged into ticket ${t}`,
    intro: (s: string, st: string, t: string, tt: string) =>
      `Your ticket ${s} ("${st}") was about the same request as ticket ${t} ("${tt}") and has been merged into it.`,
    detail: 'Its messages and attachments were moved there: the conversation continues on that ticket.',
    open: (t: string) => `Open ticket ${t}`,
    why: 'You receive this message because you opened or follow the ticket on the portal.',
  },
  es: {
    subject: (s: string, t: string) => `El ticket ${s} se ha unido al ticket ${t}`,
    intro: (s: string, st: string, t: string, tt: string) =>
      `Tu ticket ${s} («${st}») trataba la misma solicitud que el ticket ${t} («${tt}») y se ha unido a este.`,
    detail: 'Sus mensajes y adjuntos se han movido allí: la conversación continúa en ese ticket.',
    open: (t: string) => `Abrir el ticket ${t}`,
    why: 'Recibes este mensaje porque abriste o sigues el ticket en el portal.',
  },
} as const;

export function mergeEmail(m: {
  to: string;
  language: string;
  portalName: string;
  baseColor: string | null;
  source: MergeTicket;
  target: MergeTicket;
  link: string;
}): EmailMessage {
  const t = texts[langOf(m.language)];
  const s = m.source.ticketNumber || String(m.source.extId);
  const g = m.target.ticketNumber || String(m.target.extId);
  const intro = t.intro(s, m.source.title, g, m.target.title);
  const color = safeColor(m.baseColor);
  return {
    to: m.to,
    subject: `[${m.portalName}] ${t.subject(s, g)}`,
    text: `${intro}\n\n${t.detail}\n\n${t.open(g)}: ${m.link}\n\n-- \n${m.portalName}\n${t.why}\n`,
    html:
      `<div style="font-family:sans-serif;max-width:640px">` +
      `<div style="background:${color};color:#fff;padding:12px 16px;font-weight:bold">${escapeHtml(m.portalName)}</div>` +
      `<div style="padding:16px"><p>${escapeHtml(intro)}</p><p>${escapeHtml(t.detail)}</p>` +
      `<p><a href="${escapeHtml(m.link)}" style="color:${color}">${escapeHtml(t.open(g))}</a></p>` +
      `<p style="color:#666;font-size:12px">${escapeHtml(t.why)}</p></div></div>`,
  };
}

/** Queues the merge's e-mail to each customer of the source; answers how many. */
export async function queueMergeEmails(
  tx: Tx,
  ctx: Pick<AppContext, 'config'>,
  source: MergeTicket,
  target: MergeTicket,
  now: Date,
): Promise<number> {
  const rows = await mergeRecipients(tx, source.id);
  for (const r of rows) {
    await enqueueEmail(
      tx,
      mergeEmail({
        to: r.email,
        language: r.language ?? r.default_language,
        portalName: r.portal_name,
        baseColor: r.base_color,
        source,
        target,
        link: `${ctx.config.publicUrl}/${r.portal_key}/${Number(r.contact_ext)}/tickets/${target.extId}`,
      }),
      now,
    );
  }
  return rows.length;
}
