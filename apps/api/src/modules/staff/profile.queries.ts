import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { queryRows, type Queryable } from '../../platform/sql-json';

export interface ProfileRow {
  email: string;
  displayName: string;
  signature: string;
  avatarFileId: number | null;
  avatarName: string | null;
}

export async function readProfile(db: Queryable, staffUserId: number): Promise<ProfileRow> {
  const rows = await queryRows<ProfileRow>(
    db,
    sql`select u.email, u.display_name as "displayName", u.signature,
        u.profile_file_id as "avatarFileId", f.name as "avatarName"
      from staff_users u left join files f on f.id = u.profile_file_id
      where u.id = ${staffUserId}::int`,
  );
  return rows[0]!;
}

/**
 * The staff user's name, signature and avatar, and the same name and avatar on the agent row of each
 * membership: customers, the inbox and the events read a reply's author and an assignee from there.
 */
export async function writeProfile(
  tx: Tx,
  staffUserId: number,
  set: { displayName?: string; signature?: string; avatarFileId?: number | null },
): Promise<void> {
  const cols = [
    set.displayName !== undefined && sql`display_name = ${set.displayName}`,
    set.signature !== undefined && sql`signature = ${set.signature}`,
    set.avatarFileId !== undefined && sql`profile_file_id = ${set.avatarFileId}`,
  ].filter((c) => c !== false);
  if (cols.length === 0) return;
  await tx.execute(sql`update staff_users set ${sql.join(cols, sql`, `)} where id = ${staffUserId}::int`);
  const agentCols = [
    set.displayName !== undefined && sql`display_name = ${set.displayName}`,
    set.avatarFileId !== undefined && sql`profile_file_id = ${set.avatarFileId}`,
  ].filter((c) => c !== false);
  if (agentCols.length === 0) return;
  await tx.execute(
    sql`update agents set ${sql.join(agentCols, sql`, `)}
      where id in (select m.agent_id from staff_memberships m
        where m.staff_user_id = ${staffUserId}::int and m.agent_id is not null)`,
  );
}
