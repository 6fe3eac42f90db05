/** SQL of the conversation writer (write-comment.ts) and of the ticket rules it shares with the portal. */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { agents, staffMemberships, ticketComments, tickets } from '../../../db/schema';
import { reserveExtIds } from '../../../platform/portal-sequences';
import { intArrayParam, queryRows, tsParam, type Queryable } from '../../../platform/sql-json';
import { refreshSlaClock } from './sla-clock';
import { ticketScopeWhere, type TicketScope } from './visibility';

export interface LockedTicket {
  id: number;
  extId: number;
  statusStepId: number;
  closed: boolean;
}

/**
 * A ticket of the portal by its back-office id, locked for the change; with a scope, only one that
 * scope reaches (a contact writes only where they may read).
 */
export async function lockTicket(
  tx: Queryable,
  portalId: number,
  ticketExtId: number,
  scope: TicketScope | null,
): Promise<LockedTicket | undefined> {
  const where = scope ? ticketScopeWhere(scope) : sql`t.portal_id = ${portalId}::int`;
  const rows = await queryRows<{ id: number; ext_id: number; status_step_id: number; closed: boolean }>(
    tx,
    sql`select t.id, t.ext_id, t.status_step_id, t.closed from tickets t
      where ${where} and t.ext_id = ${ticketExtId}::bigint for update of t`,
  );
  const r = rows[0];
  return (
    r && {
      id: Number(r.id),
      extId: Number(r.ext_id),
      statusStepId: Number(r.status_step_id),
      closed: r.closed === true,
    }
  );
}

/**
 * The staff user's agent row in the portal, created (numbered after the back office's agents) when the
 * staff user first writes or is invited: a comment's sender is an agent, whoever wrote it.
 */
export async function ensureStaffAgent(
  tx: Tx,
  portalId: number,
  staffUserId: number,
): Promise<{ id: number; displayName: string }> {
  const rows = await queryRows<{ agent_id: number | null; display_name: string; email: string }>(
    tx,
    sql`select m.agent_id, coalesce(a.display_name, u.display_name) as display_name, u.email
      from staff_memberships m join staff_users u on u.id = m.staff_user_id
      left join agents a on a.id = m.agent_id
      where m.portal_id = ${portalId}::int and m.staff_user_id = ${staffUserId}::int for update of m`,
  );
  const m = rows[0];
  if (!m) throw new Error('ensureStaffAgent: not a member');
  if (m.agent_id !== null) return { id: Number(m.agent_id), displayName: m.display_name };
  const extId = await reserveExtIds(tx, portalId, 'agent_seq');
  const [row] = await tx
    .insert(agents)
    .values({ portalId, extId, displayName: m.display_name, email: m.email })
    .returning({ id: agents.id });
  await tx
    .update(staffMemberships)
    .set({ agentId: row!.id })
    .where(
      sql`${staffMemberships.portalId} = ${portalId} and ${staffMemberships.staffUserId} = ${staffUserId}`,
    );
  return { id: row!.id, displayName: m.display_name };
}

/** The agent of a portal by its back-office id; created with `name` when missing and a name is given. */
export async function findOrCreateAgent(
  tx: Tx,
  portalId: number,
  extId: number,
  name: string | undefined,
): Promise<{ id: number; displayName: string } | undefined> {
  const rows = await queryRows<{ id: number; display_name: string }>(
    tx,
    sql`select id, display_name from agents where portal_id = ${portalId}::int and ext_id = ${extId}::bigint`,
  );
  if (rows[0]) return { id: Number(rows[0].id), displayName: rows[0].display_name };
  if (name === undefined) return undefined;
  const [row] = await tx
    .insert(agents)
    .values({ portalId, extId, displayName: name })
    .onConflictDoNothing()
    .returning({ id: agents.id, displayName: agents.displayName });
  if (row) return row;
  // A concurrent request created it first.
  return findOrCreateAgent(tx, portalId, extId, undefined);
}

