/**
 * E-mails to agents (issue 13): a customer opened a ticket, or replied on one. Who hears of it: the
 * staff user who is the ticket's assignee; without one, the staff members of the ticket's group;
 * without those, the portal's triage (issue 28 item 2: the active members of its triage group, else its
 * staff admins), so an unrouted ticket reaches the people chosen to route it, not everyone. Each
 * person keeps only what their preferences ask for (`staff_preferences`, both on by default) and only
 * while they may sign in. Queued in the
 * customer's transaction, through the outbox, so a rolled-back ticket or reply mails nobody.
 * Shared by the tickets module (which writes the change) and the staff module (which owns the
 * preferences): modules do not import each other. A customer's rating at or below the portal's
 * threshold (`portals.low_rating_threshold`, issue 28) reaches the same people, by its own preference.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { escapeHtml, langOf } from '../../../platform/account-mail';
import type { AppContext } from '../../../platform/context';
import { htmlToText } from '../../../platform/html';
import { senderDomain } from '../../../platform/mail';
import { threadHeaders } from '../../../platform/mail-threading';
import { enqueueEmail } from '../../../platform/outbox';
import { queryRows } from '../../../platform/sql-json';
import { writeStaffNotifications } from './staff-bell';
import { staffTicketUrl } from './staff-url';

export type StaffNotice = 'new_ticket' | 'customer_reply';

interface NoticeRow {
  email: string;
  portal_key: string;
  portal_name: string;
  default_language: string;
  ticket_ext: number;
  ticket_number: string;
  title: string;
  author: string;
  message: string;
  portal_id: number;
  /** The portal's support address, when it reads one: the notice's Reply-To then names the ticket. */
  mailbox: string | null;
}

/**
 * The CTEs `t` (the ticket) and `chosen` (the staff users to hear of it: its assignee's; without one,
 * its group's members; without those, the active members of the portal's triage group; without those,
 * the portal's staff admins).
 */
const chosenStaff = (
  ticketId: number,
): SQL => sql`with t as (select * from tickets where id = ${ticketId}::int),
      assignee as (select m.staff_user_id from staff_memberships m join t on m.portal_id = t.portal_id
        and m.agent_id = t.assigned_user_id),
      grp as (select g.staff_user_id from staff_group_members g join t on g.group_id = t.assigned_group_id
        join staff_memberships m on m.staff_user_id = g.staff_user_id and m.portal_id = t.portal_id),
      triage as (select g.staff_user_id from t join portals p on p.id = t.portal_id
        join staff_group_members g on g.group_id = p.triage_group_id
        join staff_memberships m on m.staff_user_id = g.staff_user_id and m.portal_id = t.portal_id
        join staff_users u on u.id = g.staff_user_id and u.status = 'active'),
      admins as (select m.staff_user_id from staff_memberships m join t on m.portal_id = t.portal_id
        where m.role = 'admin'),
      chosen as (
        select staff_user_id from assignee
        union select staff_user_id from grp where not exists (select 1 from assignee)
        union select staff_user_id from triage
          where not exists (select 1 from assignee) and not exists (select 1 from grp)
        union select staff_user_id from admins
          where not exists (select 1 from assignee) and not exists (select 1 from grp)
            and not exists (select 1 from triage))`;

const texts = {
  it: {
    new_ticket: (n: string, title: string) => `Nuovo ticket ${n}: ${title}`,
    customer_reply: (n: string, title: string) => `Risposta del cliente al ticket ${n}: ${title}`,
    intro: { new_ticket: 'ha aperto un ticket', customer_reply: 'ha risposto' },
    forContact: (agent: string, contact: string) => `${agent} ha aperto un ticket per ${contact}`,
    lowRating: (n: string, title: string, r: number) => `Valutazione ${r}/5 sul ticket ${n}: ${title}`,
    rated: (r: number) => `ha valutato il ticket ${r}/5`,
    noComment: '(nessun commento)',
    open: 'Apri nel desk',
    why: 'Puoi scegliere quali e-mail ricevere nelle tue preferenze del desk.',
  },
  en: {
    new_ticket: (n: string, title: string) => `New ticket ${n}: ${title}`,
    customer_reply: (n: string, title: string) => `Customer reply on ticket ${n}: ${title}`,
    intro: { new_ticket: 'opened a ticket', customer_reply: 'replied' },
    forContact: (agent: string, contact: string) => `${agent} opened a ticket for ${contact}`,
    lowRating: (n: string, title: string, r: number) => `Rating ${r}/5 on ticket ${n}: ${title}`,
    rated: (r: number) => `rated the ticket ${r}/5`,
    noComment: '(no comment)',
    open: 'Open in the desk',
    why: 'You choose which e-mails you get in your desk preferences.',
  },
  es: {
    new_ticket: (n: string, title: string) => `Nuevo ticket ${n}: ${title}`,
    customer_reply: (n: string, title: string) => `Respuesta del cliente al ticket ${n}: ${title}`,
    intro: { new_ticket: 'ha abierto un ticket', customer_reply: 'ha respondido' },
    forContact: (agent: string, contact: string) => `${agent} ha abierto un ticket para ${contact}`,
    lowRating: (n: string, title: string, r: number) => `Valoración ${r}/5 en el ticket ${n}: ${title}`,
    rated: (r: number) => `ha valorado el ticket ${r}/5`,
    noComment: '(sin comentario)',
    open: 'Abrir en el escritorio',
    why: 'Eliges qué correos recibes en tus preferencias del escritorio.',
  },
} as const;

