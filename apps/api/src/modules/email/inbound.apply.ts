/**
 * What a received message becomes once its sender and ticket are known (docs/email.md "What a message
 * becomes"): a comment of the contact or the agent on the ticket it answers, or a new ticket of the
 * contact. Written by the tickets core (`writeCommentIn`, `openTicketIn`) inside the transaction that
 * records the message, under a savepoint: a message the rules refuse (blank, a ticket the contact may not
 * see) leaves the message waiting with the reason, and nothing else of it.
 */
import { TICKET_TITLE_MAX } from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import type { Tx } from '../../db/client';
import { files } from '../../db/schema';
import { langOf } from '../../platform/account-mail';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import type { StagedBlob } from '../../platform/files';
import { queryRows } from '../../platform/sql-json';
import { cleanFileName } from '../../platform/uploads';
import {
  emailTicketDefaults,
  isBlankHtml,
  openTicketIn,
  userHtml,
  writeCommentIn,
  type CommentAuthor,
} from '../tickets/core';
import { cleanText, ticketTitleOf } from './inbound.classify';

/** The attachments one message may bring: as many as a contact may have pending on the portal. */
export const MAIL_ATTACHMENTS = {
  maxCount: 20,
  /** Inline images smaller than this, shown by the HTML body only, are signature logos: not kept. */
  inlineLogoBytes: 16 * 1024,
};

/** What the message asks for, once the sender and ticket are known (inbound.service.ts `decide`). */
export type MailAction =
  | {
      kind: 'comment';
      ticketExtId: number;
      author: Extract<CommentAuthor, { kind: 'contact' | 'staff' }>;
    }
  | {
      kind: 'ticket';
      contact: { id: number; extId: number; companyId: number };
      /** Where the confirmation goes: the sender's address, and their message it answers. */
      address: string;
      messageId: string | undefined;
    };

export interface Applied {
  ticketId: number;
  commentId: number | null;
  /** What was not kept (refused attachments), for the message's entry. */
  note: string | null;
}

const cleanType = (t: string | undefined) =>
  t && /^[\w.+-]{1,100}\/[\w.+-]{1,100}$/.test(t) ? t.toLowerCase() : 'application/octet-stream';

