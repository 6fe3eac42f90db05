/**
 * Rules of the tickets area: who reaches which ticket, what a new ticket or comment needs, and the
 * mapping of query rows to the A3 answer shapes (file references become signed URLs here).
 */
import {
  REQUIRED_FIELDS_MESSAGE,
  ticketErrorCodes,
  type AllTicketsQuery,
  type Attachment,
  type NewCommentRequest,
  type NewTicketRequest,
  type TicketComment,
  type TicketDetail,
  type TicketListItem,
  type TicketListQuery,
  type TicketFollowers,
  type TicketRating,
  type TicketRatingRequest,
  ticketListSchema,
} from '@sportello/contracts';
import { AnswerCache } from '../../platform/answer-cache';
import type { AppContext } from '../../platform/context';
import { parseDateRange } from '../../platform/date-range';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors';
import { contactSource, emitRatingEvent, emitTicketEvent } from '../../platform/events';
import {
  isBlankHtml,
  markActor,
  openTicketIn,
  queueLowRatingNotices,
  refuseMergedTicket,
  reopenTicketIfClosed,
  setChangeActor,
  stripNul,
  ticketScope,
  type TicketScope,
  userHtml,
  writeComment,
} from './core';
import { kickOutbox } from '../../platform/outbox';
import type { TenantContext } from '../../platform/tenancy';
import { lockTicket, setTicketStep } from './core/write-comment.queries';
import {
  closingStepId,
  findTicketId,
  listFollowers,
  listUnreadTickets,
  markTicketRead,
  replaceFollowers,
  upsertRating,
  getComment,
  getTicketDetail,
  listColleagues,
  listTickets,
  resolveNewTicketRefs,
  type RawAttachment,
  type RawComment,
  type RawTicketDetail,
  type RawTicketItem,
  type TicketFilters,
} from './tickets.queries';

const ticketNotFound = () =>
  notFound('No such ticket among those you may open', ticketErrorCodes.ticketNotFound);

export { ticketScope };

type Signer = (fileId: number, name: string) => string;
/**
 * Links in a detail are bound to the reader's session and contact. A cached list is shared by every
 * reader of the same scope, so its links cannot be bound: they live one hour (the cache keeps an
 * answer ten minutes) instead of six.
 */
const signerOf =
  (ctx: AppContext, t: TenantContext | 'shared'): Signer =>
  (fileId, name) =>
    ctx.signer.sign(
      fileId,
      name,
      ctx.clock.now(),
      t === 'shared' ? { ttlSeconds: SHARED_LINK_TTL_S } : { bind: t },
    );
const SHARED_LINK_TTL_S = 3600;

const mapAttachment = (sign: Signer, a: RawAttachment): Attachment => ({
  id: a.id,
  name: a.name,
  url: sign(a.fileId, a.name),
});

function mapItem(sign: Signer, r: RawTicketItem): TicketListItem {
  return {
    id: r.id,
    title: r.title,
    ticketNumber: r.ticketNumber,
    internalAnnualProgressive: r.internalAnnualProgressive,
    createdOn: r.createdOn,
    taskType: { id: r.taskType.id, name: r.taskType.name, names: r.taskType.names, color: r.taskType.color },
    taskStatus: {
      step: {
        id: r.taskStatus.step.id,
        name: r.taskStatus.step.name,
        names: r.taskStatus.step.names,
        taskStatus: r.taskStatus.step.taskStatus,
      },
    },
    nextPlannedActivityInfo: r.nextPlannedActivityInfo,
    creatorContactWebUser: r.creatorContactWebUser && {
      contactId: r.creatorContactWebUser.contactId,
      referentName: r.creatorContactWebUser.referentName,
      companyName: r.creatorContactWebUser.companyName,
    },
    activityReport: r.activityReport && {
      id: r.activityReport.id,
      name: r.activityReport.name,
      dateTime: r.activityReport.dateTime,
      documentUrl: sign(r.activityReport.fileId, r.activityReport.fileName),
    },
    wikiElement: r.wikiElement && {
      id: r.wikiElement.id,
      name: r.wikiElement.name,
      folderName: r.wikiElement.folderName,
    },
    waitingOnCustomer: r.waitingOnCustomer,
    lastActivityAt: r.lastActivityAt,
  };
}

