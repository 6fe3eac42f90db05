/**
 * The one writer of a ticket's conversation (issue 29 item 13). Every comment — a contact's reply on
 * the portal or by e-mail, an agent's reply or internal note on the staff desk, a back office's answer
 * through the integration API — is written here, in one transaction with everything that follows from
 * it: the blank and attachment rules, the reopen of a closed ticket, the event and its webhooks, the
 * e-mails (through the outbox), the customer notifications (triggers of migration 0013) and the read
 * marks. The import alone writes comments otherwise: it mirrors the back office's document, set-based.
 */
import { integrationErrorCodes, ticketErrorCodes } from '@sportello/contracts';
import type { Tx } from '../../../db/client';
import { queueAgentAnswerEmails } from './agent-answer';
import type { AppContext } from '../../../platform/context';
import { badRequest, conflict, notFound } from '../../../platform/errors';
import {
  apiKeySource,
  contactSource,
  emitCommentEvent,
  emitTicketEvent,
  staffSource,
  type EventSource,
} from '../../../platform/events';
import { payloadTooLarge } from '../../../platform/files';
import { markActor } from './notifications';
import { kickOutbox } from '../../../platform/outbox';
import { reserveExtIds } from '../../../platform/portal-sequences';
import { noticeMentions } from './staff-bell';
import { refreshSlaClock } from './sla-clock';
import { queueStaffNotices } from './staff-notify';
import { setChangeActor } from './ticket-changes';
import type { TicketScope } from './visibility';
import { insertAttachments, isBlankHtml, userHtml } from './conversation';
import {
  claimFiles,
  commentExtIdTaken,
  ensureStaffAgent,
  findOrCreateAgent,
  insertComment,
  lockTicket,
  markStaffRead,
  mergedInto,
  reopeningStepId,
  setTicketStep,
  signatureOf,
  type FileOwner,
  type LockedTicket,
} from './write-comment.queries';

/** Where a comment came in; stored with it (migration 0035) and sent in its event. */
export const commentChannels = ['portal', 'desk', 'api', 'email'] as const;
export type CommentChannel = (typeof commentChannels)[number];

/** Who writes. Each kind is one sender column of the row (the CHECK of migration 0035). */
export type CommentAuthor =
  /**
   * A contact of the ticket's company, on the portal or by e-mail: `scope` is the tickets they reach
   * (`ticketScope`), `userId` the portal user writing (null: an e-mail from the contact's address).
   */
  | { kind: 'contact'; contactId: number; contactExtId: number; userId: number | null; scope: TicketScope }
  /** A staff user on the desk, writing as their agent of the portal (made on their first comment). */
  | { kind: 'staff'; staffUserId: number; displayName: string }
  /**
   * A back office through one of its API keys, as its agent `agentExtId` (made with `agentName` when
   * the portal does not know it yet).
   */
  | { kind: 'agent'; apiKeyId: number; agentExtId: number; agentName?: string | undefined };

/** Which channels each author kind writes through. */
const CHANNELS: Record<CommentAuthor['kind'], readonly CommentChannel[]> = {
  contact: ['portal', 'email'],
  staff: ['desk', 'email'],
  agent: ['api'],
};

export interface CommentInput {
  portalId: number;
  /** The ticket by its back-office id. */
  ticketExtId: number;
  channel: CommentChannel;
  author: CommentAuthor;
  /** As typed or received: HTML (sanitised here) or plain text (escaped, line breaks kept). */
  message: string;
  /** Staff only: a note no customer, e-mail or event sees. */
  internal?: boolean;
  /**
   * Files already stored (`files` rows, not attached yet, uploaded by the author: the contact, the
   * staff user or the API key), in the order shown; `name` replaces the file's own.
   */
  attachments?: readonly { fileId: number; name?: string | undefined }[];
  /** The e-mail the comment came in (a stored `.eml`, same ownership rule), kept with the comment. */
  originalEmailFileId?: number;
  /** The back office's id for the comment (409 when taken); absent: the portal numbers it. */
  extId?: number | undefined;
  /** When it was written (a back office's own date); absent: now. */
  creationDate?: Date;
}

export interface WrittenComment {
  /** The row id (internal). */
  id: number;
  extId: number;
  ticketId: number;
  ticketExtId: number;
  /** The stored, sanitised HTML. */
  message: string;
  creationDate: Date;
  /** How many customer e-mails of an agent answer were queued (0 for anything else). */
  answerEmails: number;
}

/** The answers of each author kind, as each route has always worded them. */
const wording = {
  contact: {
    notFound: 'No such ticket among those you may open',
    unavailable: 'An attachment is not one of your uploads, or is already attached',
  },
  staff: {
    notFound: 'No such ticket in this portal',
    unavailable: 'An attachment is not one of your uploads, or is already attached',
  },
  agent: {
    notFound: 'No ticket with this id in the portal',
    unavailable: 'An attachment is not an unattached upload of this key',
  },
} as const;

