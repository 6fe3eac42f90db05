/**
 * SQL of the tickets area, always scoped by portal and company (and by creator for non-administrators).
 * Lists and the detail are one statement each: children (comments, attachments, the latest report)
 * are aggregated as JSON inside the statement.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { CommentChannelValue, LocalizedNames, TicketTimelineEntry } from '@sportello/contracts';
import { tickets } from '../../db/schema';
import {
  intArrayParam,
  isoText,
  queryJsonList,
  queryRows,
  tsParam,
  type Queryable,
} from '../../platform/sql-json';
import { type TicketScope, ticketScopeWhere as scopeWhere, timelineJson } from './core';

/** A file reference as the queries answer it; the service turns it into a signed URL. */
export interface FileRef {
  fileId: number;
  fileName: string;
}
export interface RawAttachment {
  id: number;
  name: string;
  fileId: number;
}
export interface RawTicketItem {
  id: number;
  title: string;
  ticketNumber: string;
  internalAnnualProgressive: number;
  createdOn: string;
  taskType: { id: number; name: string; names: LocalizedNames; color: string | null };
  taskStatus: { step: { id: number; name: string; names: LocalizedNames; taskStatus: number } };
  nextPlannedActivityInfo: string | null;
  creatorContactWebUser: { contactId: number; referentName: string; companyName: string } | null;
  activityReport: ({ id: number; name: string; dateTime: string } & FileRef) | null;
  wikiElement: { id: number; name: string; folderName: string } | null;
  waitingOnCustomer: boolean;
  lastActivityAt: string;
}
export interface RawComment {
  id: number;
  message: string;
  creationDate: string;
  senderContact: { referentName: string; userId: number | null; userName: string | null } | null;
  agent: { displayName: string; fileId: number | null; fileName: string | null } | null;
  attachments: RawAttachment[];
  channel: CommentChannelValue;
}
export interface RawTicketDetail extends RawTicketItem {
  description: string;
  openedBy: string | null;
  assignedGroup: { name: string } | null;
  assignedUser: { firstName: string; lastName: string } | null;
  attachments: RawAttachment[];
  comments: RawComment[];
  rating: { rating: number; comment: string; ratedAt: string } | null;
  timeline: TicketTimelineEntry[];
  mergedInto: { id: number; ticketNumber: string; reachable: boolean } | null;
}

export type { TicketScope };

const attachmentsJson = (where: string) => `(
  select coalesce(json_agg(json_build_object('id', a.ext_id, 'name', a.name, 'fileId', a.file_id)
    order by a.ext_id), '[]'::json)
  from ticket_attachments a where ${where})`;

/**
 * The newest of the creation and the public messages (kept on the ticket, migration 0040).
 * tickets.last_activity_at counts internal notes too, which the customer must not sense.
 */
const publicActivity = 't.public_activity_at';

const itemFields = `
  'id', t.ext_id,
  'title', t.title,
  'ticketNumber', t.ticket_number,
  'internalAnnualProgressive', t.internal_annual_progressive,
  'createdOn', ${isoText('t.created_on')},
  'taskType', json_build_object('id', tt.ext_id, 'name', tt.name, 'names', tt.names, 'color', tt.color),
  'taskStatus', json_build_object('step', json_build_object('id', ss.ext_id, 'name', ss.name,
    'names', ss.names, 'taskStatus', ss.task_status)),
  'nextPlannedActivityInfo', case when t.closed then null else t.next_planned_activity_info end,
  'creatorContactWebUser', case when cc.id is null then null else json_build_object(
    'contactId', cc.ext_id, 'referentName', cc.referent_name, 'companyName', cco.company_name) end,
  'activityReport', case when rep.ext_id is null then null else json_build_object(
    'id', rep.ext_id, 'name', rep.name, 'dateTime', ${isoText('rep.date_time')},
    'fileId', rep.file_id, 'fileName', rep.file_name) end,
  'wikiElement', case when we.id is null then null else json_build_object(
    'id', we.ext_id, 'name', we.name, 'folderName', wf.name) end,
  'waitingOnCustomer', t.waiting_on_customer and not t.closed,
  'lastActivityAt', ${isoText(publicActivity)}`;

const itemJoins = (withReports: boolean) => `
  join ticket_types tt on tt.id = t.type_id
  join status_steps ss on ss.id = t.status_step_id
  left join contacts cc on cc.id = t.creator_contact_id
  left join companies cco on cco.id = cc.company_id
  left join wiki_elements we on we.id = t.wiki_element_id
  left join wiki_folders wf on wf.id = we.folder_id
  left join lateral (
    select ar.ext_id, ar.name, ar.date_time, f.id as file_id, f.name as file_name
    from activity_reports ar join files f on f.id = ar.file_id
    where ar.ticket_id = t.id and ar.company_id = t.company_id
    order by ar.date_time desc, ar.ext_id desc limit 1
  ) rep on ${withReports ? 'true' : 'false'}`;