function mapComment(sign: Signer, c: RawComment): TicketComment {
  const sender = c.senderContact;
  const agent = c.agent;
  return {
    id: c.id,
    message: c.message,
    creationDate: c.creationDate,
    senderContactWebUser: sender && {
      webUser:
        sender.userId !== null && sender.userName !== null
          ? { id: sender.userId, userName: sender.userName }
          : null,
      referentName: sender.referentName,
    },
    senderUser: agent && {
      displayName: agent.displayName,
      hasProfileImage: agent.fileId !== null,
      profileImage: agent.fileId !== null ? sign(agent.fileId, agent.fileName ?? 'profile') : null,
    },
    attachments: c.attachments.map((a) => mapAttachment(sign, a)),
    channel: c.channel,
  };
}

function mapDetail(sign: Signer, r: RawTicketDetail): TicketDetail {
  return {
    ...mapItem(sign, r),
    description: r.description,
    openedBy: r.openedBy,
    attachments: r.attachments.map((a) => mapAttachment(sign, a)),
    assignedGroup: r.assignedGroup && { name: r.assignedGroup.name },
    assignedUser: r.assignedUser && {
      firstName: r.assignedUser.firstName,
      lastName: r.assignedUser.lastName,
    },
    isClosed: r.taskStatus.step.taskStatus === 2,
    comments: r.comments.map((c) => mapComment(sign, c)),
    timeline: r.timeline,
    rating: r.rating && { rating: r.rating.rating, comment: r.rating.comment, ratedAt: r.rating.ratedAt },
    // Only a detail read says whether the ticket was merged (a new ticket's answer never is).
    ...(r.mergedInto !== undefined && {
      mergedInto: r.mergedInto && {
        id: Number(r.mergedInto.id),
        ticketNumber: r.mergedInto.ticketNumber,
        reachable: r.mergedInto.reachable,
      },
    }),
  };
}

function wikiFilterOf(t: TenantContext, wikiFilter: number | undefined): number | null {
  if (wikiFilter === undefined) return null;
  // The wiki search box exists only with viewContactWiki (A6); the filter follows it.
  if (!t.flags.viewContactWiki)
    throw forbidden('This contact lacks the viewContactWiki permission', 'missing_permission');
  return wikiFilter;
}

/** Each process's cache of serialised lists (AnswerCache: reused while the company's counter stands). */
const listCaches = new WeakMap<AppContext, { mb: number; cache: AnswerCache }>();
const LIST_CACHE_TTL_MS = 10 * 60_000;

function listCacheOf(ctx: AppContext): AnswerCache {
  const mb = ctx.config.LIST_CACHE_MB;
  let c = listCaches.get(ctx);
  // A changed budget (the benchmark turns the cache off and on) starts an empty cache.
  if (!c || c.mb !== mb) {
    c = { mb, cache: new AnswerCache({ maxBytes: mb * 1024 * 1024, ttlMs: LIST_CACHE_TTL_MS }) };
    listCaches.set(ctx, c);
  }
  return c.cache;
}

/**
 * A ticket list as JSON text. The answer depends only on the scope, the filters and rows covered by the
 * company's list counter (see migration 0001), so it is reused while `t.listVersion` is unchanged. The
 * colleague filter also depends on who holds which contact, which the counter does not follow: those
 * lists are always read afresh.
 */
