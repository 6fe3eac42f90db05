/**
 * The e-mail a ticket's creator gets when an agent answers (through the integration API or the staff
 * desk): in the user's language (else the portal's), with the portal's name and colour, the answer's
 * text and a link to the ticket. Internal notes are never mailed: `queueAgentAnswerEmails` reads the
 * comment itself and finds nothing to send for one.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import type { AppContext } from '../../../platform/context';
import { escapeHtml, langOf } from '../../../platform/account-mail';
import { senderDomain } from '../../../platform/mail';
import { threadHeaders, type ThreadHeaders } from '../../../platform/mail-threading';
import { enqueueEmail, type EmailMessage } from '../../../platform/outbox';
import { queryRows } from '../../../platform/sql-json';

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

export const safeColor = (c: string | null) => (c && /^#[0-9a-f]{3,8}$/i.test(c) ? c : '#1c7ed6');

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
  thread?: ThreadHeaders;
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
    ...(m.thread ? { thread: m.thread } : {}),
  };
}

/**
 * Queues the answer e-mail of a public agent comment to every user holding the ticket creator's contact,
 * and to every colleague following the ticket (issue 16), each once, who wants agent answers
 * (`users.notify_agent_comments`) and has an address, in the comment's transaction. Each link opens the
 * ticket under the recipient's own contact in the ticket's company. An internal note, or a comment that
 * is no agent's, queues nothing. Answers how many.
 */
export async function queueAgentAnswerEmails(
  tx: Tx,
  ctx: Pick<AppContext, 'config' | 'secret'>,
  commentId: number,
  now: Date,
): Promise<number> {
  const rows = await queryRows<{
    email: string;
    language: string | null;
    portal_name: string;
    portal_key: string;
    base_color: string | null;
    default_language: string;
    ticket_number: string;
    title: string;
    ticket_ext: number;
    creator_ext: number;
    message: string;
    agent_name: string;
    portal_id: number;
    mailbox: string | null;
  }>(
    tx,
    sql`select r.email, r.language, p.name as portal_name, p.key as portal_key, p.base_color,
        p.default_language, t.ticket_number, t.title, t.ext_id as ticket_ext, r.contact_ext as creator_ext,
        cm.message, coalesce(sa.display_name, su.display_name, '') as agent_name, p.id as portal_id,
        mb.address as mailbox
      from ticket_comments cm
      join tickets t on t.id = cm.ticket_id
      join portals p on p.id = t.portal_id
      left join portal_mailboxes mb on mb.portal_id = p.id and mb.enabled
      join lateral (
        -- The creator's users first, then followers; a user in both is mailed once, as the creator.
        select distinct on (u.id) u.id, u.email, u.language, c.ext_id as contact_ext
        from (
          select uc.user_id, uc.contact_id, 0 as rank from user_contacts uc
          where uc.contact_id = t.creator_contact_id
          union all
          select f.user_id, fc.id, 1 from ticket_followers f
          join user_contacts fuc on fuc.user_id = f.user_id
          join contacts fc on fc.id = fuc.contact_id and fc.company_id = t.company_id
          where f.ticket_id = t.id
        ) x
        join users u on u.id = x.user_id
        join contacts c on c.id = x.contact_id
        where u.notify_agent_comments and u.email is not null and u.email <> ''
        order by u.id, x.rank, c.ext_id
      ) r on true
      left join agents sa on sa.id = cm.sender_agent_id
      left join staff_users su on su.id = cm.sender_staff_id
      where cm.id = ${commentId}::int and not cm.internal
        and (cm.sender_agent_id is not null or cm.sender_staff_id is not null)
      order by r.id`,
  );
  for (const r of rows) {
    await enqueueEmail(
      tx,
      agentAnswerEmail({
        to: r.email,
        language: r.language ?? r.default_language,
        portalName: r.portal_name,
        baseColor: r.base_color,
        agentName: r.agent_name,
        ticketNumber: r.ticket_number,
        ticketTitle: r.title,
        messageHtml: r.message,
        link: `${ctx.config.publicUrl}/${r.portal_key}/${Number(r.creator_ext)}/tickets/${Number(r.ticket_ext)}`,
        thread: threadHeaders(
          ctx.secret,
          Number(r.portal_id),
          Number(r.ticket_ext),
          r.mailbox,
          senderDomain(ctx.config),
        ),
      }),
      now,
    );
  }
  return rows.length;
}
