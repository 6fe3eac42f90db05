/**
 * Events out (issue 12): a change writes its event in its own transaction, so an event exists if and
 * only if the change committed. The same statement queues one webhook delivery per subscribed, enabled
 * endpoint of the portal, and a statement trigger (migration 0004) NOTIFYs waiting readers at commit.
 *
 * Each emitter builds the event's `data` in SQL from the rows just written, with the back office's
 * ids, so one emission is one statement whatever the payload holds. Files are described with a URL of
 * the integration API (`GET /api/integration/v1/files/:id`, fetched with a key of the portal).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { EventSource, EventType } from '@sportello/contracts';
import type { Tx } from '../db/client';
import type { AppContext } from './context';
import { isoText, queryRows } from './sql-json';

export type { EventSource, EventType };

/** Who made a change: a back office can skip the events of its own key. */
export const contactSource = (t: { contactExtId: number }, userName?: string): EventSource =>
  userName === undefined
    ? { type: 'contact', contactId: t.contactExtId }
    : { type: 'contact', contactId: t.contactExtId, userName };
export const apiKeySource = (apiKeyId: number): EventSource => ({ type: 'api_key', apiKeyId });
/** A call with the installation key (PORTAL_ADMIN_KEY): keys and webhook endpoints. */
export const adminKeySource: EventSource = { type: 'admin_key' };
export const systemSource: EventSource = { type: 'system' };
/** A staff user on the staff desk. */
export const staffSource = (staffUserId: number, userName: string): EventSource => ({
  type: 'staff',
  staffUserId,
  userName,
});
/** Someone using a public capability link (booking, cancellation). */
export const visitorSource: EventSource = { type: 'visitor' };

/** What an emitter needs of the app: PUBLIC_URL (file URLs in payloads are absolute) and the clock. */
export type EmitContext = Pick<AppContext, 'config' | 'clock'>;

/** Integration-API URL of a file, as SQL text over a `files` alias. */
const fileJson = (alias: string, base: string) =>
  `json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'contentType', ${alias}.content_type,
    'size', ${alias}.size, 'url', ${base} || '/api/integration/v1/files/' || ${alias}.id)`;

/**
 * A write that belongs with an event (the change's audit row): an emitter given one runs it in the
 * event's own statement, as a data-modifying CTE, and marks it written; a caller whose emitter wrote
 * nothing of it runs it alone. One round trip fewer per change.
 */
export interface CompanionWrite {
  sql: SQL;
  written: boolean;
}

/**
 * Inserts one event per row of `select` (columns `portal_id`, `data`) and the webhook deliveries it
 * fans out to, and runs `also` in the same statement; answers how many events were written.
 */
async function emit(
  tx: Tx,
  ec: EmitContext,
  type: EventType,
  source: EventSource,
  select: SQL,
  also?: CompanionWrite,
): Promise<number> {
  const now = ec.clock.now().toISOString();
  const companion = also ? sql`companion as (${also.sql}),` : sql``;
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`with ${companion} e as (
        insert into events (portal_id, type, occurred_at, source, data)
        select s.portal_id, ${type}, ${now}::timestamptz, ${JSON.stringify(source)}::jsonb, s.data
        from (${select}) s
        returning id, portal_id, type),
      d as (
        insert into webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
        select w.id, e.id, ${now}::timestamptz, ${now}::timestamptz
        from e join webhook_endpoints w on w.portal_id = e.portal_id and w.enabled
          and (cardinality(w.event_types) = 0 or e.type = any(w.event_types))
        returning 1)
      select (select count(*) from e)::int as n, (select count(*) from d)::int as deliveries`,
  );
  if (also) also.written = true;
  return Number(rows[0]?.n ?? 0);
}

/** The ticket as a back office mirrors it (ext ids throughout), as SQL over alias `t`. */
const ticketJson = (base: string) => `json_build_object(
  'id', t.ext_id, 'companyId', co.ext_id, 'title', t.title, 'description', t.description,
  'ticketNumber', t.ticket_number, 'internalAnnualProgressive', t.internal_annual_progressive,
  'createdOn', ${isoText('t.created_on')}, 'taskTypeId', tt.ext_id,
  'statusStepId', st.ext_id, 'statusStepName', st.name, 'isClosed', st.task_status = 2,
  'nextPlannedActivityInfo', t.next_planned_activity_info,
  'creatorContactId', cc.ext_id, 'assignedGroupId', ag.ext_id, 'assignedUserId', au.ext_id,
  'wikiElementId', we.ext_id,
  'priority', (array['low', 'normal', 'high', 'urgent'])[t.priority + 1],
  'dueAt', ${isoText('t.due_at')},
  'tags', coalesce((select json_agg(tg.name order by lower(tg.name), tg.id)
    from ticket_tag_links tl join ticket_tags tg on tg.id = tl.tag_id where tl.ticket_id = t.id), '[]'::json),
  'attachments', coalesce((select json_agg(json_build_object('id', a.ext_id, 'name', a.name,
      'file', ${fileJson('af', base)}) order by a.ext_id)
    from ticket_attachments a join files af on af.id = a.file_id
    where a.ticket_id = t.id and a.comment_id is null), '[]'::json))`;

