/**
 * Tickets, their comments (agent and contact messages) and the comments' attachments. A ticket of the
 * document carries its whole conversation: comments it no longer lists are deleted, except those
 * written on the staff desk (internal notes and staff replies), which the back office never had.
 */
import { inArray, sql } from 'drizzle-orm';
import type { ImportComment, ImportTicket } from '@sportello/contracts';
import { ticketAttachments, ticketComments, tickets } from '../../../db/schema';
import { SLA_QUIET } from '../../tickets/core';
import { chunk } from '../import.files';
import {
  htmlBatches,
  JSON_BATCH,
  pairKey,
  selectIn,
  syncChildren,
  updateChanged,
  writeByExtId,
  type Owned,
  type PortalScope,
} from './support';

/** Tickets with their fields, each with exactly the document's comments. */
export async function writeTickets(s: PortalScope, rows: Owned<ImportTicket>[]): Promise<void> {
  if (rows.length === 0) return;
  await writeTicketRows(s, rows);
  await replaceTicketComments(
    s,
    rows.map(({ item: t }) => ({ ticketExtId: t.id, comments: t.comments ?? [] })),
  );
  await queueImportedClocks(
    s,
    rows.map((r) => r.item.id),
  );
}

/**
 * The service-level clock of imported tickets (docs/staff.md, "Service levels"): the import writes
 * set-based and computes no clock itself; it marks the open tickets of the document that have none yet,
 * when the portal's policy is on and gives their priority a target (the portal's, or their company's
 * own), for a quiet look by the breach sweep (due at once; SLA_QUIET: what is already past is marked
 * told, nobody is told). A ticket with a clock, or without a target, is not written, so an unchanged
 * import still writes nothing.
 */
async function queueImportedClocks(s: PortalScope, extIds: number[]): Promise<void> {
  for (const part of chunk(extIds, JSON_BATCH))
    await s.tx.execute(sql`
      update tickets t set sla_sweep_at = t.created_on, sla_breached = t.sla_breached | ${SLA_QUIET}::smallint
      from sla_policies p
      where p.portal_id = ${s.portalId}::int and p.enabled and t.portal_id = p.portal_id
        and t.ext_id = any(${sql.param(part)}::bigint[]) and not t.closed
        and t.first_response_due_at is null and t.resolution_due_at is null and t.sla_sweep_at is null
        and t.sla_breached & ${SLA_QUIET}::smallint = 0
        and (jsonb_path_exists(p.targets -> (array['low', 'normal', 'high', 'urgent'])[t.priority + 1],
            '$.* ? (@ != null)')
          or exists (select 1 from sla_company_targets c where c.company_id = t.company_id
            and c.targets ? (array['low', 'normal', 'high', 'urgent'])[t.priority + 1]))`);
}

const TICKET_KEYS = [
  'companyId',
  'title',
  'ticketNumber',
  'internalAnnualProgressive',
  'createdOn',
  'typeId',
  'statusStepId',
  'nextPlannedActivityInfo',
  'creatorContactId',
  'assignedGroupId',
  'assignedUserId',
  'wikiElementId',
] as const;

/**
 * The tickets' own rows, leaving their conversations as they are (a change of one ticket's step,
 * assignee… through the entities API).
 */
export async function writeTicketRows(
  s: PortalScope,
  rows: Owned<Omit<ImportTicket, 'comments'>>[],
): Promise<void> {
  if (rows.length === 0) return;
  const { ids } = s;
  const list = rows.map((r) => r.item);
  await ids.ticketTypes.ensure(list.map((t) => t.taskTypeId));
  await ids.statusSteps.ensure(list.map((t) => t.statusStepId));
  await ids.groups.ensure(list.map((t) => t.assignedGroupId));
  await ids.agents.ensure(list.map((t) => t.assignedUserId));
  await ids.contacts.ensure(list.map((t) => t.creatorContactId));
  await ids.wikiElements.ensure(list.map((t) => t.wikiElementId));
  for (const part of htmlBatches(rows, (r) => r.item.description))
    await writeByExtId(
      s,
      tickets,
      TICKET_KEYS,
      { html: 'description', source: 'descriptionSource' },
      part.map(({ companyId, item: t }) => {
        const description = s.html(t.description);
        return {
          extId: t.id,
          companyId,
          title: t.title,
          description: description.html,
          descriptionSource: description.source,
          ticketNumber: t.ticketNumber ?? '',
          internalAnnualProgressive: t.internalAnnualProgressive ?? 0,
          createdOn: s.at(t.createdOn),
          typeId: ids.ticketTypes.must(t.taskTypeId),
          statusStepId: ids.statusSteps.must(t.statusStepId),
          nextPlannedActivityInfo: t.nextPlannedActivityInfo ?? null,
          creatorContactId: ids.contacts.get(t.creatorContactId),
          assignedGroupId: ids.groups.get(t.assignedGroupId),
          assignedUserId: ids.agents.get(t.assignedUserId),
          wikiElementId: ids.wikiElements.get(t.wikiElementId),
        };
      }),
      ids.tickets,
    );
}