/** The staff users `chosenStaff` names for a ticket (the SLA notices reach the same people). */
export async function staffToHear(tx: Tx, ticketId: number): Promise<number[]> {
  const rows = await queryRows<{ staff_user_id: number }>(
    tx,
    sql`${chosenStaff(ticketId)} select staff_user_id from chosen order by staff_user_id`,
  );
  return rows.map((r) => Number(r.staff_user_id));
}

/**
 * The bell's notice (staff-bell.ts) to everyone `chosenStaff` names, whatever their e-mail switches:
 * a customer's reply (`commentId`) or a low rating.
 */
async function ringChosen(
  tx: Tx,
  ctx: Pick<AppContext, 'config'>,
  kind: 'customer_reply' | 'low_rating',
  ticketId: number,
  commentId: number | null,
  now: Date,
): Promise<void> {
  const rows = await queryRows<{ staff_user_id: number; actor: string | null; rating: number | null }>(
    tx,
    sql`${chosenStaff(ticketId)}
      select c.staff_user_id,
        case when ${kind} = 'low_rating' then rc.referent_name else sc.referent_name end as actor, r.rating
      from chosen c cross join t
      left join ticket_comments cm on cm.id = ${commentId}::int and cm.ticket_id = t.id
      left join contacts sc on sc.id = cm.sender_contact_id
      join portals p on p.id = t.portal_id
      left join ticket_ratings r on r.ticket_id = t.id
      left join contacts rc on rc.id = r.contact_id
      where ${kind} <> 'low_rating' or r.rating <= p.low_rating_threshold`,
  );
  if (rows.length === 0) return;
  await writeStaffNotifications(
    tx,
    ctx,
    {
      kind,
      ticketId,
      staffUserIds: rows.map((r) => Number(r.staff_user_id)),
      actorName: rows[0]!.actor ?? '',
      commentId,
      rating: kind === 'low_rating' && rows[0]!.rating !== null ? Number(rows[0]!.rating) : null,
    },
    now,
  );
}

/** One notice: the intro, the quoted text, the desk's link, why they get it; in the portal's language. */
async function mailNotice(
  tx: Tx,
  ctx: Pick<AppContext, 'config' | 'secret'>,
  r: NoticeRow,
  subject: string,
  intro: string,
  quote: string,
  now: Date,
): Promise<void> {
  const t = texts[langOf(r.default_language)];
  const link = staffTicketUrl(ctx, r.portal_key, Number(r.ticket_ext));
  await enqueueEmail(
    tx,
    {
      to: r.email,
      subject,
      text: `${intro}\n\n${quote}\n\n${t.open}: ${link}\n\n-- \n${t.why}\n`,
      html:
        `<p>${escapeHtml(intro)}</p><blockquote>${escapeHtml(quote)}</blockquote>` +
        `<p><a href="${escapeHtml(link)}">${escapeHtml(t.open)}</a></p>` +
        `<p style="color:#666;font-size:12px">${escapeHtml(t.why)}</p>`,
      // An agent answers by replying (docs/email.md): the Reply-To names the ticket.
      thread: threadHeaders(
        ctx.secret,
        Number(r.portal_id),
        Number(r.ticket_ext),
        r.mailbox,
        senderDomain(ctx.config),
      ),
      autoSubmitted: 'auto-generated',
    },
    now,
  );
}