export async function commentExtIdTaken(tx: Tx, portalId: number, extId: number): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    tx,
    sql`select 1 as one from ticket_comments where portal_id = ${portalId}::int and ext_id = ${extId}::bigint`,
  );
  return rows.length > 0;
}

/** Who may attach a stored file: the contact, staff user or API key that uploaded it. */
export type FileOwner = { contactId: number } | { staffUserId: number } | { apiKeyId: number };

const ownerWhere = (o: FileOwner) =>
  'contactId' in o
    ? sql`uploaded_by_contact_id = ${o.contactId}::int`
    : 'staffUserId' in o
      ? sql`uploaded_by_staff_id = ${o.staffUserId}::int`
      : sql`uploaded_by_api_key_id = ${o.apiKeyId}::int`;

/**
 * Marks files of the portal that the owner uploaded and nobody attached yet as attached, and answers
 * those it took (the caller compares with what it asked for).
 */
export async function claimFiles(
  tx: Queryable,
  p: { portalId: number; owner: FileOwner; fileIds: number[]; now: Date },
): Promise<{ id: number; name: string; size: number }[]> {
  if (p.fileIds.length === 0) return [];
  const rows = await queryRows<{ id: number; name: string; size: number }>(
    tx,
    sql`update files set attached_at = ${tsParam(p.now)}
      where id = any(${intArrayParam(p.fileIds)}) and portal_id = ${p.portalId}::int
        and ${ownerWhere(p.owner)} and attached_at is null
      returning id, name, size`,
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name, size: Number(r.size) }));
}

export async function insertComment(tx: Queryable, v: typeof ticketComments.$inferInsert): Promise<number> {
  const r = await tx.insert(ticketComments).values(v).returning({ id: ticketComments.id });
  return r[0]!.id;
}

/** The portal's default step when `stepId` is a closed one (task status 2), else null. */
export async function reopeningStepId(
  db: Queryable,
  portalId: number,
  stepId: number,
): Promise<number | null> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select d.id from status_steps s join status_steps d on d.portal_id = s.portal_id and d.is_default
      where s.id = ${stepId} and s.portal_id = ${portalId} and s.task_status = 2
      order by d.ext_id limit 1`,
  );
  return rows[0] ? Number(rows[0].id) : null;
}

export async function setTicketStep(db: Queryable, ticketId: number, stepId: number): Promise<void> {
  await db.execute(sql`update ${tickets} set status_step_id = ${stepId} where id = ${ticketId}`);
  // A close stops the service-level clock, a reopen starts it again.
  await refreshSlaClock(db, ticketId);
}

/** Records that the staff user has seen the ticket as it is now. */
export async function markStaffRead(
  db: Queryable,
  staffUserId: number,
  ticketId: number,
  now: Date,
): Promise<void> {
  await queryRows(
    db,
    sql`insert into staff_ticket_reads as r (staff_user_id, ticket_id, read_at)
      select ${staffUserId}, t.id, greatest(${tsParam(now)}, t.last_activity_at) from tickets t where t.id = ${ticketId}
      on conflict (staff_user_id, ticket_id) do update set read_at = excluded.read_at`,
  );
}

/** The signature a staff user's public replies on the desk end with ('' for none; migration 0048). */
export async function signatureOf(tx: Tx, staffUserId: number): Promise<string> {
  const rows = await queryRows<{ signature: string }>(
    tx,
    sql`select signature from staff_users where id = ${staffUserId}::int`,
  );
  return rows[0]?.signature ?? '';
}

/** The number of the ticket this one was merged into (and not undone), or null. */
export async function mergedInto(tx: Queryable, ticketId: number): Promise<string | null> {
  const [r] = await queryRows<{ n: string }>(
    tx,
    sql`select coalesce(nullif(tt.ticket_number, ''), '#' || tt.ext_id) as n
      from ticket_merges m join tickets tt on tt.id = m.target_ticket_id
      where m.source_ticket_id = ${ticketId}::int and m.undone_at is null limit 1`,
  );
  return r ? r.n : null;
}
