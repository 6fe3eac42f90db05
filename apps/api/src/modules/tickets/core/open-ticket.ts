/**
 * A ticket a contact opens, on the portal or by e-mail (issue 26): the one place such a ticket is
 * written, in one transaction with what follows from it: its attachments, the `ticket.created` event and
 * its webhooks, the staff notices and the customer's confirmation e-mail (through the outbox).
 */
import { ticketErrorCodes } from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { tickets } from '../../../db/schema';
import type { AppContext } from '../../../platform/context';
import { badRequest } from '../../../platform/errors';
import { contactSource, emitTicketEvent } from '../../../platform/events';
import { reserveExtIds } from '../../../platform/portal-sequences';
import { queryRows } from '../../../platform/sql-json';
import { queueStaffNotices } from './staff-notify';
import { portalTicketNumber } from '../../../platform/ticket-numbers';
import { insertAttachments } from './conversation';
import { refreshSlaClock } from './sla-clock';
import { queueTicketReceivedEmail } from './ticket-received-mail';
import { claimFiles, type FileOwner } from './write-comment.queries';

export interface OpenTicketInput {
  portalId: number;
  companyId: number;
  contactId: number;
  contactExtId: number;
  /** The portal's, for the yearly ticket number. */
  timeZone: string;
  title: string;
  /** Sanitised HTML, not blank (the caller's rule). */
  description: string;
  typeId: number;
  statusStepId: number;
  wikiElementId: number | null;
  /** The contact's unattached uploads, in the order shown. */
  attachmentIds: number[];
  /** Who gets the confirmation: the portal user who opened it, or the address whose e-mail did. */
  confirmTo: Parameters<typeof queueTicketReceivedEmail>[2];
  now: Date;
}

/** Opens the ticket inside the caller's transaction; the caller calls `kickOutbox()` once committed. */
export async function openTicketIn(
  tx: Tx,
  ctx: AppContext,
  input: OpenTicketInput,
): Promise<{ id: number; extId: number }> {
  const { portalId, now } = input;
  const extId = await reserveExtIds(tx, portalId, 'ticket_seq');
  const [row] = await tx
    .insert(tickets)
    .values({
      portalId,
      companyId: input.companyId,
      extId,
      title: input.title,
      description: input.description,
      ...(await portalTicketNumber(tx, portalId, now, input.timeZone)),
      createdOn: now,
      typeId: input.typeId,
      statusStepId: input.statusStepId,
      creatorContactId: input.contactId,
      wikiElementId: input.wikiElementId,
    })
    .returning({ id: tickets.id });
  const ticketId = row!.id;
  await refreshSlaClock(tx, ticketId);
  await attachUploads(tx, {
    portalId,
    ticketId,
    owner: { contactId: input.contactId },
    ids: input.attachmentIds,
    now,
  });
  await emitTicketEvent(tx, ctx, 'ticket.created', ticketId, contactSource(input));
  await queueStaffNotices(tx, ctx, 'new_ticket', ticketId, null, now);
  // The customer's own confirmation, in their language (issue 29).
  await queueTicketReceivedEmail(tx, ctx, input.confirmTo, ticketId, now);
  return { id: ticketId, extId };
}

/**
 * What a ticket an agent opened on the desk for a contact (a customer who phoned; issue 28 item 12) gets
 * beyond the entity service's row, in its transaction: the agent named as who opened it, the agent's
 * uploads attached in the order chosen, and the contact's confirmation e-mail naming the agent.
 */
export async function completeDeskTicketIn(
  tx: Tx,
  ctx: AppContext,
  p: {
    portalId: number;
    ticketId: number;
    staffUserId: number;
    agentName: string;
    attachmentIds: number[];
    now: Date;
  },
): Promise<void> {
  await tx.execute(
    sql`update tickets set opened_by_staff_id = ${p.staffUserId}::int where id = ${p.ticketId}::int`,
  );
  await attachUploads(tx, {
    portalId: p.portalId,
    ticketId: p.ticketId,
    owner: { staffUserId: p.staffUserId },
    ids: p.attachmentIds,
    now: p.now,
  });
  await queueTicketReceivedEmail(tx, ctx, { openedBy: p.agentName }, p.ticketId, p.now);
}

/**
 * What a ticket opened by e-mail gets that the portal's form asks for: the portal's first ticket type
 * (lowest back-office id; staff change it), its default step and its time zone. Null: the portal has no
 * type or no step for new tickets.
 */
export async function emailTicketDefaults(
  tx: Tx,
  portalId: number,
): Promise<{ typeId: number; statusStepId: number; timeZone: string } | null> {
  const [r] = await queryRows<{ type_id: number | null; step_id: number | null; time_zone: string }>(
    tx,
    sql`select
      (select id from ticket_types where portal_id = p.id order by ext_id limit 1) as type_id,
      (select id from status_steps where portal_id = p.id and is_default order by ext_id limit 1) as step_id,
      p.time_zone
      from portals p where p.id = ${portalId}::int`,
  );
  if (!r || r.type_id === null || r.step_id === null) return null;
  return { typeId: Number(r.type_id), statusStepId: Number(r.step_id), timeZone: r.time_zone };
}

/** The uploader's unattached files become the new ticket's own attachments, in the order chosen. */
async function attachUploads(
  tx: Tx,
  p: { portalId: number; ticketId: number; owner: FileOwner; ids: number[]; now: Date },
): Promise<void> {
  const taken = await claimFiles(tx, { portalId: p.portalId, owner: p.owner, fileIds: p.ids, now: p.now });
  if (taken.length !== p.ids.length)
    throw badRequest(
      'An attachment is not one of your uploads, or is already attached',
      ticketErrorCodes.attachmentUnavailable,
    );
  const byId = new Map(taken.map((f) => [f.id, f]));
  await insertAttachments(tx, {
    portalId: p.portalId,
    ticketId: p.ticketId,
    commentId: null,
    files: p.ids.map((id) => byId.get(id)!),
  });
}