/**
 * Sets each ticket's conversation to the given comments: written, and the others (but the staff's)
 * deleted, in SQL (the comments a ticket keeps are named by their ext ids; nothing is read back).
 */
export async function replaceTicketComments(
  s: PortalScope,
  conversations: { ticketExtId: number; comments: ImportComment[] }[],
): Promise<void> {
  await s.ids.tickets.ensure(conversations.map((c) => c.ticketExtId));
  await writeComments(
    s,
    conversations.flatMap((c) => c.comments.map((item) => ({ ticketExtId: c.ticketExtId, item }))),
  );
  // After every comment is written: one that moved to another ticket is updated, not deleted.
  for (const part of chunk(conversations, JSON_BATCH)) {
    const json = JSON.stringify(
      part.map((c) => ({ t: s.ids.tickets.must(c.ticketExtId), e: c.comments.map((cm) => cm.id) })),
    );
    await s.tx.execute(sql`
      delete from ${ticketComments} c
      using json_to_recordset(${json}::json) as d(t int, e bigint[])
      where c.ticket_id = d.t
        and c.ext_id <> all (d.e)
        -- The staff desk's comments are the portal's own: no document lists them.
        and not c.internal and c.sender_staff_id is null`);
  }
}

const COMMENT_KEYS = ['ticketId', 'creationDate', 'senderContactId', 'senderAgentId'] as const;

/** Comments of tickets (by the ticket's ext id), each with exactly the document's attachments. */
export async function writeComments(
  s: PortalScope,
  rows: { ticketExtId: number; item: ImportComment }[],
): Promise<void> {
  if (rows.length === 0) return;
  const { ids } = s;
  await ids.tickets.ensure(rows.map((r) => r.ticketExtId));
  await ids.contacts.ensure(rows.map((r) => r.item.senderContactId));
  await ids.agents.ensure(rows.map((r) => r.item.senderAgentId));
  for (const part of htmlBatches(rows, (r) => r.item.message)) {
    await writeByExtId(
      s,
      ticketComments,
      // sender_user_id stays: it is who wrote the comment from the portal ('you').
      COMMENT_KEYS,
      { html: 'message', source: 'messageSource' },
      part.map(({ ticketExtId, item: c }) => {
        const message = s.html(c.message);
        return {
          extId: c.id,
          ticketId: ids.tickets.must(ticketExtId),
          message: message.html,
          messageSource: message.source,
          creationDate: s.at(c.creationDate),
          senderContactId: ids.contacts.get(c.senderContactId),
          senderAgentId: ids.agents.get(c.senderAgentId),
        };
      }),
      ids.comments,
    );
    await syncAttachments(s, part);
  }
}

async function syncAttachments(
  s: PortalScope,
  rows: { ticketExtId: number; item: ImportComment }[],
): Promise<void> {
  const keys = ['ticketId', 'commentId', 'extId', 'name', 'fileId'] as const;
  await syncChildren({
    existing: await selectIn(
      rows.map(({ item }) => s.ids.comments.must(item.id)),
      (part) =>
        s.tx
          .select({
            id: ticketAttachments.id,
            parent: ticketAttachments.commentId,
            ext: ticketAttachments.extId,
          })
          .from(ticketAttachments)
          .where(inArray(ticketAttachments.commentId, part))
          .orderBy(ticketAttachments.id),
    ),
    desired: rows.flatMap(({ ticketExtId, item: c }) => {
      const commentId = s.ids.comments.must(c.id);
      return (c.attachments ?? []).map((a) => ({
        key: pairKey(commentId, a.id),
        row: {
          portalId: s.portalId,
          ticketId: s.ids.tickets.must(ticketExtId),
          commentId,
          extId: a.id,
          name: a.name,
          fileId: s.fileId(a.file),
        },
      }));
    }),
    update: (part) => updateChanged(s.tx, ticketAttachments, keys, part),
    insert: (part) =>
      s.tx.insert(ticketAttachments).values(part).returning({
        id: ticketAttachments.id,
        parent: ticketAttachments.commentId,
        ext: ticketAttachments.extId,
      }),
    remove: (ids) => s.tx.delete(ticketAttachments).where(inArray(ticketAttachments.id, ids)),
  });
}