/** Plain text as the conversation's HTML: paragraphs at blank lines, line breaks kept, all escaped. */
export function textToHtml(text: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

const refusedTexts = {
  it: {
    line: (name: string, why: string) => `Allegato non accettato: ${name} (${why})`,
    size: (mb: number) => `più grande di ${mb} MB`,
    count: (n: number) => `oltre i ${n} allegati di un messaggio`,
  },
  en: {
    line: (name: string, why: string) => `Attachment not accepted: ${name} (${why})`,
    size: (mb: number) => `larger than ${mb} MB`,
    count: (n: number) => `more than ${n} attachments in one message`,
  },
  es: {
    line: (name: string, why: string) => `Adjunto no aceptado: ${name} (${why})`,
    size: (mb: number) => `mayor de ${mb} MB`,
    count: (n: number) => `más de ${n} adjuntos en un mensaje`,
  },
} as const;

interface Refused {
  name: string;
  why: 'size' | 'count';
}

/** The attachments a message's comment or ticket keeps, and those it refuses, under the upload rules. */
function sortAttachments(ctx: AppContext, m: ParsedMail) {
  const maxBytes = ctx.config.MAX_UPLOAD_MB * 1024 * 1024;
  const kept: { name: string; contentType: string; content: Buffer }[] = [];
  const refused: Refused[] = [];
  for (const a of m.attachments) {
    const inline = a.related === true || a.contentDisposition === 'inline';
    if (inline && a.contentType.startsWith('image/') && a.size < MAIL_ATTACHMENTS.inlineLogoBytes) continue;
    const name = cleanFileName(a.filename ?? (a.contentType === 'message/rfc822' ? 'message.eml' : 'file'));
    if (a.content.length > maxBytes) refused.push({ name, why: 'size' });
    else if (kept.length >= MAIL_ATTACHMENTS.maxCount) refused.push({ name, why: 'count' });
    else kept.push({ name, contentType: cleanType(a.contentType), content: a.content });
  }
  return { kept, refused };
}

/**
 * Applies the action inside `tx` under a savepoint. Answers what it made, or, when the tickets core
 * refused it (an AppError: a blank reply, a ticket out of the contact's reach), the reason; anything
 * else is a fault and goes up (the message is not recorded and is read again).
 */
export async function applyMailAction(
  tx: Tx,
  ctx: AppContext,
  p: {
    portalId: number;
    action: MailAction;
    mail: ParsedMail;
    /** The new text of the message (quoted history and signature stripped). */
    text: string;
    /** The `files` row of the whole message as received (the "show full e-mail" view). */
    rawFileId: number;
    now: Date;
  },
): Promise<Applied | { refused: string }> {
  const staged: StagedBlob[] = [];
  // The portal's row first, as a new ticket's numbering takes it: a reply takes the ticket's locks and
  // then the portal's (its comment number), a new ticket the portal's and then its company's rows, so
  // two messages written at once (the SMTP receiver's connections) would otherwise deadlock. The
  // numbering holds this lock to the commit anyway; taking it first only puts them in one order.
  await tx.execute(sql`select 1 from portals where id = ${p.portalId}::int for no key update`);
  try {
    return await tx.transaction((sp) => apply(sp, ctx, p, staged));
  } catch (err) {
    // Bytes placed under a savepoint rolled back: the sweeper checks them.
    for (const b of staged) await ctx.fileStore.discard(b);
    if (err instanceof AppError && err.statusCode < 500) return { refused: cleanText(err.message, 300) };
    throw err;
  }
}

async function apply(
  tx: Tx,
  ctx: AppContext,
  p: Parameters<typeof applyMailAction>[2],
  staged: StagedBlob[],
): Promise<Applied> {
  const { action, now, portalId } = p;
  const owner =
    action.kind === 'ticket'
      ? { uploadedByContactId: action.contact.id }
      : action.author.kind === 'contact'
        ? { uploadedByContactId: action.author.contactId }
        : { uploadedByStaffId: action.author.staffUserId };
  const { kept, refused } = sortAttachments(ctx, p.mail);
  const fileIds: number[] = [];
  for (const a of kept) {
    const blob = await ctx.fileStore.stageBuffer(a.content);
    staged.push(blob);
    await ctx.fileStore.record(tx, blob, now);
    const [row] = await tx
      .insert(files)
      .values({
        portalId,
        sha256: blob.sha256,
        name: a.name,
        contentType: a.contentType,
        size: blob.size,
        ...owner,
        // The comment's or ticket's writer attaches it, as it does the author's own uploads.
        attachedAt: null,
        createdAt: now,
      })
      .returning({ id: files.id });
    fileIds.push(row!.id);
  }
  const [portal] = await queryRows<{ default_language: string }>(
    tx,
    sql`select default_language from portals where id = ${portalId}::int`,
  );
  const words = refusedTexts[langOf(portal?.default_language)];
  const max = ctx.config.MAX_UPLOAD_MB;
  const refusedLines = refused.map((r) =>
    words.line(r.name, r.why === 'size' ? words.size(max) : words.count(MAIL_ATTACHMENTS.maxCount)),
  );
  // An agent's mail that starts with `#internal` is a note for the staff (the marker goes).
  let text = p.text;
  let internal = false;
  const marked = /^#internal\b[:\s]*/i.exec(text.trimStart());
  if (action.kind === 'comment' && action.author.kind === 'staff' && marked) {
    internal = true;
    text = text.trimStart().slice(marked[0].length);
  }
  const html =
    userHtml(textToHtml(text)) +
    refusedLines.map((l) => `<p><em>${l.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</em></p>`).join('');
  const note =
    refused.length > 0
      ? cleanText(
          `attachments not accepted: ${refused
            .map((r) => `${r.name} (${r.why === 'size' ? `larger than ${max} MB` : 'too many'})`)
            .join(', ')}`,
          500,
        )
      : null;

  if (action.kind === 'comment') {
    // The message as received is the comment's, for the agents' "show full e-mail": the writer takes
    // it under the author's ownership rule, as it does the attachments.
    await tx.execute(sql`update files set attached_at = null,
        uploaded_by_contact_id = ${owner.uploadedByContactId ?? null}::int,
        uploaded_by_staff_id = ${owner.uploadedByStaffId ?? null}::int
      where id = ${p.rawFileId}::int`);
    const written = await writeCommentIn(tx, ctx, {
      portalId,
      ticketExtId: action.ticketExtId,
      channel: 'email',
      author: action.author,
      message: html,
      internal,
      attachments: fileIds.map((fileId) => ({ fileId })),
      originalEmailFileId: p.rawFileId,
    });
    return { ticketId: written.ticketId, commentId: written.id, note };
  }

  const defaults = await emailTicketDefaults(tx, portalId);
  if (!defaults)
    throw new AppError(409, 'no_default_step', 'The portal has no ticket type or no step for new tickets');
  const title =
    ticketTitleOf(cleanText(p.mail.subject ?? '', TICKET_TITLE_MAX)) ||
    cleanText(p.text, 80).split('\n')[0]!.trim();
  if (isBlankHtml(html) || title === '')
    throw new AppError(400, 'required_fields', 'The message has no text to open a ticket with');
  const opened = await openTicketIn(tx, ctx, {
    portalId,
    companyId: action.contact.companyId,
    contactId: action.contact.id,
    contactExtId: action.contact.extId,
    timeZone: defaults.timeZone,
    title,
    description: html,
    typeId: defaults.typeId,
    statusStepId: defaults.statusStepId,
    wikiElementId: null,
    attachmentIds: fileIds,
    confirmTo: { address: action.address, inReplyTo: action.messageId },
    now,
  });
  return { ticketId: opened.id, commentId: null, note };
}