const commentsJson = (where: string) => `(
  select coalesce(json_agg(json_build_object(
    'id', cm.ext_id,
    'message', cm.message,
    'creationDate', ${isoText('cm.creation_date')},
    'senderContact', case when sc.id is null and su1.id is null then null else json_build_object(
      'referentName', coalesce(sc.referent_name, su1.user_name),
      'userId', coalesce(su1.id, su2.id),
      'userName', coalesce(su1.user_name, su2.user_name)) end,
    'agent', case when sa.id is null then null else json_build_object(
      'displayName', sa.display_name, 'fileId', pf.id, 'fileName', pf.name) end,
    'attachments', ${attachmentsJson('a.comment_id = cm.id')},
    'channel', cm.channel
  ) order by cm.creation_date, cm.ext_id), '[]'::json)
  from ticket_comments cm
  left join contacts sc on sc.id = cm.sender_contact_id
  left join users su1 on su1.id = cm.sender_user_id
  left join lateral (
    select u.id, u.user_name from user_contacts uc join users u on u.id = uc.user_id
    where uc.contact_id = cm.sender_contact_id order by u.id limit 1
  ) su2 on cm.sender_user_id is null
  left join agents sa on sa.id = cm.sender_agent_id
  left join files pf on pf.id = sa.profile_file_id
  where (${where}) and not cm.internal)`; // internal notes are the staff's: never on the customer side

export interface TicketFilters {
  from: Date | null;
  toExclusive: Date | null;
  wikiElementExtId: number | null;
  webUserIds: number[] | null;
}

/** My tickets / all tickets, newest first, in one statement. */
export function listTickets(db: Queryable, scope: TicketScope, f: TicketFilters): Promise<RawTicketItem[]> {
  const conds: SQL[] = [scopeWhere(scope)];
  if (f.from) conds.push(sql`t.created_on >= ${tsParam(f.from)}`);
  if (f.toExclusive) conds.push(sql`t.created_on < ${tsParam(f.toExclusive)}`);
  if (f.wikiElementExtId !== null)
    conds.push(sql`t.wiki_element_id in (select w.id from wiki_elements w
      where w.portal_id = ${scope.portalId} and w.company_id = ${scope.companyId}
        and w.ext_id = ${f.wikiElementExtId})`);
  if (f.webUserIds !== null)
    conds.push(sql`t.creator_contact_id in (select uc.contact_id from user_contacts uc
      join contacts c2 on c2.id = uc.contact_id
      where c2.company_id = ${scope.companyId} and uc.user_id = any(${intArrayParam(f.webUserIds)}))`);
  return queryJsonList<RawTicketItem>(
    db,
    sql`select coalesce(json_agg(x.item order by x.created_on desc, x.ext_id desc), '[]'::json) as items
      from (
        select t.created_on, t.ext_id, json_build_object(${sql.raw(itemFields)}) as item
        from tickets t ${sql.raw(itemJoins(scope.withReports))}
        where ${sql.join(conds, sql` and `)}
      ) x`,
  );
}

/** One ticket with description, assignees, attachments and comments, in one statement. */
export async function getTicketDetail(
  db: Queryable,
  scope: TicketScope,
  ticketExtId: number,
): Promise<RawTicketDetail | undefined> {
  const rows = await queryRows<{ item: RawTicketDetail }>(
    db,
    sql`select json_build_object(${sql.raw(itemFields)},
        'description', t.description,
        'openedBy', (select ou.display_name from staff_users ou where ou.id = t.opened_by_staff_id),
        'assignedGroup', case when ag.id is null then null else json_build_object('name', ag.name) end,
        'assignedUser', case when au.id is null then null else json_build_object(
          'firstName', au.first_name, 'lastName', au.last_name) end,
        'attachments', ${sql.raw(attachmentsJson('a.ticket_id = t.id and a.comment_id is null'))},
        'comments', ${sql.raw(commentsJson('cm.ticket_id = t.id'))},
        'timeline', ${sql.raw(timelineJson(true))},
        'rating', case when tr.ticket_id is null then null else json_build_object('rating', tr.rating,
          'comment', tr.comment, 'ratedAt', ${sql.raw(isoText('tr.updated_at'))}) end,
        'mergedInto', (select json_build_object('id', mt.ext_id, 'ticketNumber', mt.ticket_number,
            'reachable', exists (select 1 from tickets t where ${scopeWhere(scope)} and t.id = mt.id))
          from ticket_merges m join tickets mt on mt.id = m.target_ticket_id
          where m.source_ticket_id = t.id and m.undone_at is null)
      ) as item
      from tickets t ${sql.raw(itemJoins(scope.withReports))}
      left join ticket_ratings tr on tr.ticket_id = t.id
      left join assignee_groups ag on ag.id = t.assigned_group_id
      left join agents au on au.id = t.assigned_user_id
      where ${scopeWhere(scope)} and t.ext_id = ${ticketExtId}`,
  );
  const item = rows[0]?.item;
  return typeof item === 'string' ? (JSON.parse(item) as RawTicketDetail) : item;
}