const ticketJoins = `from tickets t
  join companies co on co.id = t.company_id
  join ticket_types tt on tt.id = t.type_id
  join status_steps st on st.id = t.status_step_id
  left join contacts cc on cc.id = t.creator_contact_id
  left join assignee_groups ag on ag.id = t.assigned_group_id
  left join agents au on au.id = t.assigned_user_id
  left join wiki_elements we on we.id = t.wiki_element_id`;

const baseParam = (ec: EmitContext) => sql`${ec.config.publicUrl}::text`;

/**
 * ticket.created / ticket.closed / ticket.reopened / ticket.updated / ticket.deleted (emitted before
 * the row goes): `{ticket}` (with `previousStatusStepId`).
 */
export function emitTicketEvent(
  tx: Tx,
  ec: EmitContext,
  type: 'ticket.created' | 'ticket.closed' | 'ticket.reopened' | 'ticket.updated' | 'ticket.deleted',
  ticketId: number,
  source: EventSource,
  previousStepId: number | null = null,
  also?: CompanionWrite,
): Promise<number> {
  return emit(
    tx,
    ec,
    type,
    source,
    sql`select t.portal_id, json_build_object('ticket', ${sql.raw(ticketJson('b.base'))},
        'previousStatusStepId', (select ext_id from status_steps where id = ${previousStepId}::int)) as data
      ${sql.raw(ticketJoins)} cross join (select ${baseParam(ec)} as base) b
      where t.id = ${ticketId}::int`,
    also,
  );
}

/**
 * ticket.comment_added / agent.comment_added: the comment (HTML, attachments) and its ticket. An
 * internal note is the staff's alone: for one, nothing is written (answers 0), whoever calls.
 */
export function emitCommentEvent(
  tx: Tx,
  ec: EmitContext,
  type: 'ticket.comment_added' | 'agent.comment_added',
  commentId: number,
  source: EventSource,
): Promise<number> {
  return emit(
    tx,
    ec,
    type,
    source,
    sql`select t.portal_id, json_build_object(
        'comment', json_build_object('id', cm.ext_id, 'ticketId', t.ext_id, 'message', cm.message,
          'creationDate', ${sql.raw(isoText('cm.creation_date'))}, 'channel', cm.channel,
          'senderContactId', sc.ext_id, 'senderAgentId', sa.ext_id, 'senderAgentName', sa.display_name,
          'attachments', coalesce((select json_agg(json_build_object('id', a.ext_id, 'name', a.name,
              'file', ${sql.raw(fileJson('af', 'b.base'))}) order by a.ext_id)
            from ticket_attachments a join files af on af.id = a.file_id
            where a.comment_id = cm.id), '[]'::json)),
        'ticket', ${sql.raw(ticketJson('b.base'))}) as data
      from ticket_comments cm
      join tickets t on t.id = cm.ticket_id
      ${sql.raw(ticketJoins.slice('from tickets t'.length))}
      cross join (select ${baseParam(ec)} as base) b
      left join contacts sc on sc.id = cm.sender_contact_id
      left join agents sa on sa.id = cm.sender_agent_id
      where cm.id = ${commentId}::int and not cm.internal`,
  );
}

/**
 * An event whose `data` the caller already holds as JSON (the changes one by one of the entities
 * module, which answer, audit and emit the same image of the entity).
 */
export function emitDataEvent(
  tx: Tx,
  ec: EmitContext,
  type: EventType,
  portalId: number,
  source: EventSource,
  data: Record<string, unknown>,
  also?: CompanionWrite,
): Promise<number> {
  return emit(
    tx,
    ec,
    type,
    source,
    sql`select ${portalId}::int as portal_id, ${JSON.stringify(data)}::jsonb as data`,
    also,
  );
}

/**
 * ticket.rated: the customer's rating of a closed ticket (each new rating of the same ticket is a new
 * event; the last one holds) and the ticket.
 */