const ownerOf = (a: CommentAuthor): FileOwner =>
  a.kind === 'contact'
    ? { contactId: a.contactId }
    : a.kind === 'staff'
      ? { staffUserId: a.staffUserId }
      : { apiKeyId: a.apiKeyId };

const sourceOf = (a: CommentAuthor): EventSource =>
  a.kind === 'contact'
    ? contactSource({ contactExtId: a.contactExtId })
    : a.kind === 'staff'
      ? staffSource(a.staffUserId, a.displayName)
      : apiKeySource(a.apiKeyId);

interface Prepared {
  message: string;
  fileIds: number[];
}

/** The checks that need no database: sanitised message, blank rule, attachments listed once. */
function prepare(input: CommentInput): Prepared {
  if (!CHANNELS[input.author.kind].includes(input.channel))
    throw new Error(`writeComment: a ${input.author.kind} does not write through ${input.channel}`);
  if (input.internal && input.author.kind !== 'staff')
    throw new Error('writeComment: only staff write internal notes');
  const message = userHtml(input.message);
  const attachments = input.attachments ?? [];
  const fileIds = attachments.map((a) => a.fileId);
  if (new Set(fileIds).size !== fileIds.length)
    throw badRequest('An attachment is listed twice', ticketErrorCodes.attachmentUnavailable);
  if (isBlankHtml(message) && fileIds.length === 0)
    throw badRequest('A reply needs some text or a file', ticketErrorCodes.emptyComment);
  return { message, fileIds };
}

/**
 * A reply to a closed ticket reopens it: the ticket goes back to the portal's default step, in the
 * change's transaction, the contact named as its author. Returns whether it reopened.
 */
export async function reopenTicketIfClosed(
  tx: Tx,
  portalId: number,
  contactId: number,
  ticket: { id: number; statusStepId: number },
  now: Date,
): Promise<boolean> {
  const step = await reopeningStepId(tx, portalId, ticket.statusStepId);
  if (step === null) return false;
  await setChangeActor(tx, { kind: 'contact', id: contactId }, now);
  await setTicketStep(tx, ticket.id, step);
  return true;
}

/**
 * A customer's write on a ticket merged into another (and not undone) belongs to that one: a reply or
 * a reopen would revive the duplicate, a close, a rating or followers would change a ticket whose
 * conversation lives elsewhere. 409 `ticket_merged`, naming the ticket to go to (docs/staff.md,
 * "Merging tickets"). Call it with the ticket locked, so a merge or undo under way is waited for.
 */
export async function refuseMergedTicket(
  tx: Tx,
  ticketId: number,
  what: 'reply' | 'reopen' | 'close' | 'rating' | 'followers',
): Promise<void> {
  const into = await mergedInto(tx, ticketId);
  if (into === null) return;
  const go =
    what === 'reply'
      ? 'reply there'
      : what === 'followers'
        ? 'its followers are set there'
        : `the ${what} belongs there`;
  throw conflict(`The ticket was merged into ${into}: ${go}`, ticketErrorCodes.ticketMerged);
}

/** The agent row a comment of an agent or staff author is sent by. */
async function senderAgent(tx: Tx, portalId: number, a: CommentAuthor): Promise<number | null> {
  if (a.kind === 'staff') return (await ensureStaffAgent(tx, portalId, a.staffUserId)).id;
  if (a.kind !== 'agent') return null;
  const agent = await findOrCreateAgent(tx, portalId, a.agentExtId, a.agentName);
  if (!agent)
    throw badRequest(
      `Unknown agent ${a.agentExtId}: import it first or send agentName`,
      integrationErrorCodes.unknownAgent,
    );
  return agent.id;
}

/** Takes the listed files (and the original e-mail) for the comment, or refuses the whole comment. */
async function takeFiles(
  tx: Tx,
  ctx: AppContext,
  input: CommentInput,
  fileIds: number[],
  now: Date,
): Promise<{ id: number; name: string }[]> {
  const wanted = input.originalEmailFileId === undefined ? fileIds : [...fileIds, input.originalEmailFileId];
  const taken = await claimFiles(tx, {
    portalId: input.portalId,
    owner: ownerOf(input.author),
    fileIds: wanted,
    now,
  });
  if (taken.length !== new Set(wanted).size)
    throw badRequest(wording[input.author.kind].unavailable, ticketErrorCodes.attachmentUnavailable);
  const max = ctx.config.MAX_UPLOAD_MB * 1024 * 1024;
  // The original e-mail is no upload: its own bound is the reader's (docs/email.md).
  if (taken.some((f) => f.size > max && f.id !== input.originalEmailFileId)) throw payloadTooLarge(max);
  const byId = new Map(taken.map((f) => [f.id, f]));
  // Keep the order the writer chose.
  return (input.attachments ?? []).map((a) => ({ id: a.fileId, name: a.name ?? byId.get(a.fileId)!.name }));
}

