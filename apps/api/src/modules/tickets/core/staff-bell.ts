/**
 * The desk's bell (issue 28 item 2): the one writer of `staff_notifications`. Every kind is written
 * here, in the transaction of the change it tells of, so a rolled-back change tells nobody:
 *
 * - `assigned`: a ticket was given to an agent by someone else (the desk's change, one by one or in
 *   bulk) — e-mailed too (`emailAssigned`);
 * - `customer_reply`: a customer replied on a ticket; the same people as the e-mail (staff-notify.ts:
 *   its assignee, else its group, else the portal's triage group, else its admins), e-mailed there
 *   (`emailCustomerReply`);
 * - `mention`: an agent wrote `@handle` in an internal note (mentionedStaff below) — e-mailed too
 *   (`emailMention`);
 * - `low_rating`: a rating at or below the portal's threshold; the same people as its e-mail;
 * - `sla_breach`, `sla_soon`: a service-level target passed unmet, or is about to (item 13; written by
 *   the breach sweep, sla-sweep.ts); the same people as a customer's reply — e-mailed too (`emailSla`).
 *
 * Only members of the ticket's portal whose account is active are written to (staff see every ticket
 * of their portals and nothing of another's), never the one who made the change. The bell shows every
 * kind whatever the e-mail switches say, as the customer's bell does.
 */
import { formatInZone } from '@sportello/contracts/time-zone';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { escapeHtml, langOf } from '../../../platform/account-mail';
import type { AppContext } from '../../../platform/context';
import { enqueueEmail } from '../../../platform/outbox';
import { queryRows } from '../../../platform/sql-json';
import { staffTicketUrl } from './staff-url';

export type StaffBellKind =
  'assigned' | 'customer_reply' | 'mention' | 'low_rating' | 'sla_breach' | 'sla_soon';

export interface StaffBellNotice {
  kind: StaffBellKind;
  ticketId: number;
  /** Who is to hear of it (staff user ids); those who may not see the ticket are left out. */
  staffUserIds: number[];
  /** Who did it, as the desk shows them. */
  actorName: string;
  /** The staff user who made the change: never told of their own change. */
  actorStaffUserId?: number | null;
  commentId?: number | null;
  rating?: number | null;
  /** An SLA notice's target and its due time, named in the bell and in its e-mail. */
  slaTarget?: 'first_response' | 'resolution';
  slaDueAt?: Date;
}

/** Kinds e-mailed from here, and the switch of each (the others are e-mailed by staff-notify.ts). */
const MAILED: Partial<Record<StaffBellKind, string>> = {
  assigned: 'email_assigned',
  mention: 'email_mention',
  sla_breach: 'email_sla',
  sla_soon: 'email_sla',
};

const texts = {
  it: {
    assigned: (who: string, n: string, title: string) => `${who} ti ha assegnato il ticket ${n}: ${title}`,
    mention: (who: string, n: string, title: string) => `${who} ti ha menzionato nel ticket ${n}: ${title}`,
    sla_breach: (target: string, n: string, title: string) =>
      `Il ticket ${n} ha superato il tempo di ${target}: ${title}`,
    sla_soon: (target: string, n: string, title: string) =>
      `Il ticket ${n} sta per superare il tempo di ${target}: ${title}`,
    due: (at: string) => `scadenza ${at}`,
    first_response: 'prima risposta',
    resolution: 'risoluzione',
    open: 'Apri nel desk',
    why: 'Puoi scegliere quali e-mail ricevere nelle tue preferenze del desk.',
  },
  en: {
    assigned: (who: string, n: string, title: string) => `${who} assigned you ticket ${n}: ${title}`,
    mention: (who: string, n: string, title: string) => `${who} mentioned you on ticket ${n}: ${title}`,
    sla_breach: (target: string, n: string, title: string) => `Ticket ${n} breached its ${target}: ${title}`,
    sla_soon: (target: string, n: string, title: string) =>
      `Ticket ${n} is about to breach its ${target}: ${title}`,
    due: (at: string) => `due ${at}`,
    first_response: 'first response target',
    resolution: 'resolution target',
    open: 'Open in the desk',
    why: 'You choose which e-mails you get in your desk preferences.',
  },
  es: {
    assigned: (who: string, n: string, title: string) => `${who} te ha asignado el ticket ${n}: ${title}`,
    mention: (who: string, n: string, title: string) => `${who} te ha mencionado en el ticket ${n}: ${title}`,
    sla_breach: (target: string, n: string, title: string) =>
      `El ticket ${n} ha superado el plazo de ${target}: ${title}`,
    sla_soon: (target: string, n: string, title: string) =>
      `El ticket ${n} está a punto de superar el plazo de ${target}: ${title}`,
    due: (at: string) => `vencimiento ${at}`,
    first_response: 'primera respuesta',
    resolution: 'resolución',
    open: 'Abrir en el escritorio',
    why: 'Eliges qué correos recibes en tus preferencias del escritorio.',
  },
} as const;