export function emitRatingEvent(
  tx: Tx,
  ec: EmitContext,
  ticketId: number,
  source: EventSource,
): Promise<number> {
  return emit(
    tx,
    ec,
    'ticket.rated',
    source,
    sql`select t.portal_id, json_build_object(
        'rating', json_build_object('ticketId', t.ext_id, 'rating', r.rating, 'comment', r.comment,
          'contactId', rc.ext_id, 'ratedAt', ${sql.raw(isoText('r.updated_at'))}),
        'ticket', ${sql.raw(ticketJson('b.base'))}) as data
      from ticket_ratings r
      join tickets t on t.id = r.ticket_id
      ${sql.raw(ticketJoins.slice('from tickets t'.length))}
      cross join (select ${baseParam(ec)} as base) b
      left join contacts rc on rc.id = r.contact_id
      where r.ticket_id = ${ticketId}::int`,
  );
}

/**
 * ticket.merged / ticket.merge_undone: one event for each ticket of the merge (the source's, then the
 * target's, in one statement), each with the merge (`sourceTicketId`, `targetTicketId`, when, what moved
 * by the back office's ids) and that ticket as it stands after the change.
 */
export function emitMergeEvents(
  tx: Tx,
  ec: EmitContext,
  type: 'ticket.merged' | 'ticket.merge_undone',
  mergeId: number,
  source: EventSource,
): Promise<number> {
  return emit(
    tx,
    ec,
    type,
    source,
    sql`select t.portal_id, json_build_object(
        'merge', json_build_object('sourceTicketId', src.ext_id, 'targetTicketId', tgt.ext_id,
          'role', case when t.id = m.source_ticket_id then 'source' else 'target' end,
          'mergedAt', ${sql.raw(isoText('m.merged_at'))},
          'undoneAt', case when m.undone_at is null then null else ${sql.raw(isoText('m.undone_at'))} end,
          'commentIds', coalesce((select json_agg(c.ext_id order by c.creation_date, c.ext_id)
            from ticket_comments c where c.id = any(m.comment_ids)), '[]'::json),
          'attachmentIds', coalesce((select json_agg(a.ext_id order by a.ext_id)
            from ticket_attachments a where a.id = any(m.attachment_ids)), '[]'::json),
          'timeEntryIds', coalesce((select json_agg(e.id order by e.id)
            from ticket_time_entries e where e.id = any(m.time_entry_ids)), '[]'::json)),
        'ticket', ${sql.raw(ticketJson('b.base'))}) as data
      from ticket_merges m
      join tickets src on src.id = m.source_ticket_id
      join tickets tgt on tgt.id = m.target_ticket_id
      join tickets t on t.id in (m.source_ticket_id, m.target_ticket_id)
      ${sql.raw(ticketJoins.slice('from tickets t'.length))}
      cross join (select ${baseParam(ec)} as base) b
      where m.id = ${mergeId}::int
      order by t.id <> m.source_ticket_id`,
  );
}

/**
 * ticket.time_logged: minutes an agent logged on a ticket (billable or not) and the ticket, for the back
 * office that keeps the hour bank: Sportello never changes a contract's balance.
 */
export function emitTimeEvent(
  tx: Tx,
  ec: EmitContext,
  entryId: number,
  source: EventSource,
): Promise<number> {
  return emit(
    tx,
    ec,
    'ticket.time_logged',
    source,
    sql`select t.portal_id, json_build_object(
        'timeEntry', json_build_object('id', e.id, 'ticketId', t.ext_id, 'companyId', co.ext_id,
          'minutes', e.minutes, 'billable', e.billable, 'note', e.note, 'commentId', c.ext_id,
          'staffUserId', e.staff_user_id, 'staffName', e.staff_name, 'agentId', ma.ext_id,
          'loggedAt', ${sql.raw(isoText('e.logged_at'))}),
        'ticket', ${sql.raw(ticketJson('b.base'))}) as data
      from ticket_time_entries e
      join tickets t on t.id = e.ticket_id
      ${sql.raw(ticketJoins.slice('from tickets t'.length))}
      cross join (select ${baseParam(ec)} as base) b
      left join ticket_comments c on c.id = e.comment_id
      left join staff_memberships sm on sm.staff_user_id = e.staff_user_id and sm.portal_id = t.portal_id
      left join agents ma on ma.id = sm.agent_id
      where e.id = ${entryId}::int`,
  );
}

/**
 * ticket.sla_breached: a target of the portal's service levels passed unmet (the breach sweep, once per
 * target and ticket): `sla` (`target`: `first_response` or `resolution`, `dueAt`, `priority`) and the
 * ticket.
 */
