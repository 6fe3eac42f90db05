/**
 * Merging a duplicate ticket into another (issue 28 item 8; docs/staff.md "Merging tickets"). One
 * transaction holds both tickets, locked in row-id order, and everything the merge changes: the moved
 * comments, attachments and time entries, the followers, the source's close, the notes, the record an undo reads,
 * the customers' e-mails, the events and the audit row.
 */
import {
  MERGE_UNDO_HOURS,
  MERGED_FROM_MAX,
  staffMergeErrorCodes,
  ticketErrorCodes,
  type StaffMergeAnswer,
  type StaffMergeState,
} from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import { AppError, badRequest, notFound } from '../../platform/errors';
import { emitMergeEvents, emitTicketEvent, staffSource } from '../../platform/events';
import { insertAudit } from '../../platform/audit';
import { kickOutbox } from '../../platform/outbox';
import { refreshSlaClock, setChangeActor } from '../tickets/core';
import { queueMergeEmails } from './merge.mail';
import {
  activeMergeOfSource,
  activeMergesOf,
  closingStep,
  dropFollowers,
  insertMerge,
  joinFollowers,
  lockTickets,
  markUndone,
  mergeStateOf,
  moveBack,
  moveConversation,
  refreshActivity,
  setStep,
  writeMergeNotes,
  type MergeTicket,
} from './merge.queries';
import type { StaffPortalAccess } from './staff.access';

const UNDO_MS = MERGE_UNDO_HOURS * 3600_000;
const ticketNotFound = () => notFound('No such ticket in this portal', ticketErrorCodes.ticketNotFound);
const ref = (t: MergeTicket) => ({ id: t.extId, ticketNumber: t.ticketNumber, title: t.title });

export async function mergeTicket(
  ctx: AppContext,
  a: StaffPortalAccess,
  sourceExtId: number,
  targetExtId: number,
): Promise<StaffMergeAnswer> {
  if (sourceExtId === targetExtId)
    throw badRequest('A ticket cannot be merged into itself', staffMergeErrorCodes.mergeIntoItself);
  const portalId = a.portal.portalId;
  const now = ctx.clock.now();
  const answer = await ctx.database.db.transaction(async (tx) => {
    const locked = await lockTickets(tx, portalId, [sourceExtId, targetExtId]);
    const source = locked.find((t) => t.extId === sourceExtId);
    const target = locked.find((t) => t.extId === targetExtId);
    if (!source || !target) throw ticketNotFound();
    if ((await activeMergesOf(tx, [source.id, target.id])).length > 0)
      throw new AppError(
        409,
        staffMergeErrorCodes.ticketMerged,
        'One of the tickets is merged into another already',
      );
    if (source.companyId !== target.companyId)
      throw new AppError(
        409,
        staffMergeErrorCodes.mergeOtherCompany,
        "Tickets of different companies cannot be merged: one company's conversation would reach the other",
      );
    const actor = { kind: 'staff' as const, id: a.staffUserId, name: a.displayName };
    await setChangeActor(tx, actor, now);
    const moved = await moveConversation(tx, source.id, target.id);
    const followers = await joinFollowers(tx, source.id, target.id, now);
    await refreshActivity(tx, [source.id, target.id]);
    const closing = source.closed ? null : await closingStep(tx, portalId);
    if (closing !== null) await setStep(tx, source.id, closing);
    // The service-level clocks read the conversations and the close again: a close stops the source's.
    for (const id of [source.id, target.id]) await refreshSlaClock(tx, id);
    const mergeId = await insertMerge(tx, {
      portalId,
      sourceId: source.id,
      targetId: target.id,
      at: now,
      staffUserId: a.staffUserId,
      staffName: a.displayName,
      commentIds: moved.commentIds,
      attachmentIds: moved.attachmentIds,
      timeEntryIds: moved.timeEntryIds,
      followerUserIds: followers,
      sourceStepId: closing === null ? null : source.statusStepId,
    });
    await writeMergeNotes(tx, 'merged', {
      portalId,
      source,
      target,
      at: now,
      staffUserId: a.staffUserId,
      staffName: a.displayName,
    });
    const src = staffSource(a.staffUserId, a.displayName);
    if (closing !== null)
      await emitTicketEvent(tx, ctx, 'ticket.closed', source.id, src, source.statusStepId);
    await emitMergeEvents(tx, ctx, 'ticket.merged', mergeId, src);
    const counts = {
      comments: moved.commentIds.length,
      attachments: moved.attachmentIds.length,
      timeEntries: moved.timeEntryIds.length,
      followers: followers.length,
    };
    await insertAudit(tx, {
      portalId,
      occurredAt: now,
      actorType: 'staff',
      apiKeyId: null,
      staffUserId: a.staffUserId,
      entity: 'ticket',
      entityId: String(source.extId),
      action: 'merged',
      before: null,
      after: { targetTicketId: target.extId, moved: counts },
    });
    await queueMergeEmails(tx, ctx, source, target, now);
    return {
      source: ref(source),
      target: ref(target),
      moved: counts,
      mergedAt: now.toISOString(),
      undoUntil: new Date(now.getTime() + UNDO_MS).toISOString(),
      undoneAt: null,
    };
  });
  kickOutbox();
  return answer;
}

