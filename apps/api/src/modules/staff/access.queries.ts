/**
 * The portal's staff as the access administration sees them, and the membership changes. Statements
 * take the portal's id, so a member of another portal is never read or changed.
 */
import { sql } from 'drizzle-orm';
import type { AccessMember } from '@sportello/contracts';
import type { Tx } from '../../db/client';
import { isoText, queryJsonList, queryRows, type Queryable } from '../../platform/sql-json';

/**
 * The portal's members (or the one of `staffUserId`), by name, as this portal knows them: "active" and
 * "last sign-in" are their use of this portal's desk (staff_memberships.last_seen_at), never the
 * person's sign-ins or status elsewhere, which are other portals' business.
 */
export function listAccessMembers(
  db: Queryable,
  portalId: number,
  staffUserId?: number,
): Promise<AccessMember[]> {
  const one = staffUserId === undefined ? sql`` : sql` and u.id = ${staffUserId}::int`;
  return queryJsonList<AccessMember>(
    db,
    sql`select coalesce(json_agg(x.m order by x.sort, x.id), '[]'::json) as items from (
      select u.id, lower(u.display_name) as sort, json_build_object('id', u.id, 'email', u.email,
        'displayName', u.display_name, 'role', m.role,
        'status', case when u.status = 'active' and m.last_seen_at is not null then 'active' else 'invited' end,
        'groupIds', (select coalesce(json_agg(g.ext_id order by g.ext_id), '[]'::json)
          from staff_group_members gm join assignee_groups g on g.id = gm.group_id
          where gm.staff_user_id = u.id and g.portal_id = ${portalId}::int),
        'memberSince', ${sql.raw(isoText('m.created_at'))},
        'lastSignInAt', ${sql.raw(isoText('m.last_seen_at'))}) as m
      from staff_memberships m join staff_users u on u.id = m.staff_user_id
      where m.portal_id = ${portalId}::int${one}) x`,
  );
}

/**
 * The portal's admins who may sign in, their memberships locked until the transaction ends: two
 * admins demoting each other at once are serialised, and the second sees the first's change.
 */
export async function lockAdmins(tx: Tx, portalId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select m.staff_user_id as id from staff_memberships m join staff_users u on u.id = m.staff_user_id
      where m.portal_id = ${portalId}::int and m.role = 'admin' and u.status <> 'disabled'
      for update of m`,
  );
  return rows.map((r) => Number(r.id));
}

export async function setMemberRole(
  tx: Tx,
  portalId: number,
  staffUserId: number,
  role: 'agent' | 'admin',
): Promise<void> {
  await tx.execute(
    sql`update staff_memberships set role = ${role} where portal_id = ${portalId}::int
      and staff_user_id = ${staffUserId}::int`,
  );
}

/** Ends the membership and the member's groups of this portal; answers how many portals remain. */
export async function deleteMembership(tx: Tx, portalId: number, staffUserId: number): Promise<number> {
  await tx.execute(
    sql`delete from staff_group_members gm using assignee_groups g
      where g.id = gm.group_id and g.portal_id = ${portalId}::int and gm.staff_user_id = ${staffUserId}::int`,
  );
  await tx.execute(
    sql`delete from staff_memberships where portal_id = ${portalId}::int and staff_user_id = ${staffUserId}::int`,
  );
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from staff_memberships where staff_user_id = ${staffUserId}::int`,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Someone removed from their last portal has no account left: no password, invited again by whichever
 * portal asks. (Disabling the person for good let one portal's admin shut an address out of every
 * other portal.)
 */
export async function forgetStaffAccount(tx: Tx, staffUserId: number): Promise<void> {
  await tx.execute(
    sql`update staff_users set status = 'invited', password_hash = null where id = ${staffUserId}::int`,
  );
}

/** The portal's admins who sign in, but those named: who is told of another admin's removal. */
export async function otherAdmins(
  tx: Tx,
  portalId: number,
  except: number[],
): Promise<{ email: string; displayName: string }[]> {
  const rows = await queryRows<{ email: string; display_name: string }>(
    tx,
    sql`select u.email, u.display_name from staff_memberships m join staff_users u on u.id = m.staff_user_id
      where m.portal_id = ${portalId}::int and m.role = 'admin' and u.status = 'active'
        and u.id <> all(${`{${except.join(',')}}`}::int[])
      order by u.id`,
  );
  return rows.map((r) => ({ email: r.email, displayName: r.display_name }));
}