/**
 * An SLA notice's target and, when known, its due time as the portal's agents read the clock (in its
 * zone, named): "prima risposta (scadenza 23/03/2026 12:00, Europe/Rome)".
 */
function slaTargetText(t: (typeof texts)[keyof typeof texts], n: StaffBellNotice, timeZone: string): string {
  const target = t[n.slaTarget ?? 'resolution'];
  if (!n.slaDueAt) return target;
  return `${target} (${t.due(`${formatInZone(n.slaDueAt, timeZone, 'DD/MM/YYYY HH:mm')}, ${timeZone}`)})`;
}

interface Written {
  staff_user_id: number;
  email: string;
  wants_mail: boolean;
  portal_key: string;
  portal_name: string;
  default_language: string;
  time_zone: string;
  ticket_ext: number | string;
  ticket_number: string;
  title: string;
}

/**
 * Writes the notice to each of `staffUserIds` who may see the ticket (once each), and queues the
 * e-mail of an `assigned`, `mention` or SLA notice to those whose switch is on. Answers who was written to.
 */
export async function writeStaffNotifications(
  tx: Tx,
  ctx: Pick<AppContext, 'config'>,
  n: StaffBellNotice,
  now: Date,
): Promise<number[]> {
  if (n.staffUserIds.length === 0) return [];
  const mailed = MAILED[n.kind];
  const wants = mailed ? sql.raw(`coalesce(sp.${mailed}, true)`) : sql`false`;
  const rows = await queryRows<Written>(
    tx,
    sql`with t as (select * from tickets where id = ${n.ticketId}::int),
      written as (
        insert into staff_notifications (staff_user_id, portal_id, ticket_id, kind, actor_name, rating,
          comment_id, sla_target, sla_due_at, created_at)
        select m.staff_user_id, t.portal_id, t.id, ${n.kind}, ${n.actorName.slice(0, 200)},
          ${n.rating ?? null}::smallint, ${n.commentId ?? null}::int, ${n.slaTarget ?? null}::text,
          ${n.slaDueAt?.toISOString() ?? null}::timestamptz, ${now.toISOString()}::timestamptz
        from t join staff_memberships m on m.portal_id = t.portal_id
        join staff_users u on u.id = m.staff_user_id and u.status = 'active'
        where m.staff_user_id = any(${sql.param(n.staffUserIds)}::int[])
          and m.staff_user_id <> ${n.actorStaffUserId ?? 0}::int
        returning staff_user_id)
      select w.staff_user_id, u.email, ${wants} as wants_mail, p.key as portal_key, p.name as portal_name,
        p.default_language, p.time_zone, t.ext_id as ticket_ext, t.ticket_number, t.title
      from written w join staff_users u on u.id = w.staff_user_id cross join t
      join portals p on p.id = t.portal_id
      left join staff_preferences sp on sp.staff_user_id = w.staff_user_id
      order by w.staff_user_id`,
  );
  const kind = n.kind;
  if (kind === 'assigned' || kind === 'mention' || kind === 'sla_breach' || kind === 'sla_soon') {
    for (const r of rows.filter((x) => x.wants_mail)) {
      const t = texts[langOf(r.default_language)];
      const num = r.ticket_number || `#${Number(r.ticket_ext)}`;
      const who =
        kind === 'sla_breach' || kind === 'sla_soon' ? slaTargetText(t, n, r.time_zone) : n.actorName;
      const line = t[kind](who || '—', num, r.title);
      const link = staffTicketUrl(ctx, r.portal_key, Number(r.ticket_ext));
      await enqueueEmail(
        tx,
        {
          to: r.email,
          subject: `[${r.portal_name}] ${line}`,
          text: `${line}\n\n${t.open}: ${link}\n\n-- \n${t.why}\n`,
          html:
            `<p>${escapeHtml(line)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(t.open)}</a></p>` +
            `<p style="color:#666;font-size:12px">${escapeHtml(t.why)}</p>`,
          autoSubmitted: 'auto-generated',
        },
        now,
      );
    }
  }
  return rows.map((r) => Number(r.staff_user_id));
}

