/**
 * What a person typed into a ticket's conversation or description: the HTML rule, the blank rule, and
 * the attachment rows. Comments themselves are written by `writeComment` alone (write-comment.ts).
 */
import { ticketAttachments } from '../../../db/schema';
import { sanitizeHtml } from '../../../platform/html';
import { reserveExtIds } from '../../../platform/portal-sequences';
import type { Queryable } from '../../../platform/sql-json';

/** PostgreSQL text cannot hold NUL; browsers drop it anyway. */
export const stripNul = (s: string) => s.replaceAll('\u0000', '');

/**
 * HTML from the editor is sanitised; text from the plain textarea (the portal may disable the editor)
 * is escaped and keeps its line breaks.
 */
export function userHtml(raw: string): string {
  const input = stripNul(raw);
  if (/<[a-z!/?]/i.test(input)) return sanitizeHtml(input);
  const escaped = input.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return sanitizeHtml(escaped.replace(/\r?\n/g, '<br>'));
}

/** Sanitised HTML with no text and no image (the sanitiser's output is well-formed, so tags strip cleanly). */
export const isBlankHtml = (html: string) =>
  !/<img\s[^>]*src=/i.test(html) &&
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|\s/g, '')
    .trim() === '';

/** Attachment rows of a ticket (commentId null) or of one of its comments, numbered in the given order. */
export async function insertAttachments(
  tx: Queryable,
  p: { portalId: number; ticketId: number; commentId: number | null; files: { id: number; name: string }[] },
): Promise<void> {
  if (p.files.length === 0) return;
  const first = await reserveExtIds(tx, p.portalId, 'attachment_seq', p.files.length);
  await tx.insert(ticketAttachments).values(
    p.files.map((f, i) => ({
      portalId: p.portalId,
      ticketId: p.ticketId,
      commentId: p.commentId,
      extId: first + i,
      name: f.name,
      fileId: f.id,
    })),
  );
}