/**
 * Undoes the active merge of this source (a portal admin, the guard made sure), within
 * MERGE_UNDO_HOURS: moves back exactly the rows the merge recorded (those the target still holds),
 * removes the followers it added, puts the source back on its step before the merge.
 */
export async function undoMerge(
  ctx: AppContext,
  a: StaffPortalAccess,
  sourceExtId: number,
): Promise<StaffMergeAnswer> {
  const portalId = a.portal.portalId;
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    const first = await activeMergeOfSource(tx, portalId, sourceExtId);
    if (!first) {
      const exists = await lockTickets(tx, portalId, [sourceExtId]);
      if (exists.length === 0) throw ticketNotFound();
      throw new AppError(409, staffMergeErrorCodes.ticketNotMerged, 'This ticket is not merged into another');
    }
    const locked = await lockTickets(tx, portalId, [first.sourceExtId, first.targetExtId]);
    // Read again under the locks: another undo may have come first.
    const m = await activeMergeOfSource(tx, portalId, sourceExtId);
    const source = locked.find((t) => t.id === m?.sourceId);
    const target = locked.find((t) => t.id === m?.targetId);
    if (!m || !source || !target)
      throw new AppError(409, staffMergeErrorCodes.ticketNotMerged, 'This ticket is not merged into another');
    if (now.getTime() - m.mergedAt.getTime() > UNDO_MS)
      throw new AppError(
        409,
        staffMergeErrorCodes.mergeUndoExpired,
        `A merge can be undone within ${MERGE_UNDO_HOURS} hours only`,
      );
    if ((await activeMergesOf(tx, [target.id])).length > 0)
      throw new AppError(
        409,
        staffMergeErrorCodes.ticketMerged,
        'The target was merged into another ticket since: undo that merge first',
      );
    await setChangeActor(tx, { kind: 'staff', id: a.staffUserId, name: a.displayName }, now);
    await moveBack(tx, m);
    await dropFollowers(tx, target.id, m.followerUserIds);
    await refreshActivity(tx, [source.id, target.id]);
    await markUndone(tx, m.id, now, a.staffUserId);
    const src = staffSource(a.staffUserId, a.displayName);
    if (m.sourceStepId !== null && m.sourceStepId !== source.statusStepId) {
      await setStep(tx, source.id, m.sourceStepId);
      await emitTicketEvent(tx, ctx, 'ticket.reopened', source.id, src, source.statusStepId);
    }
    for (const id of [source.id, target.id]) await refreshSlaClock(tx, id);
    await writeMergeNotes(tx, 'undone', {
      portalId,
      source,
      target,
      at: now,
      staffUserId: a.staffUserId,
      staffName: a.displayName,
    });
    await emitMergeEvents(tx, ctx, 'ticket.merge_undone', m.id, src);
    const counts = {
      comments: m.commentIds.length,
      attachments: m.attachmentIds.length,
      timeEntries: m.timeEntryIds.length,
      followers: m.followerUserIds.length,
    };
    await insertAudit(tx, {
      portalId,
      occurredAt: now,
      actorType: 'staff',
      apiKeyId: null,
      staffUserId: a.staffUserId,
      entity: 'ticket',
      entityId: String(source.extId),
      action: 'merge_undone',
      before: { targetTicketId: target.extId, moved: counts },
      after: null,
    });
    return {
      source: ref(source),
      target: ref(target),
      moved: counts,
      mergedAt: m.mergedAt.toISOString(),
      undoUntil: new Date(m.mergedAt.getTime() + UNDO_MS).toISOString(),
      undoneAt: now.toISOString(),
    };
  });
}

export async function mergeState(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
): Promise<StaffMergeState> {
  const s = await mergeStateOf(ctx.database.db, a.portal.portalId, ticketExtId, MERGED_FROM_MAX);
  if (!s) throw ticketNotFound();
  const now = ctx.clock.now().getTime();
  const tref = (x: { id: number; num: string; title: string }) => ({
    id: Number(x.id),
    ticketNumber: x.num,
    title: x.title,
  });
  return {
    mergedInto: s.into && {
      ticket: tref(s.into),
      mergedAt: s.into.at,
      mergedBy: s.into.by,
      undoUntil: new Date(Date.parse(s.into.at) + UNDO_MS).toISOString(),
      canUndo: a.portal.role === 'admin' && now - Date.parse(s.into.at) <= UNDO_MS,
    },
    mergedFrom: s.from.map((f) => ({ ticket: tref(f), mergedAt: f.at, mergedBy: f.by })),
  };
}