/**
 * Tells the agent now assigned to the ticket (the portal's agent row `agentId`), unless they assigned
 * it to themselves or it was theirs already (`previousAgentId`).
 */
export async function noticeAssignment(
  tx: Tx,
  ctx: Pick<AppContext, 'config'>,
  ticketId: number,
  agentId: number | null,
  previousAgentId: number | null,
  by: { staffUserId: number | null; name: string },
  now: Date,
): Promise<number[]> {
  if (agentId === null || agentId === previousAgentId) return [];
  const rows = await queryRows<{ staff_user_id: number }>(
    tx,
    sql`select staff_user_id from staff_memberships where agent_id = ${agentId}::int`,
  );
  return writeStaffNotifications(
    tx,
    ctx,
    {
      kind: 'assigned',
      ticketId,
      staffUserIds: rows.map((r) => Number(r.staff_user_id)),
      actorName: by.name,
      actorStaffUserId: by.staffUserId,
    },
    now,
  );
}

// --- Mentions ---

/**
 * The mention syntax (docs/staff.md, "Mentions"): `@` at the start of the text or after a character
 * that is not a letter, digit or one of `.`, `_`, `-`, `@` (so an e-mail address mentions nobody),
 * then a handle of letters, digits, `.`, `_`, `-`; a trailing `.`, `_` or `-` ends the sentence, not
 * the handle. Case does not matter.
 */
const MENTION = /(?<![\p{L}\p{N}._@-])@([\p{L}\p{N}][\p{L}\p{N}._-]*)/gu;

/** The handles a text mentions, lower-cased, once each. */
export function mentionedHandles(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(MENTION)) found.add(m[1]!.replace(/[._-]+$/u, '').toLowerCase());
  found.delete('');
  return [...found];
}

/**
 * A member's handles: the part of their e-mail address before the `@` (`sara.conti` of
 * sara.conti@acme.example), and their display name lower-cased with each run of spaces as one dot
 * (`sara.conti` of "Sara Conti").
 */
export function handlesOf(member: { email: string; displayName: string }): string[] {
  const local = member.email.split('@')[0]!.toLowerCase();
  const name = member.displayName.trim().toLowerCase().replace(/\s+/gu, '.');
  return [...new Set([local, name].filter((h) => h !== ''))];
}

/** The note's text as written: tags become spaces (so a paragraph break separates words). */
const noteText = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&#64;|&commat;/g, '@')
    .replace(/&amp;/g, '&');

/**
 * Tells each member of the ticket's portal that an internal note mentions them. A handle that names
 * nobody who may see the ticket (a member of another portal, a disabled account) is ignored; so is the
 * author's own.
 */
export async function noticeMentions(
  tx: Tx,
  ctx: Pick<AppContext, 'config'>,
  ticket: { id: number; portalId: number },
  commentId: number,
  html: string,
  by: { staffUserId: number; name: string },
  now: Date,
): Promise<number[]> {
  const handles = mentionedHandles(noteText(html));
  if (handles.length === 0) return [];
  const members = await queryRows<{ staff_user_id: number; email: string; display_name: string }>(
    tx,
    sql`select u.id as staff_user_id, u.email, u.display_name from staff_memberships m
      join staff_users u on u.id = m.staff_user_id and u.status = 'active'
      where m.portal_id = ${ticket.portalId}::int`,
  );
  const wanted = new Set(handles);
  const ids = members
    .filter((m) => handlesOf({ email: m.email, displayName: m.display_name }).some((h) => wanted.has(h)))
    .map((m) => Number(m.staff_user_id));
  return writeStaffNotifications(
    tx,
    ctx,
    {
      kind: 'mention',
      ticketId: ticket.id,
      staffUserIds: ids,
      actorName: by.name,
      actorStaffUserId: by.staffUserId,
      commentId,
    },
    now,
  );
}
