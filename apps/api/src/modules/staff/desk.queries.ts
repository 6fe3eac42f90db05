/**
 * SQL of what agents do on the staff desk: ticket lookups, references by the back
 * office's ids, the portal's options, staff members and their groups, preferences, presence and the
 * unread counts. Every statement is scoped by the caller's portal.
 */
import { INBOX_COUNT_CAP, type InboxView } from '@sportello/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { intArrayParam, isoText, queryRows, tsParam, type Queryable } from '../../platform/sql-json';
import { viewCondition, type InboxScope } from './inbox.queries';

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const parse = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** The internal id of a ticket of the portal (no lock). */
export async function portalTicketId(
  db: Queryable,
  portalId: number,
  ticketExtId: number,
): Promise<number | undefined> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from tickets where portal_id = ${portalId}::int and ext_id = ${ticketExtId}::bigint`,
  );
  return rows[0] ? Number(rows[0].id) : undefined;
}

export interface ResolvedRefs {
  stepId: number | null;
  stepClosed: boolean;
  typeId: number | null;
  groupId: number | null;
  agentId: number | null;
}

/** Internal ids of a portal's step, type, group and agent by back-office id, in one statement. */
export async function resolveRefs(
  db: Queryable,
  portalId: number,
  ext: { step?: number; type?: number; group?: number; agent?: number },
): Promise<ResolvedRefs> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select
      (select id from status_steps where portal_id = ${portalId}::int and ext_id = ${ext.step ?? -1}::bigint) as step_id,
      (select task_status = 2 from status_steps where portal_id = ${portalId}::int and ext_id = ${ext.step ?? -1}::bigint) as step_closed,
      (select id from ticket_types where portal_id = ${portalId}::int and ext_id = ${ext.type ?? -1}::bigint) as type_id,
      (select id from assignee_groups where portal_id = ${portalId}::int and ext_id = ${ext.group ?? -1}::bigint) as group_id,
      (select id from agents where portal_id = ${portalId}::int and ext_id = ${ext.agent ?? -1}::bigint) as agent_id`,
  );
  const r = rows[0] ?? {};
  return {
    stepId: num(r.step_id),
    stepClosed: r.step_closed === true,
    typeId: num(r.type_id),
    groupId: num(r.group_id),
    agentId: num(r.agent_id),
  };
}

export interface RawOptions {
  steps: { id: number; name: string; taskStatus: number; isDefault: boolean; isClosing: boolean }[];
  types: { id: number; name: string; color: string | null }[];
  groups: { id: number; name: string }[];
  agents: { id: number; displayName: string; staffUserId: number | null }[];
  ticketTags: { id: number; name: string }[];
  lowRatingThreshold: number;
  me: { staffUserId: number; agentId: number | null; groupIds: number[] };
}

/** The ticket tags the options offer (the pickers search them client-side). */
export const TICKET_TAG_OPTIONS_MAX = 500;

/**
 * Sets a ticket's tags to these names: the portal's ticket tags of those names (compared without
 * regard to case), made when missing, linked; the ticket's other tags unlinked.
 */
export async function replaceTicketTags(
  tx: Queryable,
  portalId: number,
  ticketId: number,
  names: string[],
): Promise<void> {
  // The first spelling of each name is the one a new tag takes.
  const byKey = new Map<string, string>();
  for (const n of names) if (!byKey.has(n.trim().toLowerCase())) byKey.set(n.trim().toLowerCase(), n.trim());
  const wanted = [...byKey.values()];
  const list = JSON.stringify(wanted);
  await tx.execute(sql`insert into ticket_tags (portal_id, name)
    select ${portalId}::int, n from json_array_elements_text(${list}::json) n
    on conflict (portal_id, lower(name)) do nothing`);
  await tx.execute(sql`delete from ticket_tag_links l where l.ticket_id = ${ticketId}::int
    and l.tag_id not in (select tg.id from ticket_tags tg where tg.portal_id = ${portalId}::int
      and lower(tg.name) in (select lower(n) from json_array_elements_text(${list}::json) n))`);
  await tx.execute(sql`insert into ticket_tag_links (ticket_id, tag_id)
    select ${ticketId}::int, tg.id from ticket_tags tg where tg.portal_id = ${portalId}::int
      and lower(tg.name) in (select lower(n) from json_array_elements_text(${list}::json) n)
    on conflict do nothing`);
}

