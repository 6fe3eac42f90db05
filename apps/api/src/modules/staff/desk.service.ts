/**
 * What agents do on a ticket (issue 13): replies and internal notes, changes of step, type, assignee,
 * group and next planned activity, read marks, presence, uploads; and the desk's own data (options,
 * members and their groups, preferences, unread counts). Every write is one transaction holding its
 * events, e-mails and timeline rows.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  INBOX_COUNT_CAP,
  PRESENCE_TTL_S,
  staffErrorCodes,
  ticketErrorCodes,
  type PresenceAnswer,
  type StaffComment,
  type StaffMember,
  type StaffOptions,
  type StaffPreferences,
  type StaffTicketDetail,
  type StaffBulkAnswer,
  type StaffBulkRequest,
  type StaffTicketUpdate,
  TICKET_TAGS_MAX,
  type UnreadAnswer,
  type UploadResult,
  type staffCommentRequestSchema,
} from '@sportello/contracts';
import type { z } from 'zod';
import type { Tx } from '../../db/client';
import { tickets } from '../../db/schema';
import type { AppContext } from '../../platform/context';
import { deskSignalOf } from '../../platform/event-signal';
import { emitTicketEvent, staffSource } from '../../platform/events';
import { AppError, badRequest, notFound } from '../../platform/errors';
import { queryRows } from '../../platform/sql-json';
import {
  lockTicket,
  markStaffRead,
  noticeAssignment,
  refreshSlaClock,
  setChangeActor,
  writeComment,
  writeCommentIn,
} from '../tickets/core';
import { kickOutbox } from '../../platform/outbox';
import { logTimeIn } from './time.service';
import { receiveUpload } from '../../platform/uploads';
import { sql } from 'drizzle-orm';
import { PRIORITY_NAMES, staffCommentsJson, type RawStaffDetail } from './inbox.queries';
import { countViews, scopeOf, staffSigner, staffTicket } from './inbox.service';
import { deskCachesOf } from './desk-cache';
import type { StaffAccess, StaffPortalAccess } from './staff.access';
import {
  closingStepId,
  countUnread,
  groupIdsOf,
  lastActivityOf,
  tagNamesOf,
  heartbeat,
  listMembers,
  markUnread,
  portalOptions,
  portalTicketId,
  readPreferences,
  replaceGroups,
  replaceTicketTags,
  resolveRefs,
  writePreferences,
} from './desk.queries';

type CommentRequest = z.output<typeof staffCommentRequestSchema>;

const ticketNotFound = () => notFound('No such ticket in this portal', ticketErrorCodes.ticketNotFound);
const unknownRef = (what: string) =>
  badRequest(`${what} is not one of this portal's`, staffErrorCodes.unknownReference);

/**
 * A public reply or an internal note, written by writeComment: a reply emits `agent.comment_added`
 * (source staff) and e-mails the customer, and the insert trigger of migration 0008 makes the ticket
 * wait for the customer; a note reaches no customer, e-mail nor event. The author has read their own
 * comment.
 */
export async function addStaffComment(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
  body: CommentRequest,
): Promise<StaffComment> {
  const input = {
    portalId: a.portal.portalId,
    ticketExtId,
    channel: 'desk' as const,
    author: { kind: 'staff' as const, staffUserId: a.staffUserId, displayName: a.displayName },
    message: body.message,
    internal: body.internal,
    attachments: body.attachments.map((fileId) => ({ fileId })),
  };
  const time = body.time;
  // Time spent on it (issue 28 item 11) is logged in the comment's own transaction.
  const { id: commentId } = time
    ? await ctx.database.db
        .transaction(async (tx) => {
          const written = await writeCommentIn(tx, ctx, input);
          await logTimeIn(tx, ctx, a, written.ticketId, { ...time, commentId: written.id });
          return written;
        })
        .finally(() => {
          if (!body.internal) kickOutbox();
        })
    : await writeComment(ctx, input);
  return staffCommentAnswer(ctx, commentId);
}

/** A comment as the desk shows it, its files signed. */
export async function staffCommentAnswer(ctx: AppContext, commentId: number): Promise<StaffComment> {
  const rows = await queryRows<{ items: RawStaffDetail['comments'] | string }>(
    ctx.database.db,
    sql`with wanted as (select ${commentId}::int as id)
      select ${sql.raw(staffCommentsJson('cm.id = (select id from wanted)'))} as items`,
  );
  const raw = rows[0]!.items;
  const c = (typeof raw === 'string' ? JSON.parse(raw) : raw) as RawStaffDetail['comments'];
  const sign = staffSigner(ctx);
  return {
    ...c[0]!,
    attachments: c[0]!.attachments.map(sign),
    originalEmail: c[0]!.originalEmail && sign(c[0]!.originalEmail).url,
  };
}