export function emitSlaBreachEvent(
  tx: Tx,
  ec: EmitContext,
  ticketId: number,
  sla: { target: 'first_response' | 'resolution'; dueAt: Date },
): Promise<number> {
  return emit(
    tx,
    ec,
    'ticket.sla_breached',
    systemSource,
    sql`select t.portal_id, json_build_object(
        'sla', json_build_object('target', ${sla.target}::text, 'dueAt', ${sla.dueAt.toISOString()}::text,
          'priority', (array['low', 'normal', 'high', 'urgent'])[t.priority + 1]),
        'ticket', ${sql.raw(ticketJson('b.base'))}) as data
      ${sql.raw(ticketJoins)} cross join (select ${baseParam(ec)} as base) b
      where t.id = ${ticketId}::int`,
  );
}

/** document.uploaded: the contact's document with its file. */
export function emitDocumentEvent(
  tx: Tx,
  ec: EmitContext,
  documentId: number,
  source: EventSource,
): Promise<number> {
  return emit(
    tx,
    ec,
    'document.uploaded',
    source,
    sql`select d.portal_id, json_build_object('document', json_build_object('id', d.ext_id,
        'companyId', co.ext_id, 'contactId', c.ext_id, 'documentName', d.document_name,
        'createDate', ${sql.raw(isoText('d.create_date'))}, 'file', ${sql.raw(fileJson('f', 'b.base'))})) as data
      from documents d join companies co on co.id = d.company_id join contacts c on c.id = d.contact_id
      join files f on f.id = d.file_id cross join (select ${baseParam(ec)} as base) b
      where d.id = ${documentId}::int`,
  );
}

/**
 * signature.signed: the request (by its document key), the signed PDF and the contact's document made
 * of it (by its back-office id).
 */
export function emitSignatureEvent(
  tx: Tx,
  ec: EmitContext,
  requestId: number,
  documentExtId: number,
  source: EventSource,
): Promise<number> {
  return emit(
    tx,
    ec,
    'signature.signed',
    source,
    sql`select r.portal_id, json_build_object('signatureRequest', json_build_object(
          'documentKey', r.document_key, 'documentName', r.document_name, 'contactId', c.ext_id,
          'companyId', co.ext_id, 'signedAt', ${sql.raw(isoText('r.signed_at'))},
          'signedFile', ${sql.raw(fileJson('f', 'b.base'))}),
        'document', json_build_object('id', d.ext_id, 'documentName', d.document_name)) as data
      from signature_requests r join contacts c on c.id = r.contact_id
      join companies co on co.id = c.company_id
      join files f on f.id = r.signed_file_id
      join documents d on d.portal_id = r.portal_id and d.ext_id = ${documentExtId}::bigint
      cross join (select ${baseParam(ec)} as base) b
      where r.id = ${requestId}::int`,
  );
}

/**
 * appointment.booked / appointment.cancelled. The cancellation key is the customer's capability and
 * stays out; `reference` (a digest of it) identifies the appointment across its two events.
 */
export function emitAppointmentEvent(
  tx: Tx,
  ec: EmitContext,
  type: 'appointment.booked' | 'appointment.cancelled',
  appointmentId: number,
  source: EventSource,
): Promise<number> {
  return emit(
    tx,
    ec,
    type,
    source,
    sql`select a.portal_id, json_build_object('appointment', json_build_object(
        'reference', substr(encode(sha256(convert_to(a.cancel_key, 'UTF8')), 'hex'), 1, 24),
        'eventKey', l.event_key, 'title', l.title, 'agentId', ag.ext_id,
        'startsAt', ${sql.raw(isoText('a.starts_at'))}, 'endsAt', ${sql.raw(isoText('a.ends_at'))},
        'firstName', a.first_name, 'lastName', a.last_name, 'phone', a.phone, 'email', a.email,
        'companyName', a.company_name, 'notes', a.notes,
        'cancelledAt', case when a.cancelled_at is null then null
          else ${sql.raw(isoText('a.cancelled_at'))} end)) as data
      from appointments a join appointment_links l on l.id = a.link_id join agents ag on ag.id = a.agent_id
      where a.id = ${appointmentId}::int`,
  );
}

/** user.activated: one event per portal in which the user holds contacts, naming those contacts. */
export function emitUserActivated(tx: Tx, ec: EmitContext, userId: number): Promise<number> {
  return emit(
    tx,
    ec,
    'user.activated',
    systemSource,
    sql`select c.portal_id, json_build_object('user', json_build_object('userName', u.user_name,
        'email', u.email, 'contacts', json_agg(json_build_object('contactId', c.ext_id,
          'companyId', co.ext_id) order by c.ext_id))) as data
      from users u join user_contacts uc on uc.user_id = u.id join contacts c on c.id = uc.contact_id
      join companies co on co.id = c.company_id
      where u.id = ${userId}::int
      group by c.portal_id, u.id`,
  );
}
