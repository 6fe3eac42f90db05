/**
 * SQL of merging tickets (issue 28 item 8, migration 0052): the locks, the moves and their record.
 * Every statement is scoped by the portal or by tickets the caller has locked in it.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { isoText, queryRows, type Queryable } from '../../platform/sql-json';

export interface MergeTicket {
  id: number;
  extId: number;
  companyId: number;
  statusStepId: number;
  closed: boolean;
  ticketNumber: string;
  title: string;
}

const ticketOf = (r: Record<string, unknown>): MergeTicket => ({
  id: Number(r.id),
  extId: Number(r.ext_id),
  companyId: Number(r.company_id),
  statusStepId: Number(r.status_step_id),
  closed: r.closed === true,
  ticketNumber: String(r.ticket_number ?? ''),
  title: String(r.title ?? ''),
});

/**
 * Locks the portal's tickets of these back-office ids, in the order of their row ids: every write that
 * holds two tickets takes them in that order (a single-ticket write holds one), so two merges of the
 * same pair, in either direction, wait for each other instead of deadlocking.
 */
export async function lockTickets(tx: Tx, portalId: number, extIds: number[]): Promise<MergeTicket[]> {
  const rows = await queryRows<Record<string, unknown>>(
    tx,
    sql`select t.id, t.ext_id, t.company_id, t.status_step_id, t.closed, t.ticket_number, t.title
      from tickets t where t.portal_id = ${portalId}::int
        and t.ext_id = any(${`{${extIds.map((n) => Math.trunc(n)).join(',')}}`}::bigint[])
      order by t.id for update of t`,
  );
  return rows.map(ticketOf);
}

/** The active (not undone) merges in which these tickets are the source. */
export async function activeMergesOf(tx: Queryable, ticketIds: number[]): Promise<number[]> {
  const rows = await queryRows<{ source_ticket_id: number }>(
    tx,
    sql`select source_ticket_id from ticket_merges
      where undone_at is null and source_ticket_id = any(${`{${ticketIds.join(',')}}`}::int[])`,
  );
  return rows.map((r) => Number(r.source_ticket_id));
}

