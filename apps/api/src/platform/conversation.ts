/**
 * Writing to a ticket's conversation, shared by the portal's own routes (tickets) and the back office's
 * (integration): the HTML rule for what a person typed, and the comment and attachment rows.
 */
import { ticketAttachments, ticketComments } from '../db/schema';
import { sanitizeHtml } from './html';
import { reserveExtIds } from './portal-sequences';
import type { Queryable } from './sql-json';

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

export async function insertComment(tx: Queryable, v: typeof ticketComments.$inferInsert): Promise<number> {
  const r = await tx.insert(ticketComments).values(v).returning({ id: ticketComments.id });
  return r[0]!.id;
}

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