/**
 * Queues the notice of a new ticket (`commentId` null: its description is quoted) or of a customer's
 * reply (that comment is quoted) to the staff users who are to hear of it. Answers how many.
 * `by`: a staff user opened the ticket on the desk for a customer; the notice says so, and the author,
 * who knows, is left out (the others are chosen as for a customer's ticket).
 */
export async function queueStaffNotices(
  tx: Tx,
  ctx: Pick<AppContext, 'config' | 'secret'>,
  notice: StaffNotice,
  ticketId: number,
  commentId: number | null,
  now: Date,
  by?: { staffUserId: number; name: string },
): Promise<number> {
  const wants = notice === 'new_ticket' ? sql.raw('email_new_ticket') : sql.raw('email_customer_reply');
  if (notice === 'customer_reply') await ringChosen(tx, ctx, 'customer_reply', ticketId, commentId, now);
  const rows = await queryRows<NoticeRow>(
    tx,
    sql`${chosenStaff(ticketId)}
      select u.email, p.key as portal_key, p.name as portal_name, p.default_language, p.id as portal_id,
        mb.address as mailbox,
        t.ext_id as ticket_ext, t.ticket_number, t.title,
        coalesce(sc.referent_name, cc.referent_name, '') as author,
        coalesce(cm.message, t.description) as message
      from chosen c join staff_users u on u.id = c.staff_user_id
      cross join t join portals p on p.id = t.portal_id
      left join portal_mailboxes mb on mb.portal_id = p.id and mb.enabled
      left join contacts cc on cc.id = t.creator_contact_id
      left join ticket_comments cm on cm.id = ${commentId}::int and cm.ticket_id = t.id and not cm.internal
      left join contacts sc on sc.id = cm.sender_contact_id
      left join staff_preferences sp on sp.staff_user_id = u.id
      where u.status = 'active' and coalesce(sp.${wants}, true) and u.id <> ${by?.staffUserId ?? 0}::int
        and (${commentId}::int is null or cm.id is not null)
      order by u.id`,
  );
  for (const r of rows) {
    const t = texts[langOf(r.default_language)];
    const n = r.ticket_number || `#${Number(r.ticket_ext)}`;
    const intro = by
      ? `${t.forContact(by.name, r.author || '—')}:`
      : `${r.author || '—'} ${t.intro[notice]}:`;
    await mailNotice(
      tx,
      ctx,
      r,
      `[${r.portal_name}] ${t[notice](n, r.title)}`,
      intro,
      htmlToText(r.message),
      now,
    );
  }
  return rows.length;
}

/**
 * Tells the ticket's staff (chosen as for a customer's reply) that the customer rated it at or below
 * the portal's threshold, quoting the comment; nobody when the rating is above it or the threshold is
 * 0. Each keeps only what they chose (`emailLowRating`). Answers how many.
 */
export async function queueLowRatingNotices(
  tx: Tx,
  ctx: Pick<AppContext, 'config' | 'secret'>,
  ticketId: number,
  now: Date,
): Promise<number> {
  await ringChosen(tx, ctx, 'low_rating', ticketId, null, now);
  const rows = await queryRows<NoticeRow & { rating: number }>(
    tx,
    sql`${chosenStaff(ticketId)}
      select u.email, p.key as portal_key, p.name as portal_name, p.default_language, p.id as portal_id,
        mb.address as mailbox,
        t.ext_id as ticket_ext, t.ticket_number, t.title, coalesce(rc.referent_name, '') as author,
        r.comment as message, r.rating
      from chosen c join staff_users u on u.id = c.staff_user_id
      cross join t join portals p on p.id = t.portal_id
      left join portal_mailboxes mb on mb.portal_id = p.id and mb.enabled
      join ticket_ratings r on r.ticket_id = t.id and r.rating <= p.low_rating_threshold
      left join contacts rc on rc.id = r.contact_id
      left join staff_preferences sp on sp.staff_user_id = u.id
      where u.status = 'active' and coalesce(sp.email_low_rating, true)
      order by u.id`,
  );
  for (const r of rows) {
    const t = texts[langOf(r.default_language)];
    const n = r.ticket_number || `#${Number(r.ticket_ext)}`;
    const rating = Number(r.rating);
    const intro = `${r.author || '—'} ${t.rated(rating)}:`;
    const subject = `[${r.portal_name}] ${t.lowRating(n, r.title, rating)}`;
    await mailNotice(tx, ctx, r, subject, intro, r.message.trim() || t.noComment, now);
  }
  return rows.length;
}