async function listJson(ctx: AppContext, t: TenantContext, scope: TicketScope, f: TicketFilters) {
  const cache = listCacheOf(ctx);
  const key =
    cache.enabled && f.webUserIds === null
      ? JSON.stringify([scope, f.from?.toISOString(), f.toExclusive?.toISOString(), f.wikiElementExtId])
      : null;
  const now = ctx.clock.now().getTime();
  const hit = key === null ? undefined : cache.get(key, t.listVersion, now);
  if (hit !== undefined) return hit;
  const rows = await listTickets(ctx.database.db, scope, f);
  const sign = signerOf(ctx, 'shared');
  const body = JSON.stringify(ticketListSchema.parse(rows.map((r) => mapItem(sign, r))));
  if (key !== null) cache.set(key, t.listVersion, body, now);
  return body;
}

/** My tickets, as JSON text (see listJson). */
export async function myTickets(ctx: AppContext, t: TenantContext, q: TicketListQuery): Promise<string> {
  const range = parseDateRange(q, t.timeZone);
  // An administrator's own list too: created by this contact, or followed by this user.
  const scope = { ...ticketScope(t), creatorContactId: t.contactId, followerUserId: t.userId };
  return listJson(ctx, t, scope, {
    ...range,
    wikiElementExtId: wikiFilterOf(t, q.wikiFilter),
    webUserIds: null,
  });
}

/** All tickets of the company, as JSON text (see listJson). */
export async function allTickets(ctx: AppContext, t: TenantContext, q: AllTicketsQuery): Promise<string> {
  const range = parseDateRange(q, t.timeZone);
  const webUserIds = q.webUserIds ? [...new Set(q.webUserIds.split(',').map((s) => Number(s.trim())))] : null;
  if (webUserIds?.some((n) => !Number.isSafeInteger(n) || n > 2_147_483_647))
    throw badRequest('webUserIds: not a list of user ids', 'invalid_web_user_ids');
  return listJson(ctx, t, ticketScope(t, { all: true }), {
    ...range,
    wikiElementExtId: wikiFilterOf(t, q.wikiFilter),
    webUserIds,
  });
}

export async function ticketDetail(
  ctx: AppContext,
  t: TenantContext,
  ticketExtId: number,
): Promise<TicketDetail> {
  const row = await getTicketDetail(ctx.database.db, ticketScope(t), ticketExtId);
  if (!row) throw ticketNotFound();
  return mapDetail(signerOf(ctx, t), row);
}

function checkAttachmentIds(ids: number[] | undefined): number[] {
  const list = ids ?? [];
  if (new Set(list).size !== list.length)
    throw badRequest('An attachment is listed twice', ticketErrorCodes.attachmentUnavailable);
  return list;
}

export async function createTicket(
  ctx: AppContext,
  t: TenantContext,
  body: NewTicketRequest,
): Promise<TicketDetail> {
  const title = stripNul(body.title).trim();
  const description = userHtml(body.description);
  if (title === '' || body.taskTypeId === null || isBlankHtml(description))
    throw badRequest(REQUIRED_FIELDS_MESSAGE, ticketErrorCodes.requiredFields);
  const wikiExtId = body.wikiElementId ?? null;
  if (wikiExtId !== null && !t.flags.viewContactWiki)
    throw forbidden('This contact lacks the viewContactWiki permission', 'missing_permission');
  const attachmentIds = checkAttachmentIds(body.attachments);

  const db = ctx.database.db;
  const refs = await resolveNewTicketRefs(db, {
    portalId: t.portalId,
    companyId: t.companyId,
    typeExtId: body.taskTypeId,
    wikiExtId,
  });
  if (refs.typeId === null) throw badRequest('Unknown ticket type', ticketErrorCodes.unknownTicketType);
  if (wikiExtId !== null && refs.wikiId === null)
    throw badRequest('Unknown wiki element', ticketErrorCodes.unknownWikiElement);
  if (refs.defaultStepId === null)
    throw new AppError(409, 'no_default_step', 'The portal has no status step for new tickets');

  const now = ctx.clock.now();
  const extId = await db.transaction(async (tx) => {
    const opened = await openTicketIn(tx, ctx, {
      portalId: t.portalId,
      companyId: t.companyId,
      contactId: t.contactId,
      contactExtId: t.contactExtId,
      timeZone: t.timeZone,
      title,
      description,
      typeId: refs.typeId!,
      statusStepId: refs.defaultStepId!,
      wikiElementId: refs.wikiId,
      attachmentIds,
      confirmTo: { userId: t.userId },
      now,
    });
    return opened.extId;
  });
  kickOutbox();
  return ticketDetail(ctx, t, extId);
}