/**
 * Writes a comment inside the caller's transaction (the integration API's idempotency record, the
 * e-mail channel's stored files share it). The caller calls `kickOutbox()` once it has committed.
 */
export function writeCommentIn(tx: Tx, ctx: AppContext, input: CommentInput): Promise<WrittenComment> {
  return write(tx, ctx, input, prepare(input));
}

async function write(
  tx: Tx,
  ctx: AppContext,
  input: CommentInput,
  prepared: Prepared,
): Promise<WrittenComment> {
  const { fileIds } = prepared;
  let { message } = prepared;
  const { portalId, author } = input;
  const internal = input.internal === true;
  const now = ctx.clock.now();
  // A contact's change is not news to the user making it (their reopen, say).
  if (author.kind === 'contact' && author.userId !== null) await markActor(tx, author.userId);
  const ticket: LockedTicket | undefined = await lockTicket(
    tx,
    portalId,
    input.ticketExtId,
    author.kind === 'contact' ? author.scope : null,
  );
  if (!ticket) throw notFound(wording[author.kind].notFound, ticketErrorCodes.ticketNotFound);
  // A customer's reply to a ticket merged into another belongs there: it would reopen the duplicate.
  if (author.kind === 'contact') await refuseMergedTicket(tx, ticket.id, 'reply');
  const agentId = await senderAgent(tx, portalId, author);
  if (input.extId !== undefined && (await commentExtIdTaken(tx, portalId, input.extId)))
    throw conflict(`A comment with id ${input.extId} exists`, integrationErrorCodes.commentIdTaken);
  const files = await takeFiles(tx, ctx, input, fileIds, now);

  // The portal's rule (docs/architecture.md, "Ticket replies"): a contact's reply reopens a closed ticket.
  if (author.kind === 'contact' && (await reopenTicketIfClosed(tx, portalId, author.contactId, ticket, now)))
    await emitTicketEvent(tx, ctx, 'ticket.reopened', ticket.id, sourceOf(author), ticket.statusStepId);

  const extId = input.extId ?? (await reserveExtIds(tx, portalId, 'comment_seq'));
  const creationDate = input.creationDate ?? now;
  // An agent's public reply on the desk ends with their signature (issue 28); a note, or a reply by
  // e-mail (whose mail carries the sender's own), does not.
  if (author.kind === 'staff' && input.channel === 'desk' && !internal)
    message = withSignature(message, await signatureOf(tx, author.staffUserId));
  const id = await insertComment(tx, {
    portalId,
    ticketId: ticket.id,
    extId,
    message,
    creationDate,
    channel: input.channel,
    internal,
    originalEmailFileId: input.originalEmailFileId ?? null,
    ...(author.kind === 'contact'
      ? { senderContactId: author.contactId, senderUserId: author.userId }
      : { senderAgentId: agentId, senderStaffId: author.kind === 'staff' ? author.staffUserId : null }),
  });
  await insertAttachments(tx, { portalId, ticketId: ticket.id, commentId: id, files });
  // A public message may answer first, start the wait for the customer or end it (docs/staff.md, SLA).
  if (!internal) await refreshSlaClock(tx, ticket.id);

  let answerEmails = 0;
  if (author.kind === 'contact') {
    await emitCommentEvent(tx, ctx, 'ticket.comment_added', id, sourceOf(author));
    await queueStaffNotices(tx, ctx, 'customer_reply', ticket.id, id, now);
  } else if (!internal) {
    await emitCommentEvent(tx, ctx, 'agent.comment_added', id, sourceOf(author));
    answerEmails = await queueAgentAnswerEmails(tx, ctx, id, now);
  } else if (author.kind === 'staff') {
    // `@handle` in a note tells that member (staff-bell.ts).
    const by = { staffUserId: author.staffUserId, name: author.displayName };
    await noticeMentions(tx, ctx, { id: ticket.id, portalId }, id, message, by, now);
  }
  // The writer has read their own comment (a contact's own message is never unread to them).
  if (author.kind === 'staff') await markStaffRead(tx, author.staffUserId, ticket.id, now);
  return { id, extId, ticketId: ticket.id, ticketExtId: ticket.extId, message, creationDate, answerEmails };
}

/** The sanitised message followed by the plain-text signature, escaped, its lines kept. */
export function withSignature(message: string, signature: string): string {
  if (signature.trim() === '') return message;
  const lines = signature
    .split('\n')
    .map((l) => l.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'));
  return `${message}<p>-- <br>${lines.join('<br>')}</p>`;
}

/** Writes a comment in a transaction of its own, and wakes the outbox once it has committed. */
export async function writeComment(ctx: AppContext, input: CommentInput): Promise<WrittenComment> {
  // The checks without the database first: a refused comment takes no connection.
  const prepared = prepare(input);
  const written = await ctx.database.db.transaction((tx) => write(tx, ctx, input, prepared));
  // A note's mentions may have queued e-mails too.
  kickOutbox();
  return written;
}
