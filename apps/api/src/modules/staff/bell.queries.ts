/** SQL of the desk's bell (issue 28 item 2): always one staff user in one portal. */
import { STAFF_NOTIFICATION_COUNT_CAP, type StaffNotification } from '@sportello/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { isoText, queryRows, tsParam, type Queryable } from '../../platform/sql-json';

export interface BellOwner {
  staffUserId: number;
  portalId: number;
}

const mine = (o: BellOwner) =>
  sql`n.staff_user_id = ${o.staffUserId}::int and n.portal_id = ${o.portalId}::int`;

/** Unread notices, counted up to STAFF_NOTIFICATION_COUNT_CAP: a range of the partial unread index. */
export async function countUnreadNotices(db: Queryable, o: BellOwner): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from staff_notifications n
      where ${mine(o)} and n.read_at is null limit ${STAFF_NOTIFICATION_COUNT_CAP}) u`,
  );
  return Number(rows[0]!.n);
}

/** A page, newest first, after the row id `before` (the keyset); limit + 1 rows. */
export async function listNotices(
  db: Queryable,
  o: BellOwner,
  before: number | null,
  limit: number,
): Promise<(StaffNotification & { rowId: number })[]> {
  const rows = await queryRows<{ j: (StaffNotification & { rowId: number }) | string }>(
    db,
    sql`select json_build_object('rowId', n.id, 'id', n.key, 'kind', n.kind, 'ticketId', t.ext_id,
        'ticketNumber', t.ticket_number, 'title', t.title, 'actor', n.actor_name, 'rating', n.rating,
        'sla', case when n.sla_target is null or n.sla_due_at is null then null
          else json_build_object('target', n.sla_target, 'dueAt', ${sql.raw(isoText('n.sla_due_at'))}) end,
        'createdAt', ${sql.raw(isoText('n.created_at'))}, 'read', n.read_at is not null) as j
      from staff_notifications n join tickets t on t.id = n.ticket_id
      where ${mine(o)} ${before === null ? sql`` : sql`and n.id < ${before}::int`}
      order by n.id desc limit ${limit + 1}`,
  );
  return rows.map((r) => (typeof r.j === 'string' ? JSON.parse(r.j) : r.j));
}

/** Marks the given notices (keys) read, or all when `keys` is null. Others' keys match nothing. */
export async function markNoticesRead(
  db: Queryable,
  o: BellOwner,
  keys: string[] | null,
  now: Date,
): Promise<void> {
  const which: SQL = keys === null ? sql`true` : sql`n.key = any(${sql.param(keys)}::uuid[])`;
  await db.execute(
    sql`update staff_notifications n set read_at = ${tsParam(now)}
      where ${mine(o)} and n.read_at is null and ${which}`,
  );
}
