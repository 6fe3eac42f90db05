/**
 * The audit log's writer (migration 0010): one row per admin change, in the change's transaction. The
 * entity modules (admin/entities), the appointments module's staff cancellation, the staff access
 * administration, the ticket setup, and the API keys and webhook endpoints (recordAdminChange, by a
 * staff admin, the installation key or a key) write through it; the admin module reads and exports
 * the log.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AuditActorType, EntityAction, EntityKind, EventType } from '@sportello/contracts';
import type { Tx } from '../db/client';
import {
  adminKeySource,
  apiKeySource,
  emitDataEvent,
  staffSource,
  type CompanionWrite,
  type EmitContext,
} from './events';
import { queryRows } from './sql-json';

/** The actor name of the installation key's rows: the variable that holds it, never its value. */
export const ADMIN_KEY_ACTOR_NAME = 'PORTAL_ADMIN_KEY';

export interface AuditRow {
  portalId: number;
  occurredAt: Date;
  actorType: AuditActorType;
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
  await queryRows(tx, auditInsert(a));
}

/**
 * The audit row's insert, to run alone (`insertAudit`) or inside the change's event statement (an
 * emitter's `CompanionWrite`).
 */
export function auditInsert(a: AuditRow): SQL {
  return sql`insert into audit_log (portal_id, occurred_at, actor_type, api_key_id, staff_user_id, actor_name,
        entity, entity_id, action, before, after)
      values (${a.portalId}::int, ${a.occurredAt.toISOString()}::timestamptz, ${a.actorType},
        ${a.apiKeyId}::int, ${a.staffUserId}::int,
        coalesce((select name from api_keys where id = ${a.apiKeyId}::int),
          (select email from staff_users where id = ${a.staffUserId}::int),
          ${a.actorType === 'admin_key' ? ADMIN_KEY_ACTOR_NAME : ''}::text),
        ${a.entity}, ${a.entityId}, ${a.action},
        ${a.before === null ? null : JSON.stringify(a.before)}::jsonb,
        ${a.after === null ? null : JSON.stringify(a.after)}::jsonb)`;
}

/** A staff admin acting in one portal (what the staff guard resolved). */
export interface StaffActor {
  staffUserId: number;
  displayName: string;
  portalId: number;
}

/** The actor of an admin route: the staff guard resolved its `:company` portal and the admin role. */
export function staffActorOf(s: {
  staffUserId: number;
  displayName: string;
  portal: { portalId: number } | null;
}): StaffActor {
  if (!s.portal) throw new Error('staff admin route without :company');
  return { staffUserId: s.staffUserId, displayName: s.displayName, portalId: s.portal.portalId };
}

/** Whoever makes an admin change in one portal: a staff admin, the installation key or a portal key. */
export type AdminActor =
  | ({ type: 'staff' } & StaffActor)
  | { type: 'admin_key'; portalId: number }
  | { type: 'api_key'; apiKeyId: number; portalId: number };

export interface AdminChange {
  entity: EntityKind;
  entityId: number;
  action: EntityAction;
  before: unknown;
  after: unknown;
}

/**
 * The audit row and the event `<entity>.<action>` of an admin change, in its transaction. The images
 * must hold no secret (callers pass the public answers, which never carry one).
 */
export async function recordAdminChange(
  tx: Tx,
  ec: EmitContext,
  a: AdminActor,
  c: AdminChange,
): Promise<void> {
  const audit: CompanionWrite = {
    sql: auditInsert({
      portalId: a.portalId,
      occurredAt: ec.clock.now(),
      actorType: a.type,
      apiKeyId: a.type === 'api_key' ? a.apiKeyId : null,
      staffUserId: a.type === 'staff' ? a.staffUserId : null,
      entity: c.entity,
      entityId: String(c.entityId),
      action: c.action,
      before: c.before,
      after: c.after,
    }),
    written: false,
  };
  const data: Record<string, unknown> = { [c.entity]: c.after ?? c.before };
  if (c.before !== null && c.after !== null) data.previous = c.before;
  const source =
    a.type === 'staff'
      ? staffSource(a.staffUserId, a.displayName)
      : a.type === 'api_key'
        ? apiKeySource(a.apiKeyId)
        : adminKeySource;
  await emitDataEvent(tx, ec, `${c.entity}.${c.action}` as EventType, a.portalId, source, data, audit);
  // The event's statement wrote the row; an emitter that took no part would leave it to us.
  if (!audit.written) await queryRows(tx, audit.sql);
}

/** A staff admin's change: its audit row and its event (see recordAdminChange). */
export const recordStaffChange = (tx: Tx, ec: EmitContext, a: StaffActor, c: AdminChange): Promise<void> =>
  recordAdminChange(tx, ec, { type: 'staff', ...a }, c);