/**
 * Changes step, type, assignee, group and next planned activity in one transaction: the timeline
 * trigger records each change with the caller as its author; moving into a closing step emits
 * `ticket.closed`, out of one `ticket.reopened`, as the customer's own close and reopen do.
 */
export async function updateStaffTicket(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
  body: StaffTicketUpdate,
): Promise<StaffTicketDetail> {
  if (Object.values(body).every((v) => v === undefined))
    throw badRequest('Nothing to change', staffErrorCodes.nothingToChange);
  await ctx.database.db.transaction(async (tx) => {
    const ticket = await lockTicket(tx, a.portal.portalId, ticketExtId, null);
    if (!ticket) throw ticketNotFound();
    await changeTicket(tx, ctx, a, ticket, body, false);
  });
  // An assignment's e-mail (and the events) leave now rather than at the outbox's next round.
  kickOutbox();
  return staffTicket(ctx, a, ticketExtId, { markRead: false });
}

/**
 * One ticket's change inside the caller's transaction, the ticket locked. The step's move into or out
 * of a closing step emits `ticket.closed` / `ticket.reopened`; `alwaysEmit` (a bulk change, one event
 * per ticket) emits `ticket.updated` for any other change.
 */
export async function changeTicket(
  tx: Tx,
  ctx: AppContext,
  a: StaffPortalAccess,
  ticket: NonNullable<Awaited<ReturnType<typeof lockTicket>>>,
  body: StaffTicketUpdate,
  alwaysEmit: boolean,
): Promise<void> {
  const portalId = a.portal.portalId;
  const now = ctx.clock.now();
  const refs = await resolveRefs(tx, portalId, {
    ...(body.stepId !== undefined && { step: body.stepId }),
    ...(body.typeId !== undefined && { type: body.typeId }),
    ...(typeof body.groupId === 'number' && { group: body.groupId }),
    ...(typeof body.assigneeId === 'number' && { agent: body.assigneeId }),
  });
  if (body.stepId !== undefined && refs.stepId === null) throw unknownRef('The step');
  if (body.typeId !== undefined && refs.typeId === null) throw unknownRef('The type');
  if (typeof body.groupId === 'number' && refs.groupId === null) throw unknownRef('The group');
  if (typeof body.assigneeId === 'number' && refs.agentId === null) throw unknownRef('The agent');
  const next = body.nextPlannedActivityInfo;
  const set: Partial<typeof tickets.$inferInsert> = {
    ...(body.priority !== undefined && { priority: PRIORITY_NAMES.indexOf(body.priority) }),
    ...(body.dueAt !== undefined && { dueAt: body.dueAt === null ? null : new Date(body.dueAt) }),
    ...(refs.stepId !== null && { statusStepId: refs.stepId }),
    ...(refs.typeId !== null && { typeId: refs.typeId }),
    ...(body.groupId !== undefined && { assignedGroupId: refs.groupId }),
    ...(body.assigneeId !== undefined && { assignedUserId: refs.agentId }),
    ...(next !== undefined && {
      nextPlannedActivityInfo: next === null || next.trim() === '' ? null : next.trim(),
    }),
  };
  await setChangeActor(tx, { kind: 'staff', id: a.staffUserId, name: a.displayName }, now);
  // The agent it was given to hears of it (the bell, an e-mail): read before the change.
  const previousAgent =
    body.assigneeId === undefined
      ? undefined
      : (
          await queryRows<{ a: number | null }>(
            tx,
            sql`select assigned_user_id as a from tickets where id = ${ticket.id}`,
          )
        )[0]!.a;
  if (Object.keys(set).length > 0)
    await tx
      .update(tickets)
      .set(set)
      .where(sql`${tickets.id} = ${ticket.id}`);
  if (body.tags !== undefined) await replaceTicketTags(tx, portalId, ticket.id, body.tags);
  if (previousAgent !== undefined)
    await noticeAssignment(
      tx,
      ctx,
      ticket.id,
      refs.agentId,
      previousAgent === null ? null : Number(previousAgent),
      { staffUserId: a.staffUserId, name: a.displayName },
      now,
    );
  // The targets follow the priority; a close stops the clock, a reopen starts it again.
  if (set.priority !== undefined || set.statusStepId !== undefined) await refreshSlaClock(tx, ticket.id);
  const source = staffSource(a.staffUserId, a.displayName);
  if (refs.stepId !== null && refs.stepId !== ticket.statusStepId && refs.stepClosed !== ticket.closed) {
    const type = refs.stepClosed ? 'ticket.closed' : 'ticket.reopened';
    await emitTicketEvent(tx, ctx, type, ticket.id, source, ticket.statusStepId);
  } else if (alwaysEmit) {
    await emitTicketEvent(tx, ctx, 'ticket.updated', ticket.id, source, ticket.statusStepId);
  }
}