/** The portal's first closing step (its row id), as the bulk close picks it. */
export async function closingStep(tx: Queryable, portalId: number): Promise<number | null> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select id from status_steps where portal_id = ${portalId}::int and is_closing order by ext_id limit 1`,
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/**
 * Moves the source's comments (with their attachments), its opening attachments and its time entries to
 * the target. A comment keeps its author, date, visibility and channel; the conversations are read in
 * date order, so the moved rows fall in place among the target's. The time entries go with the
 * conversation they were spent on (one logged with a reply stays with that reply), so the target's
 * sums and hour banks count the whole of the work. Answers the moved row ids.
 */
export async function moveConversation(
  tx: Tx,
  sourceId: number,
  targetId: number,
): Promise<{ commentIds: number[]; attachmentIds: number[]; timeEntryIds: number[] }> {
  const comments = await queryRows<{ id: number }>(
    tx,
    sql`update ticket_comments set ticket_id = ${targetId}::int where ticket_id = ${sourceId}::int returning id`,
  );
  const attachments = await queryRows<{ id: number }>(
    tx,
    sql`update ticket_attachments set ticket_id = ${targetId}::int where ticket_id = ${sourceId}::int returning id`,
  );
  const entries = await queryRows<{ id: number }>(
    tx,
    sql`update ticket_time_entries set ticket_id = ${targetId}::int where ticket_id = ${sourceId}::int returning id`,
  );
  const sorted = (rows: { id: number }[]) => rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  return {
    commentIds: sorted(comments),
    attachmentIds: sorted(attachments),
    timeEntryIds: sorted(entries),
  };
}

/** Moves back the comments, attachments and time entries a merge moved (those still on the target). */
export async function moveBack(
  tx: Tx,
  m: {
    sourceId: number;
    targetId: number;
    commentIds: number[];
    attachmentIds: number[];
    timeEntryIds: number[];
  },
): Promise<void> {
  const ids = (xs: number[]) => `{${xs.join(',')}}`;
  await tx.execute(
    sql`update ticket_comments set ticket_id = ${m.sourceId}::int
      where id = any(${ids(m.commentIds)}::int[]) and ticket_id = ${m.targetId}::int`,
  );
  await tx.execute(
    sql`update ticket_attachments set ticket_id = ${m.sourceId}::int
      where id = any(${ids(m.attachmentIds)}::int[]) and ticket_id = ${m.targetId}::int`,
  );
  await tx.execute(
    sql`update ticket_time_entries set ticket_id = ${m.sourceId}::int
      where id = any(${ids(m.timeEntryIds)}::int[]) and ticket_id = ${m.targetId}::int`,
  );
}

/**
 * The source's followers, and the users of its creator (their conversation moves), follow the target
 * unless they already reach it as its creator's users or follow it. Answers the user ids added.
 */
export async function joinFollowers(
  tx: Tx,
  sourceId: number,
  targetId: number,
  now: Date,
): Promise<number[]> {
  const rows = await queryRows<{ user_id: number }>(
    tx,
    sql`insert into ticket_followers (ticket_id, user_id, added_by_user_id, created_at)
      select ${targetId}::int, x.user_id, min(x.added_by), ${now.toISOString()}::timestamptz
      from (
        select f.user_id, f.added_by_user_id as added_by from ticket_followers f where f.ticket_id = ${sourceId}::int
        union all
        select uc.user_id, null from tickets s join user_contacts uc on uc.contact_id = s.creator_contact_id
        where s.id = ${sourceId}::int
      ) x
      where not exists (select 1 from tickets tg join user_contacts tuc on tuc.contact_id = tg.creator_contact_id
          where tg.id = ${targetId}::int and tuc.user_id = x.user_id)
      group by x.user_id
      on conflict (ticket_id, user_id) do nothing
      returning user_id`,
  );
  return rows.map((r) => Number(r.user_id)).sort((a, b) => a - b);
}

export async function dropFollowers(tx: Tx, targetId: number, userIds: number[]): Promise<void> {
  await tx.execute(
    sql`delete from ticket_followers where ticket_id = ${targetId}::int
      and user_id = any(${`{${userIds.join(',')}}`}::int[])`,
  );
}

/**
 * A ticket's staff-side activity and "waiting for the customer" read again from its comments, as the
 * comments' insert trigger keeps them (migration 0008): a move is no insert, and the trigger of an
 * update keeps the public activity and the words only (0040).
 */
export async function refreshActivity(tx: Tx, ticketIds: number[]): Promise<void> {
  await tx.execute(
    sql`update tickets t set
        last_activity_at = greatest(t.created_on, (select max(c.creation_date) from ticket_comments c
          where c.ticket_id = t.id)),
        waiting_on_customer = coalesce((select c.sender_agent_id is not null or c.sender_staff_id is not null
          from ticket_comments c where c.ticket_id = t.id and not c.internal
          order by c.creation_date desc, c.id desc limit 1), false)
      where t.id = any(${`{${ticketIds.join(',')}}`}::int[])`,
  );
}

export async function setStep(tx: Tx, ticketId: number, stepId: number): Promise<void> {
  await tx.execute(sql`update tickets set status_step_id = ${stepId}::int where id = ${ticketId}::int`);
}

export async function insertMerge(
  tx: Tx,
  m: {
    portalId: number;
    sourceId: number;
    targetId: number;
    at: Date;
    staffUserId: number;
    staffName: string;
    commentIds: number[];
    attachmentIds: number[];
    timeEntryIds: number[];
    followerUserIds: number[];
    sourceStepId: number | null;
  },
): Promise<number> {
  const ids = (xs: number[]) => `{${xs.join(',')}}`;
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`insert into ticket_merges (portal_id, source_ticket_id, target_ticket_id, merged_at, merged_by_staff_id,
        merged_by_name, comment_ids, attachment_ids, time_entry_ids, follower_user_ids, source_step_id)
      values (${m.portalId}::int, ${m.sourceId}::int, ${m.targetId}::int, ${m.at.toISOString()}::timestamptz,
        ${m.staffUserId}::int, ${m.staffName}, ${ids(m.commentIds)}::int[], ${ids(m.attachmentIds)}::int[],
        ${ids(m.timeEntryIds)}::int[], ${ids(m.followerUserIds)}::int[], ${m.sourceStepId}::int)
      returning id`,
  );
  return Number(rows[0]!.id);
}

export interface MergeRow {
  id: number;
  sourceId: number;
  targetId: number;
  sourceExtId: number;
  targetExtId: number;
  mergedAt: Date;
  commentIds: number[];
  attachmentIds: number[];
  timeEntryIds: number[];
  followerUserIds: number[];
  sourceStepId: number | null;
}

const intArray = (v: unknown): number[] =>
  Array.isArray(v)
    ? v.map(Number)
    : typeof v === 'string'
      ? v
          .replace(/[{}]/g, '')
          .split(',')
          .filter((x) => x !== '')
          .map(Number)
      : [];

/** The active merge whose source is the portal's ticket of this id (no lock). */
export async function activeMergeOfSource(
  db: Queryable,
  portalId: number,
  sourceExtId: number,
): Promise<MergeRow | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select m.id, m.source_ticket_id, m.target_ticket_id, s.ext_id as source_ext, tg.ext_id as target_ext,
        ${sql.raw(isoText('m.merged_at'))} as merged_at, m.comment_ids, m.attachment_ids, m.time_entry_ids,
        m.follower_user_ids, m.source_step_id
      from tickets s join ticket_merges m on m.source_ticket_id = s.id and m.undone_at is null
      join tickets tg on tg.id = m.target_ticket_id
      where s.portal_id = ${portalId}::int and s.ext_id = ${sourceExtId}::bigint`,
  );
  const r = rows[0];
  return (
    r && {
      id: Number(r.id),
      sourceId: Number(r.source_ticket_id),
      targetId: Number(r.target_ticket_id),
      sourceExtId: Number(r.source_ext),
      targetExtId: Number(r.target_ext),
      mergedAt: new Date(String(r.merged_at)),
      commentIds: intArray(r.comment_ids),
      attachmentIds: intArray(r.attachment_ids),
      timeEntryIds: intArray(r.time_entry_ids),
      followerUserIds: intArray(r.follower_user_ids),
      sourceStepId: r.source_step_id === null ? null : Number(r.source_step_id),
    }
  );
}

