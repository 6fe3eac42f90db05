/** SQL of the portal's triage group (issue 28 item 2; migration 0058). */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { queryRows, type Queryable } from '../../platform/sql-json';

export interface TriageGroupRow {
  /** The group's row id, null for the admins. */
  rowId: number | null;
  id: number | null;
  name: string | null;
}

/** The portal's triage group (`rowId` null: the admins); `lock` holds the portal's row. */
export async function readTriageGroup(
  db: Queryable,
  portalId: number,
  lock = false,
): Promise<TriageGroupRow> {
  const [r] = await queryRows<{ row_id: number | null; ext_id: number | string | null; name: string | null }>(
    db,
    sql`select g.id as row_id, g.ext_id, g.name from portals p
      left join assignee_groups g on g.id = p.triage_group_id and g.portal_id = p.id
      where p.id = ${portalId}::int ${lock ? sql`for update of p` : sql``}`,
  );
  return {
    rowId: r?.row_id == null ? null : Number(r.row_id),
    id: r?.ext_id == null ? null : Number(r.ext_id),
    name: r?.name ?? null,
  };
}

/** The row id of the portal's group `extId`, or null when the portal has none of that id. */
export async function groupRowId(tx: Tx, portalId: number, extId: number): Promise<number | null> {
  const [r] = await queryRows<{ id: number }>(
    tx,
    sql`select id from assignee_groups where portal_id = ${portalId}::int and ext_id = ${extId}`,
  );
  return r ? Number(r.id) : null;
}

export async function writeTriageGroup(tx: Tx, portalId: number, groupRowId: number | null): Promise<void> {
  await tx.execute(sql`update portals set triage_group_id = ${groupRowId}::int where id = ${portalId}::int`);
}
