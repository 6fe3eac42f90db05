/** SQL of the ticket setup beyond one row of a kind: names taken, a group's members. */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { intArrayParam, queryRows } from '../../../platform/sql-json';

/** Whether another row of the table (of the portal) has this name, compared without regard to case. */
export async function nameTaken(
  tx: Tx,
  table: 'ticket_types' | 'status_steps' | 'assignee_groups',
  portalId: number,
  name: string,
  exceptRowId: number | null,
): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select id from ${sql.identifier(table)}
      where portal_id = ${portalId}::int and lower(name) = lower(${name}::text)
        and id is distinct from ${exceptRowId}::int
      limit 1`,
  );
  return rows.length > 0;
}

export interface GroupMember {
  /** The staff user (the id of the admin's staff list). */
  id: number;
  email: string;
}

/** The members of a group (by its row id), by staff user id. */
export async function groupMembers(tx: Tx, groupRowId: number): Promise<GroupMember[]> {
  const rows = await queryRows<GroupMember>(
    tx,
    sql`select u.id, u.email from staff_group_members gm join staff_users u on u.id = gm.staff_user_id
      where gm.group_id = ${groupRowId}::int order by u.id`,
  );
  return rows.map((r) => ({ id: Number(r.id), email: r.email }));
}

/** Those of `staffIds` that are members of the portal's staff. */
export async function portalStaffIds(tx: Tx, portalId: number, staffIds: number[]): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select staff_user_id as id from staff_memberships
      where portal_id = ${portalId}::int and staff_user_id = any(${intArrayParam(staffIds)})`,
  );
  return rows.map((r) => Number(r.id));
}

/** The group's members become exactly `staffIds` (checked to be the portal's staff). */
export async function replaceGroupMembers(tx: Tx, groupRowId: number, staffIds: number[]): Promise<void> {
  await tx.execute(
    sql`delete from staff_group_members
      where group_id = ${groupRowId}::int and not (staff_user_id = any(${intArrayParam(staffIds)}))`,
  );
  if (staffIds.length > 0)
    await tx.execute(
      sql`insert into staff_group_members (staff_user_id, group_id)
        select s, ${groupRowId}::int from unnest(${intArrayParam(staffIds)}) s on conflict do nothing`,
    );
}