/** The portal's steps, types, groups, agents and ticket tags, and the caller's agent and groups: one statement. */
export async function portalOptions(
  db: Queryable,
  portalId: number,
  staffUserId: number,
): Promise<RawOptions> {
  const rows = await queryRows<{ o: RawOptions | string }>(
    db,
    sql`select json_build_object(
      'steps', (select coalesce(json_agg(json_build_object('id', s.ext_id, 'name', s.name,
          'taskStatus', s.task_status, 'isDefault', s.is_default, 'isClosing', s.is_closing)
          order by s.ext_id), '[]'::json) from status_steps s where s.portal_id = ${portalId}::int),
      'types', (select coalesce(json_agg(json_build_object('id', x.ext_id, 'name', x.name, 'color', x.color)
          order by x.name, x.ext_id), '[]'::json) from ticket_types x where x.portal_id = ${portalId}::int),
      'groups', (select coalesce(json_agg(json_build_object('id', g.ext_id, 'name', g.name)
          order by g.name, g.ext_id), '[]'::json) from assignee_groups g where g.portal_id = ${portalId}::int),
      'agents', (select coalesce(json_agg(json_build_object('id', a.ext_id, 'displayName', a.display_name,
          'staffUserId', m.staff_user_id) order by a.display_name, a.ext_id), '[]'::json)
        from agents a left join staff_memberships m on m.agent_id = a.id
        where a.portal_id = ${portalId}::int),
      'ticketTags', (select coalesce(json_agg(json_build_object('id', x.id, 'name', x.name)
          order by lower(x.name), x.id), '[]'::json)
        from (select * from ticket_tags tg where tg.portal_id = ${portalId}::int
          order by lower(tg.name), tg.id limit ${TICKET_TAG_OPTIONS_MAX}) x),
      'lowRatingThreshold', (select p.low_rating_threshold from portals p where p.id = ${portalId}::int),
      'me', json_build_object('staffUserId', ${staffUserId}::int,
        'agentId', (select a.ext_id from staff_memberships m join agents a on a.id = m.agent_id
          where m.portal_id = ${portalId}::int and m.staff_user_id = ${staffUserId}::int),
        'groupIds', (select coalesce(json_agg(g.ext_id order by g.ext_id), '[]'::json)
          from staff_group_members gm join assignee_groups g on g.id = gm.group_id
          where gm.staff_user_id = ${staffUserId}::int and g.portal_id = ${portalId}::int))
    ) as o`,
  );
  return parse(rows[0]!.o);
}

export interface RawMember {
  id: number;
  email: string;
  displayName: string;
  role: 'agent' | 'admin';
  status: 'invited' | 'active' | 'disabled';
  agentId: number | null;
  groupIds: number[];
}

/** The staff of the portal (or one member), with their agent and groups by back-office id. */
export async function listMembers(
  db: Queryable,
  portalId: number,
  staffUserId?: number,
): Promise<RawMember[]> {
  const one = staffUserId === undefined ? sql`` : sql` and u.id = ${staffUserId}::int`;
  const rows = await queryRows<{ m: RawMember | string }>(
    db,
    sql`select json_build_object('id', u.id, 'email', u.email, 'displayName', u.display_name,
        'role', m.role, 'status', u.status, 'agentId', a.ext_id,
        'groupIds', (select coalesce(json_agg(g.ext_id order by g.ext_id), '[]'::json)
          from staff_group_members gm join assignee_groups g on g.id = gm.group_id
          where gm.staff_user_id = u.id and g.portal_id = ${portalId}::int)) as m
      from staff_memberships m join staff_users u on u.id = m.staff_user_id
      left join agents a on a.id = m.agent_id
      where m.portal_id = ${portalId}::int${one}
      order by lower(u.display_name), u.id`,
  );
  return rows.map((r) => parse(r.m));
}