/** A contact's reply from the portal (see writeComment: reopen, event, agents' e-mails). */
export async function addComment(
  ctx: AppContext,
  t: TenantContext,
  body: NewCommentRequest,
): Promise<TicketComment> {
  const written = await writeComment(ctx, {
    portalId: t.portalId,
    ticketExtId: body.taskId,
    channel: 'portal',
    author: {
      kind: 'contact',
      contactId: t.contactId,
      contactExtId: t.contactExtId,
      userId: t.userId,
      scope: ticketScope(t),
    },
    message: body.message,
    attachments: (body.attachments ?? []).map((fileId) => ({ fileId })),
  });
  const row = await getComment(ctx.database.db, written.id);
  return mapComment(signerOf(ctx, t), row!);
}

/** Moves the ticket to the portal's closing step; closing a closed ticket changes nothing. */
export async function closeTicket(
  ctx: AppContext,
  t: TenantContext,
  ticketExtId: number,
): Promise<TicketDetail> {
  await ctx.database.db.transaction(async (tx) => {
    await markActor(tx, t.userId); // closing is not news to whoever closed
    const ticket = await lockTicket(tx, t.portalId, ticketExtId, ticketScope(t));
    if (!ticket) throw ticketNotFound();
    await refuseMergedTicket(tx, ticket.id, 'close');
    const step = await closingStepId(tx, t.portalId);
    if (step === null)
      throw new AppError(409, ticketErrorCodes.noClosingStep, 'The portal has no closing step');
    if (ticket.statusStepId === step) return;
    await setChangeActor(tx, { kind: 'contact', id: t.contactId }, ctx.clock.now());
    await setTicketStep(tx, ticket.id, step);
    await emitTicketEvent(tx, ctx, 'ticket.closed', ticket.id, contactSource(t), ticket.statusStepId);
  });
  return ticketDetail(ctx, t, ticketExtId);
}

/**
 * Reopens a closed ticket: back to the portal's default step, with a `ticket.reopened` event. Reopening
 * an open ticket changes nothing (as closing a closed one).
 */
export async function reopenTicket(
  ctx: AppContext,
  t: TenantContext,
  ticketExtId: number,
): Promise<TicketDetail> {
  await ctx.database.db.transaction(async (tx) => {
    await markActor(tx, t.userId); // reopening is not news to whoever reopened (as closing)
    const ticket = await lockTicket(tx, t.portalId, ticketExtId, ticketScope(t));
    if (!ticket) throw ticketNotFound();
    await refuseMergedTicket(tx, ticket.id, 'reopen');
    if (!ticket.closed) return;
    if (!(await reopenTicketIfClosed(tx, t.portalId, t.contactId, ticket, ctx.clock.now())))
      throw new AppError(409, 'no_default_step', 'The portal has no status step to reopen the ticket in');
    await emitTicketEvent(tx, ctx, 'ticket.reopened', ticket.id, contactSource(t), ticket.statusStepId);
  });
  return ticketDetail(ctx, t, ticketExtId);
}

/**
 * Rates a closed ticket (1–5 and a comment). One rating per ticket: a new one replaces it, and each is
 * sent to the back office as a `ticket.rated` event in the same transaction; one at or below the
 * portal's threshold e-mails the ticket's agents (modules/tickets/core/staff-notify.ts), also in it.
 */