/**
 * The inbox's bulk action (issue 28 item 7): the same change of each ticket, each in a transaction of
 * its own with its own event, so one refusal leaves the others done. A ticket whose last activity is
 * not the one the agent saw (`seen`) changed meanwhile and is left alone; the answer says, per
 * ticket, what was done or why not.
 */
export async function bulkChange(
  ctx: AppContext,
  a: StaffPortalAccess,
  body: StaffBulkRequest,
): Promise<StaffBulkAnswer> {
  const { close, addTags, removeTags, ...rest } = body.change;
  const change: StaffTicketUpdate = { ...rest };
  if (close) {
    const closing = await closingStepId(ctx.database.db, a.portal.portalId);
    if (closing === null)
      throw badRequest('The portal has no closing status', staffErrorCodes.unknownReference);
    change.stepId = closing;
  }
  if (Object.values(change).every((v) => v === undefined) && !addTags?.length && !removeTags?.length)
    throw badRequest('Nothing to change', staffErrorCodes.nothingToChange);
  const results: StaffBulkAnswer['results'] = [];
  for (const item of body.tickets) {
    try {
      await ctx.database.db.transaction(async (tx) => {
        const ticket = await lockTicket(tx, a.portal.portalId, item.id, null);
        if (!ticket) throw ticketNotFound();
        const seen = await lastActivityOf(tx, ticket.id);
        if (item.seen !== undefined && Date.parse(item.seen) !== Date.parse(seen))
          throw new AppError(
            409,
            staffErrorCodes.changedMeanwhile,
            'The ticket changed since the list was read: open it and look again',
          );
        let tags = change.tags;
        if (addTags?.length || removeTags?.length) {
          const now = await tagNamesOf(tx, ticket.id);
          const drop = new Set((removeTags ?? []).map((n) => n.trim().toLowerCase()));
          tags = [...now, ...(addTags ?? [])].filter((n) => !drop.has(n.trim().toLowerCase()));
          if (new Set(tags.map((n) => n.toLowerCase())).size > TICKET_TAGS_MAX)
            throw badRequest(`A ticket has at most ${TICKET_TAGS_MAX} tags`);
        }
        await changeTicket(tx, ctx, a, ticket, { ...change, ...(tags !== undefined && { tags }) }, true);
      });
      results.push({ id: item.id, ok: true });
    } catch (e) {
      if (!(e instanceof AppError) || e.statusCode >= 500) throw e;
      results.push({ id: item.id, ok: false, code: e.code, message: e.message });
    }
  }
  kickOutbox();
  return { done: results.filter((r) => r.ok).length, failed: results.filter((r) => !r.ok).length, results };
}

export async function setTicketRead(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
  read: boolean,
): Promise<void> {
  const db = ctx.database.db;
  const id = await portalTicketId(db, a.portal.portalId, ticketExtId);
  if (id === undefined) throw ticketNotFound();
  if (read) await markStaffRead(db, a.staffUserId, id, ctx.clock.now());
  else await markUnread(db, a.staffUserId, id);
}

export async function presence(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
  state: 'viewing' | 'replying' | 'left',
): Promise<PresenceAnswer> {
  const db = ctx.database.db;
  const id = await portalTicketId(db, a.portal.portalId, ticketExtId);
  if (id === undefined) throw ticketNotFound();
  const others = await db.transaction((tx) =>
    heartbeat(tx, {
      ticketId: id,
      staffUserId: a.staffUserId,
      state: state === 'left' ? null : state,
      now: ctx.clock.now(),
      ttlS: PRESENCE_TTL_S,
    }),
  );
  return { others };
}

