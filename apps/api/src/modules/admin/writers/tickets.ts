/**
 * Tickets, their comments (agent and contact messages) and the comments' attachments. A ticket of the
 * document carries its whole conversation: comments it no longer lists are deleted, except those
 * written on the staff desk (internal notes and staff replies), which the back office never had.
 */
import { and, inArray, isNull, not } from 'drizzle-orm';
import type { ImportComment, ImportTicket } from '@sportello/contracts';
import { ticketAttachments, ticketComments, tickets } from '../../../db/schema';
import {
  deleteIds,
  onlyChanged,
  pairKey,
  selectIn,
  syncChildren,
  upsertByExtId,
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
}

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
  await upsertByExtId(
    rows.map(({ companyId, item: t }) => ({
      portalId: s.portalId,
      companyId,
      extId: t.id,
      title: t.title,
      description: s.clean(t.description),
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
    })),
    ids.tickets,
    (part) =>
      s.tx
        .insert(tickets)
        .values(part)
        .onConflictDoUpdate({
          target: [tickets.portalId, tickets.extId],
          ...onlyChanged(tickets, [
            'companyId',
            'title',
            'description',
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
          ]),
        })
        .returning({ id: tickets.id, extId: tickets.extId }),
  );
}

/** Sets each ticket's conversation to the given comments: written, and the others (but the staff's) deleted. */
export async function replaceTicketComments(
  s: PortalScope,
  conversations: { ticketExtId: number; comments: ImportComment[] }[],
): Promise<void> {
  await s.ids.tickets.ensure(conversations.map((c) => c.ticketExtId));
  const rows = conversations.flatMap((c) => c.comments.map((item) => ({ ticketExtId: c.ticketExtId, item })));
  await writeComments(s, rows);
  const kept = new Set(rows.map(({ item }) => s.ids.comments.must(item.id)));
  const existing = await selectIn(
    conversations.map((c) => s.ids.tickets.must(c.ticketExtId)),
    (part) =>
      s.tx
        .select({ id: ticketComments.id })
        .from(ticketComments)
        .where(
          and(
            inArray(ticketComments.ticketId, part),
            // The staff desk's comments are the portal's own: no document lists them.
            not(ticketComments.internal),
            isNull(ticketComments.senderStaffId),
          ),
        ),
  );
  await deleteIds(
    existing.filter((c) => !kept.has(c.id)).map((c) => c.id),
    (part) => s.tx.delete(ticketComments).where(inArray(ticketComments.id, part)),
  );
}

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
  await upsertByExtId(
    rows.map(({ ticketExtId, item: c }) => ({
      portalId: s.portalId,
      ticketId: ids.tickets.must(ticketExtId),
      extId: c.id,
      message: s.clean(c.message),
      creationDate: s.at(c.creationDate),
      senderContactId: ids.contacts.get(c.senderContactId),
      senderAgentId: ids.agents.get(c.senderAgentId),
    })),
    ids.comments,
    (part) =>
      s.tx
        .insert(ticketComments)
        .values(part)
        .onConflictDoUpdate({
          target: [ticketComments.portalId, ticketComments.extId],
          // sender_user_id stays: it is who wrote the comment from the portal ('you').
          ...onlyChanged(ticketComments, [
            'ticketId',
            'message',
            'creationDate',
            'senderContactId',
            'senderAgentId',
          ]),
        })
        .returning({ id: ticketComments.id, extId: ticketComments.extId }),
  );
  await syncAttachments(s, rows);
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
    update: (part) =>
      s.tx
        .insert(ticketAttachments)
        .overridingSystemValue()
        .values(part)
        .onConflictDoUpdate({ target: ticketAttachments.id, ...onlyChanged(ticketAttachments, keys) }),
    insert: (part) =>
      s.tx.insert(ticketAttachments).values(part).returning({
        id: ticketAttachments.id,
        parent: ticketAttachments.commentId,
        ext: ticketAttachments.extId,
      }),
    remove: (ids) => s.tx.delete(ticketAttachments).where(inArray(ticketAttachments.id, ids)),
  });
}