export async function rateTicket(
  ctx: AppContext,
  t: TenantContext,
  ticketExtId: number,
  body: TicketRatingRequest,
): Promise<TicketRating> {
  const now = ctx.clock.now();
  const comment = stripNul(body.comment ?? '').trim();
  await ctx.database.db.transaction(async (tx) => {
    const ticket = await lockTicket(tx, t.portalId, ticketExtId, ticketScope(t));
    if (!ticket) throw ticketNotFound();
    await refuseMergedTicket(tx, ticket.id, 'rating');
    if (!ticket.closed)
      throw new AppError(409, ticketErrorCodes.ticketNotClosed, 'Only a closed ticket can be rated');
    await upsertRating(tx, {
      ticketId: ticket.id,
      portalId: t.portalId,
      rating: body.rating,
      comment,
      contactId: t.contactId,
      userId: t.userId,
      now,
    });
    await emitRatingEvent(tx, ctx, ticket.id, contactSource(t));
    await queueLowRatingNotices(tx, ctx, ticket.id, now);
  });
  kickOutbox();
  return { rating: body.rating, comment, ratedAt: now.toISOString() };
}

/** Ids of the caller's tickets (as their lists reach them) with an unread public message. */
export async function unreadTickets(ctx: AppContext, t: TenantContext): Promise<{ ticketIds: number[] }> {
  const ids = await listUnreadTickets(ctx.database.db, ticketScope(t), {
    userId: t.userId,
    contactId: t.contactId,
  });
  return { ticketIds: ids.map(Number) };
}

export async function markRead(ctx: AppContext, t: TenantContext, ticketExtId: number): Promise<void> {
  const db = ctx.database.db;
  const id = await findTicketId(db, ticketScope(t), ticketExtId);
  if (id === undefined) throw ticketNotFound();
  await markTicketRead(db, t.userId, id, ctx.clock.now());
}

async function followersOf(db: AppContext['database']['db'], t: TenantContext, ticketId: number) {
  const [followers, all] = await Promise.all([
    listFollowers(db, ticketId, t.companyId),
    listColleagues(db, t.companyId, t.userId),
  ]);
  const following = new Set(followers.map((f) => f.webUserId));
  return { followers, candidates: all.filter((c) => !following.has(c.webUserId)) };
}

/** Who follows the ticket, and which colleagues could. */
export async function ticketFollowers(
  ctx: AppContext,
  t: TenantContext,
  ticketExtId: number,
): Promise<TicketFollowers> {
  const db = ctx.database.db;
  const id = await findTicketId(db, ticketScope(t), ticketExtId);
  if (id === undefined) throw ticketNotFound();
  return followersOf(db, t, id);
}

/**
 * Sets the ticket's followers. Each must be a colleague (a user holding a contact of the company); the
 * caller may follow too (they are not among their own colleagues, so they are allowed explicitly).
 */
export async function setTicketFollowers(
  ctx: AppContext,
  t: TenantContext,
  ticketExtId: number,
  webUserIds: number[],
): Promise<TicketFollowers> {
  const wanted = [...new Set(webUserIds)];
  const db = ctx.database.db;
  await db.transaction(async (tx) => {
    const ticket = await lockTicket(tx, t.portalId, ticketExtId, ticketScope(t));
    if (!ticket) throw ticketNotFound();
    await refuseMergedTicket(tx, ticket.id, 'followers');
    const allowed = new Set((await listColleagues(tx, t.companyId, t.userId)).map((c) => c.webUserId));
    allowed.add(t.userId);
    if (wanted.some((id) => !allowed.has(id)))
      throw badRequest('A follower is not a colleague of this company', ticketErrorCodes.unknownColleague);
    await replaceFollowers(tx, {
      ticketId: ticket.id,
      userIds: wanted,
      addedBy: t.userId,
      now: ctx.clock.now(),
    });
  });
  const id = await findTicketId(db, ticketScope(t), ticketExtId);
  return followersOf(db, t, id!);
}

export function colleagues(ctx: AppContext, t: TenantContext) {
  return listColleagues(ctx.database.db, t.companyId, t.userId);
}
