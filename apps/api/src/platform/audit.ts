/**
 * The audit log's writer (migration 0010): one row per admin change, in the change's transaction. The
 * entity modules (admin/entities) and the appointments module's staff cancellation write through it;
 * the admin module reads and exports the log.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { queryRows } from './sql-json';

export interface AuditRow {
  portalId: number;
  occurredAt: Date;
  actorType: 'api_key' | 'staff';
  apiKeyId: number | null;
  staffUserId: number | null;
  entity: string;
  entityId: string;
  action: string;
  before: unknown;
  after: unknown;
}

/** One audit row; the actor's name (key name, staff e-mail) is copied from its row. */
export async function insertAudit(tx: Tx, a: AuditRow): Promise<void> {
  await queryRows(
    tx,
    sql`insert into audit_log (portal_id, occurred_at, actor_type, api_key_id, staff_user_id, actor_name,
        entity, entity_id, action, before, after)
      values (${a.portalId}::int, ${a.occurredAt.toISOString()}::timestamptz, ${a.actorType},
        ${a.apiKeyId}::int, ${a.staffUserId}::int,
        coalesce((select name from api_keys where id = ${a.apiKeyId}::int),
          (select email from staff_users where id = ${a.staffUserId}::int), ''),
        ${a.entity}, ${a.entityId}, ${a.action},
        ${a.before === null ? null : JSON.stringify(a.before)}::jsonb,
        ${a.after === null ? null : JSON.stringify(a.after)}::jsonb)`,
  );
}