/** One comment as the detail shows it (the answer of a new comment). */
export async function getComment(db: Queryable, commentId: number): Promise<RawComment | undefined> {
  const list = await queryJsonList<RawComment>(
    db,
    sql`with wanted as (select ${commentId}::int as id)
      select ${sql.raw(commentsJson('cm.id = (select id from wanted)'))} as items`,
  );
  return list[0];
}

/** The internal id of a ticket the scope reaches (no lock). */
export async function findTicketId(
  db: Queryable,
  scope: TicketScope,
  ticketExtId: number,
): Promise<number | undefined> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select t.id from tickets t where ${scopeWhere(scope)} and t.ext_id = ${ticketExtId}`,
  );
  return rows[0] ? Number(rows[0].id) : undefined;
}

/**
 * Ids of the scope's tickets with news for the reader since their read mark: a newest public message
 * that is not the reader's own (by user, or by the contact for messages that name no user), or a newest
 * public status change (step, closed, reopened: the customer's timeline) that the reader's contact did
 * not make. last_activity_at (indexed per company, migration 0008) keeps the message test to tickets
 * that moved since the mark; a change is the newest public row of its ticket (ticket_changes_ticket_idx).
 */
export function listUnreadTickets(
  db: Queryable,
  scope: TicketScope,
  reader: { userId: number; contactId: number },
): Promise<number[]> {
  const mark = sql`coalesce(r.read_at, '-infinity'::timestamptz)`;
  return queryJsonList<number>(
    db,
    sql`select coalesce(json_agg(t.ext_id order by t.ext_id), '[]'::json) as items
      from tickets t
      left join contact_ticket_reads r on r.user_id = ${reader.userId}::int and r.ticket_id = t.id
      left join lateral (
        select c.creation_date, c.sender_user_id, c.sender_contact_id from ticket_comments c
        where c.ticket_id = t.id and not c.internal and t.last_activity_at > ${mark}
        order by c.creation_date desc, c.id desc limit 1
      ) lc on true
      left join lateral (
        select ch.at, ch.actor_kind, ch.actor_id from ticket_changes ch
        where ch.ticket_id = t.id and ch.public
        order by ch.id desc limit 1
      ) lch on true
      where ${scopeWhere(scope)}
        and ((lc.creation_date > ${mark}
            and not coalesce(lc.sender_user_id = ${reader.userId}::int
              or (lc.sender_user_id is null and lc.sender_contact_id = ${reader.contactId}::int), false))
          or (lch.at > ${mark}
            and not (lch.actor_kind = 'contact' and lch.actor_id is not distinct from ${reader.contactId}::int)))`,
  );
}

/** The user has read the ticket now (a later read mark is kept). */
export async function markTicketRead(db: Queryable, userId: number, ticketId: number, now: Date) {
  await db.execute(
    sql`insert into contact_ticket_reads (user_id, ticket_id, read_at)
      values (${userId}::int, ${ticketId}::int, ${tsParam(now)})
      on conflict (user_id, ticket_id) do update set read_at = greatest(contact_ticket_reads.read_at, excluded.read_at)`,
  );
}

/** One rating per ticket: a new one replaces it (created_at stays the first). */
export async function upsertRating(
  db: Queryable,
  v: {
    ticketId: number;
    portalId: number;
    rating: number;
    comment: string;
    contactId: number;
    userId: number;
    now: Date;
  },
): Promise<void> {
  await db.execute(
    sql`insert into ticket_ratings (ticket_id, portal_id, rating, comment, contact_id, user_id, created_at, updated_at)
      values (${v.ticketId}::int, ${v.portalId}::int, ${v.rating}::int, ${v.comment}, ${v.contactId}::int,
        ${v.userId}::int, ${tsParam(v.now)}, ${tsParam(v.now)})
      on conflict (ticket_id) do update set rating = excluded.rating, comment = excluded.comment,
        contact_id = excluded.contact_id, user_id = excluded.user_id, updated_at = excluded.updated_at`,
  );
}

export type Colleague = { webUserId: number; referentName: string };

/** The ticket's followers, each named by their contact in the ticket's company. */
export function listFollowers(db: Queryable, ticketId: number, companyId: number): Promise<Colleague[]> {
  return queryJsonList(
    db,
    sql`select coalesce(json_agg(json_build_object('webUserId', x.user_id, 'referentName', x.referent_name)
        order by lower(x.referent_name), x.user_id), '[]'::json) as items
      from (
        select distinct on (f.user_id) f.user_id, coalesce(c.referent_name, u.user_name) as referent_name
        from ticket_followers f join users u on u.id = f.user_id
        left join user_contacts uc on uc.user_id = f.user_id
          and uc.contact_id in (select id from contacts where company_id = ${companyId}::int)
        left join contacts c on c.id = uc.contact_id
        where f.ticket_id = ${ticketId}::int
        order by f.user_id, c.ext_id
      ) x`,
  );
}

/** Replaces the ticket's followers by `userIds` (all already checked to be colleagues). */
export async function replaceFollowers(
  tx: Queryable,
  p: { ticketId: number; userIds: number[]; addedBy: number; now: Date },
): Promise<void> {
  await tx.execute(
    sql`delete from ticket_followers where ticket_id = ${p.ticketId}::int
      and not (user_id = any(${intArrayParam(p.userIds)}))`,
  );
  if (p.userIds.length === 0) return;
  await tx.execute(
    sql`insert into ticket_followers (ticket_id, user_id, added_by_user_id, created_at)
      select ${p.ticketId}::int, u, ${p.addedBy}::int, ${tsParam(p.now)} from unnest(${intArrayParam(p.userIds)}) u
      on conflict do nothing`,
  );
}

/** Internal ids of a new ticket's type, wiki element and the portal's default step, in one statement. */
export async function resolveNewTicketRefs(
  db: Queryable,
  p: { portalId: number; companyId: number; typeExtId: number; wikiExtId: number | null },
): Promise<{ typeId: number | null; wikiId: number | null; defaultStepId: number | null }> {
  const rows = await queryRows<{ type_id: number | null; wiki_id: number | null; step_id: number | null }>(
    db,
    sql`select
      (select id from ticket_types where portal_id = ${p.portalId} and ext_id = ${p.typeExtId}) as type_id,
      (select id from wiki_elements where portal_id = ${p.portalId} and company_id = ${p.companyId}
        and ext_id = ${p.wikiExtId ?? -1}) as wiki_id,
      (select id from status_steps where portal_id = ${p.portalId} and is_default
        order by ext_id limit 1) as step_id`,
  );
  const r = rows[0];
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return { typeId: n(r?.type_id), wikiId: n(r?.wiki_id), defaultStepId: n(r?.step_id) };
}

export async function closingStepId(db: Queryable, portalId: number): Promise<number | null> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from status_steps where portal_id = ${portalId} and is_closing order by ext_id limit 1`,
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** The next internal annual progressive of a portal within [yearStart, yearEnd). */
export async function insertTicket(tx: Queryable, v: typeof tickets.$inferInsert): Promise<number> {
  const r = await tx.insert(tickets).values(v).returning({ id: tickets.id });
  return r[0]!.id;
}

/** The portal's ticket types, by name. */
export function listTicketTypes(
  db: Queryable,
  portalId: number,
): Promise<{ id: number; name: string; names: Record<string, string> | null; color: string | null }[]> {
  return queryJsonList(
    db,
    sql`select coalesce(json_agg(json_build_object('id', ext_id, 'name', name, 'names', names, 'color', color)
        order by name, ext_id), '[]'::json) as items
      from ticket_types where portal_id = ${portalId}`,
  );
}

/** Other users holding a contact of the company, once each, by name. */
export function listColleagues(
  db: Queryable,
  companyId: number,
  userId: number,
): Promise<{ webUserId: number; referentName: string }[]> {
  return queryJsonList(
    db,
    sql`select coalesce(json_agg(json_build_object('webUserId', x.user_id, 'referentName', x.referent_name)
        order by lower(x.referent_name), x.user_id), '[]'::json) as items
      from (
        select distinct on (uc.user_id) uc.user_id, c.referent_name
        from user_contacts uc join contacts c on c.id = uc.contact_id
        where c.company_id = ${companyId} and uc.user_id <> ${userId}
        order by uc.user_id, c.ext_id
      ) x`,
  );
}