export async function markUndone(tx: Tx, mergeId: number, at: Date, staffUserId: number): Promise<void> {
  await tx.execute(
    sql`update ticket_merges set undone_at = ${at.toISOString()}::timestamptz,
        undone_by_staff_id = ${staffUserId}::int where id = ${mergeId}::int`,
  );
}

/** The merge's notes in both tickets' timelines (staff only: the customer sees the banner). */
export async function writeMergeNotes(
  tx: Tx,
  kind: 'merged' | 'undone',
  m: {
    portalId: number;
    source: { id: number; extId: number; ticketNumber: string };
    target: { id: number; extId: number; ticketNumber: string };
    at: Date;
    staffUserId: number;
    staffName: string;
  },
): Promise<void> {
  const at = m.at.toISOString();
  const s = m.source;
  const t = m.target;
  const row = (ticketId: number, k: string, from: typeof s | null, to: typeof t | null) =>
    sql`(${m.portalId}::int, ${ticketId}::int, ${at}::timestamptz, ${k}, false, ${from?.extId ?? null}::bigint,
      ${from?.ticketNumber ?? null}::text, ${to?.extId ?? null}::bigint, ${to?.ticketNumber ?? null}::text,
      'staff', ${m.staffUserId}::int, ${m.staffName})`;
  const rows =
    kind === 'merged'
      ? [row(s.id, 'merged_into', null, t), row(t.id, 'merged_from', s, null)]
      : [row(s.id, 'merge_undone', s, t), row(t.id, 'merge_undone', s, t)];
  await tx.execute(
    sql`insert into ticket_changes (portal_id, ticket_id, at, kind, public, from_ext, from_name, to_ext, to_name,
        actor_kind, actor_id, actor_name) values ${sql.join(rows, sql`, `)}`,
  );
}

/** What the desk shows of a ticket's merges: the one it was merged into, those merged into it. */
export async function mergeStateOf(
  db: Queryable,
  portalId: number,
  ticketExtId: number,
  maxFrom: number,
): Promise<
  | {
      into: { id: number; num: string; title: string; at: string; by: string } | null;
      from: { id: number; num: string; title: string; at: string; by: string }[];
    }
  | undefined
> {
  const rows = await queryRows<{ into: unknown; from: unknown }>(
    db,
    sql`select
        (select json_build_object('id', tg.ext_id, 'num', tg.ticket_number, 'title', tg.title,
            'at', ${sql.raw(isoText('m.merged_at'))}, 'by', m.merged_by_name)
          from ticket_merges m join tickets tg on tg.id = m.target_ticket_id
          where m.source_ticket_id = t.id and m.undone_at is null) as into,
        (select coalesce(json_agg(x.j order by x.merged_at, x.id), '[]'::json) from (
          select json_build_object('id', s.ext_id, 'num', s.ticket_number, 'title', s.title,
            'at', ${sql.raw(isoText('m.merged_at'))}, 'by', m.merged_by_name) as j, m.merged_at, m.id
          from ticket_merges m join tickets s on s.id = m.source_ticket_id
          where m.target_ticket_id = t.id and m.undone_at is null
          order by m.merged_at, m.id limit ${maxFrom}::int) x) as from
      from tickets t where t.portal_id = ${portalId}::int and t.ext_id = ${ticketExtId}::bigint`,
  );
  const r = rows[0];
  if (!r) return undefined;
  const parse = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
  return { into: parse(r.into), from: parse(r.from) };
}

export interface MergeMailRow {
  email: string;
  language: string | null;
  default_language: string;
  portal_name: string;
  portal_key: string;
  base_color: string | null;
  contact_ext: number;
}

/**
 * Who is told of a merge: the users of the source's creator and its followers (each once, with the
 * contact under which their link opens the target), who have an address.
 */
export function mergeRecipients(tx: Tx, sourceId: number): Promise<MergeMailRow[]> {
  return queryRows<MergeMailRow>(
    tx,
    sql`select r.email, r.language, p.default_language, p.name as portal_name, p.key as portal_key,
        p.base_color, r.contact_ext
      from tickets s
      join portals p on p.id = s.portal_id
      join lateral (
        select distinct on (u.id) u.id, u.email, u.language, c.ext_id as contact_ext
        from (
          select uc.user_id, uc.contact_id, 0 as rank from user_contacts uc where uc.contact_id = s.creator_contact_id
          union all
          select f.user_id, fc.id, 1 from ticket_followers f
          join user_contacts fuc on fuc.user_id = f.user_id
          join contacts fc on fc.id = fuc.contact_id and fc.company_id = s.company_id
          where f.ticket_id = s.id
        ) x
        join users u on u.id = x.user_id
        join contacts c on c.id = x.contact_id
        where u.email is not null and u.email <> ''
        order by u.id, x.rank, c.ext_id
      ) r on true
      where s.id = ${sourceId}::int
      order by r.id`,
  );
}