/** Internal ids of the portal's groups with these back-office ids (those that exist). */
export async function groupIdsOf(db: Queryable, portalId: number, extIds: number[]): Promise<number[]> {
  if (extIds.length === 0) return [];
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from assignee_groups where portal_id = ${portalId}::int
      and ext_id = any(${sql.param(extIds)}::bigint[])`,
  );
  return rows.map((r) => Number(r.id));
}

/** Replaces the member's groups of this portal (groups of other portals stay). */
export async function replaceGroups(
  tx: Tx,
  portalId: number,
  staffUserId: number,
  groupIds: number[],
): Promise<void> {
  await tx.execute(
    sql`delete from staff_group_members gm using assignee_groups g
      where gm.group_id = g.id and g.portal_id = ${portalId}::int and gm.staff_user_id = ${staffUserId}::int`,
  );
  if (groupIds.length > 0)
    await tx.execute(
      sql`insert into staff_group_members (staff_user_id, group_id)
        select ${staffUserId}::int, g from unnest(${intArrayParam(groupIds)}) g on conflict do nothing`,
    );
}

export interface RawPreferences {
  emailNewTicket: boolean;
  emailCustomerReply: boolean;
  emailLowRating: boolean;
  emailAssigned: boolean;
  emailMention: boolean;
  emailSla: boolean;
}

/** Each switch and its column (each on unless turned off). */
const PREF_COLUMNS: Record<keyof RawPreferences, string> = {
  emailNewTicket: 'email_new_ticket',
  emailCustomerReply: 'email_customer_reply',
  emailLowRating: 'email_low_rating',
  emailAssigned: 'email_assigned',
  emailMention: 'email_mention',
  emailSla: 'email_sla',
};
const prefKeys = Object.keys(PREF_COLUMNS) as (keyof RawPreferences)[];

export async function readPreferences(db: Queryable, staffUserId: number): Promise<RawPreferences> {
  const rows = await queryRows<Record<string, boolean>>(
    db,
    sql`select ${sql.raw(Object.values(PREF_COLUMNS).join(', '))} from staff_preferences
      where staff_user_id = ${staffUserId}::int`,
  );
  const r = rows[0];
  return Object.fromEntries(
    prefKeys.map((k) => [k, r?.[PREF_COLUMNS[k]] ?? true]),
  ) as unknown as RawPreferences;
}

export async function writePreferences(
  db: Queryable,
  staffUserId: number,
  p: { [K in keyof RawPreferences]?: boolean | undefined },
  now: Date,
): Promise<void> {
  const v = (b: boolean | undefined) => sql`${b ?? null}::boolean`;
  const col = (k: keyof RawPreferences) => sql.raw(PREF_COLUMNS[k]);
  await db.execute(
    sql`insert into staff_preferences as sp (staff_user_id, ${sql.join(prefKeys.map(col), sql`, `)}, updated_at)
      values (${staffUserId}::int, ${sql.join(
        prefKeys.map((k) => sql`coalesce(${v(p[k])}, true)`),
        sql`, `,
      )}, ${tsParam(now)})
      on conflict (staff_user_id) do update set
        ${sql.join(
          prefKeys.map((k) => sql`${col(k)} = coalesce(${v(p[k])}, sp.${col(k)})`),
          sql`, `,
        )},
        updated_at = excluded.updated_at`,
  );
}

export async function markUnread(db: Queryable, staffUserId: number, ticketId: number): Promise<void> {
  await db.execute(
    sql`delete from staff_ticket_reads where staff_user_id = ${staffUserId}::int and ticket_id = ${ticketId}::int`,
  );
}

export interface RawPresence {
  staffUserId: number;
  displayName: string;
  state: 'viewing' | 'replying';
  until: string;
}

/**
 * Records the caller's heartbeat on a ticket (or ends it: state null) and answers the others' live
 * presence. The caller's own expired rows on other tickets go at the same time, so the table holds
 * about one row per agent at work.
 */
export async function heartbeat(
  tx: Tx,
  p: { ticketId: number; staffUserId: number; state: 'viewing' | 'replying' | null; now: Date; ttlS: number },
): Promise<RawPresence[]> {
  await tx.execute(
    sql`delete from staff_presence where staff_user_id = ${p.staffUserId}::int
      and (expires_at <= ${tsParam(p.now)} or (ticket_id = ${p.ticketId}::int and ${p.state === null}))`,
  );
  // An upsert: two tabs of one agent may beat at the same moment.
  if (p.state !== null)
    await tx.execute(
      sql`insert into staff_presence (ticket_id, staff_user_id, state, expires_at)
        values (${p.ticketId}::int, ${p.staffUserId}::int, ${p.state},
          ${tsParam(new Date(p.now.getTime() + p.ttlS * 1000))})
        on conflict (ticket_id, staff_user_id) do update
          set state = excluded.state, expires_at = excluded.expires_at`,
    );
  const rows = await queryRows<{ staff_user_id: number; display_name: string; state: string; until: string }>(
    tx,
    sql`select u.id as staff_user_id, u.display_name, pr.state, ${sql.raw(isoText('pr.expires_at'))} as until
      from staff_presence pr join staff_users u on u.id = pr.staff_user_id
      where pr.ticket_id = ${p.ticketId}::int and pr.staff_user_id <> ${p.staffUserId}::int
        and pr.expires_at > ${tsParam(p.now)}
      order by u.display_name, u.id`,
  );
  return rows.map((r) => ({
    staffUserId: Number(r.staff_user_id),
    displayName: r.display_name,
    state: r.state as 'viewing' | 'replying',
    until: r.until,
  }));
}

const VIEWS: InboxView[] = ['unassigned', 'mine', 'groups', 'waiting', 'breaching', 'open', 'closed'];

/**
 * Unread tickets per view for the caller (activity newer than their last read), each count stopping
 * at INBOX_COUNT_CAP like the inbox's counts, in one statement. The read mark is a scalar subquery on
 * purpose: it stays one primary-key probe per ticket counted (at most the cap), where an anti-join
 * would hash every read mark of the caller (hundreds of thousands for a busy agent) for each view.
 */
export async function countUnread(db: Queryable, s: InboxScope): Promise<Record<InboxView, number>> {
  const rows = await queryRows<Record<InboxView, number>>(db, countUnreadSql(s));
  return rows[0]!;
}

/** The statement of countUnread (its plans are checked in inbox.plans.test.ts). */
export function countUnreadSql(s: InboxScope): SQL {
  const cols = VIEWS.map(
    (v) => sql`(select count(*)::int from (select 1 from tickets t
      where t.portal_id = ${s.portalId} and ${viewCondition(v, s)}
        and coalesce((select r.read_at from staff_ticket_reads r where r.staff_user_id = ${s.staffUserId}
          and r.ticket_id = t.id), '-infinity') < t.last_activity_at
      limit ${INBOX_COUNT_CAP}) x) as ${sql.identifier(v)}`,
  );
  return sql`select ${sql.join(cols, sql`, `)}`;
}

/** The portal's closing step (the customer's close moves there), null when none is marked. */
export async function closingStepId(db: Queryable, portalId: number): Promise<number | null> {
  const rows = await queryRows<{ ext_id: number }>(
    db,
    sql`select ext_id from status_steps where portal_id = ${portalId}::int and is_closing
      order by ext_id limit 1`,
  );
  return rows[0] ? Number(rows[0].ext_id) : null;
}

/** A ticket's last activity as ISO text (the bulk action's check that it did not change meanwhile). */
export async function lastActivityOf(db: Queryable, ticketId: number): Promise<string> {
  const rows = await queryRows<{ at: string }>(
    db,
    sql`select ${sql.raw(isoText('last_activity_at'))} as at from tickets where id = ${ticketId}::int`,
  );
  return rows[0]!.at;
}

/** A ticket's tag names. */
export async function tagNamesOf(db: Queryable, ticketId: number): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select tg.name from ticket_tag_links l join ticket_tags tg on tg.id = l.tag_id
      where l.ticket_id = ${ticketId}::int order by lower(tg.name), tg.id`,
  );
  return rows.map((r) => r.name);
}