/** A file for a reply or note, owned by the staff user until a comment of theirs attaches it. */
export async function staffUpload(
  req: FastifyRequest,
  ctx: AppContext,
  a: StaffPortalAccess,
): Promise<UploadResult> {
  const file = await receiveUpload(
    req,
    ctx,
    { portalId: a.portal.portalId, staffUserId: a.staffUserId },
    async (_tx, f) => f,
  );
  return { id: file.id, url: staffSigner(ctx)({ id: file.id, name: file.name, fileId: file.id }).url };
}

export async function options(ctx: AppContext, a: StaffPortalAccess): Promise<StaffOptions> {
  return portalOptions(ctx.database.db, a.portal.portalId, a.staffUserId);
}

export async function members(ctx: AppContext, a: StaffPortalAccess): Promise<StaffMember[]> {
  return listMembers(ctx.database.db, a.portal.portalId);
}

/** Sets a member's assignee groups of this portal (admins): "My groups" and group notifications. */
export async function setMemberGroups(
  ctx: AppContext,
  a: StaffPortalAccess,
  staffUserId: number,
  groupExtIds: number[],
): Promise<StaffMember> {
  const portalId = a.portal.portalId;
  const db = ctx.database.db;
  const wanted = [...new Set(groupExtIds)];
  return db.transaction(async (tx) => {
    const [member] = await listMembers(tx, portalId, staffUserId);
    if (!member) throw notFound('No staff member of this portal with this id', staffErrorCodes.staffNotFound);
    const ids = await groupIdsOf(tx, portalId, wanted);
    if (ids.length !== wanted.length) throw unknownRef('A group');
    await replaceGroups(tx, portalId, staffUserId, ids);
    return (await listMembers(tx, portalId, staffUserId))[0]!;
  });
}

export async function preferences(ctx: AppContext, a: StaffAccess): Promise<StaffPreferences> {
  return readPreferences(ctx.database.db, a.staffUserId);
}

export async function setPreferences(
  ctx: AppContext,
  a: StaffAccess,
  p: Partial<StaffPreferences>,
): Promise<StaffPreferences> {
  await writePreferences(ctx.database.db, a.staffUserId, p, ctx.clock.now());
  return readPreferences(ctx.database.db, a.staffUserId);
}

/** How often a waiting unread request counts again without a notification (PGlite, a lost NOTIFY). */
const UNREAD_POLL_MS = 2000;
/**
 * At most one count per waiting request in this time, however many changes wake it: on a busy
 * installation every commit to tickets NOTIFYs, and each waiting agent would count again each time.
 */
const UNREAD_MIN_GAP_MS = 1000;

async function unreadNow(ctx: AppContext, a: StaffPortalAccess): Promise<UnreadAnswer> {
  const scope = scopeOf(a, ctx.clock.now());
  const db = ctx.database.db;
  const [unread, counts] = await Promise.all([
    deskCachesOf(ctx.database).counts.get(`unread:${scope.portalId}:${scope.staffUserId}`, () =>
      countUnread(db, scope),
    ),
    countViews(ctx, scope),
  ]);
  const version = createHash('sha256')
    .update(JSON.stringify([unread, counts]))
    .digest('base64url')
    .slice(0, 22);
  return { unread, counts, countCap: INBOX_COUNT_CAP, version };
}

/**
 * The caller's unread counts. With `since` (the version the desk holds) and `wait`, the answer waits
 * until the counts differ from that version: woken by the desk's NOTIFY (migration 0009) on
 * PostgreSQL, and counting again every UNREAD_POLL_MS anyway (the embedded database, a lost
 * notification). The request holds no connection while it waits.
 */
export async function unread(
  ctx: AppContext,
  a: StaffPortalAccess,
  q: { since?: string | undefined; wait: number },
  closed: () => boolean = () => false,
): Promise<UnreadAnswer> {
  const deadline = Date.now() + q.wait * 1000;
  const signal = deskSignalOf(ctx.database);
  for (;;) {
    const counted = Date.now();
    const answer = await unreadNow(ctx, a);
    const left = deadline - Date.now();
    if (q.since === undefined || answer.version !== q.since || left <= 0 || closed()) return answer;
    await signal.wait(Math.min(left, UNREAD_POLL_MS));
    const gap = counted + UNREAD_MIN_GAP_MS - Date.now();
    if (gap > 0) await new Promise((r) => setTimeout(r, Math.min(gap, Math.max(0, deadline - Date.now()))));
  }
}
