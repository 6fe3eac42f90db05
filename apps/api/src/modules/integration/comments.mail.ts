/**
 * The e-mail a ticket's creator gets when an agent answers: in the user's language (else the portal's),
 * with the portal's name and colour, the answer's text and a link to the ticket.
 */
import { langOf } from '../../platform/account-mail';
import type { EmailMessage } from '../../platform/outbox';

const texts = {
  it: {
    subject: (n: string, title: string) => `Nuova risposta al ticket ${n}: ${title}`,
    intro: (agent: string, n: string) => `${agent} ha risposto al tuo ticket ${n}.`,
    open: 'Apri il ticket',
    optOut: 'Ricevi questo messaggio perché hai aperto il ticket sul portale.',
  },
  en: {
    subject: (n: string, title: string) => `New answer on ticket ${n}: ${title}`,
    intro: (agent: string, n: string) => `${agent} answered your ticket ${n}.`,
    open: 'Open the ticket',
    optOut: 'You receive this message because you opened the ticket on the portal.',
  },
  es: {
    subject: (n: string, title: string) => `Nueva respuesta al ticket ${n}: ${title}`,
    intro: (agent: string, n: string) => `${agent} ha respondido a tu ticket ${n}.`,
    open: 'Abrir el ticket',
    optOut: 'Recibes este mensaje porque abriste el ticket en el portal.',
  },
} as const;

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Plain text of sanitised HTML (for the text part). */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const safeColor = (c: string | null) => (c && /^#[0-9a-f]{3,8}$/i.test(c) ? c : '#1c7ed6');

export interface AgentAnswerMail {
  to: string;
  language: string | null;
  portalName: string;
  baseColor: string | null;
  agentName: string;
  ticketNumber: string;
  ticketTitle: string;
  /** Sanitised HTML of the comment. */
  messageHtml: string;
  link: string;
}

export function agentAnswerEmail(m: AgentAnswerMail): EmailMessage {
  const t = texts[langOf(m.language ?? undefined)];
  const n = m.ticketNumber || '';
  const intro = t.intro(m.agentName, n);
  const color = safeColor(m.baseColor);
  return {
    to: m.to,
    subject: `[${m.portalName}] ${t.subject(n, m.ticketTitle)}`,
    text: `${intro}\n\n${htmlToText(m.messageHtml)}\n\n${t.open}: ${m.link}\n\n-- \n${m.portalName}\n${t.optOut}\n`,
    html:
      `<div style="font-family:sans-serif;max-width:640px">` +
      `<div style="background:${color};color:#fff;padding:12px 16px;font-weight:bold">${escapeHtml(m.portalName)}</div>` +
      `<div style="padding:16px"><p>${escapeHtml(intro)}</p>` +
      `<blockquote style="border-left:3px solid ${color};margin:0;padding:0 12px">${m.messageHtml}</blockquote>` +
      `<p><a href="${escapeHtml(m.link)}" style="color:${color}">${escapeHtml(t.open)}</a></p>` +
      `<p style="color:#666;font-size:12px">${escapeHtml(t.optOut)}</p></div></div>`,
  };
}
