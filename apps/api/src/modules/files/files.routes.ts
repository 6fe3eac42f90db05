import { eq, sql } from 'drizzle-orm';
import { platformRoutes } from '@sportello/contracts';
import { files } from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
import type { App, AppContext } from '../../platform/context';
import { sendBlob } from '../../platform/file-download';
import { contentDisposition, parseBinding, type UrlBinding } from '../../platform/files';
import { route } from '../../platform/route';

/**
 * The only types served as themselves: inert ones a browser may show inline. Everything else (HTML,
 * SVG, CSS, JavaScript, XML, any type a browser might run or interpret) is served as
 * application/octet-stream, as an attachment.
 */
const INLINE_TYPES = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'text/plain',
]);

export function registerFileRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, platformRoutes.file, async (req, reply) => {
    const { id } = req.params;
    const bind = parseBinding(req.query.k);
    if (req.query.k !== undefined && !bind)
      throw new AppError(403, 'bad_signature', 'This link is not valid');
    const verdict = ctx.signer.verify(id, req.query.e, req.query.s, ctx.clock.now(), bind);
    if (verdict === 'expired' || (verdict === 'ok' && bind && !(await stillHeld(ctx, bind))))
      throw new AppError(410, 'link_expired', 'This link has expired: reload the page');
    if (verdict === 'invalid') throw new AppError(403, 'bad_signature', 'This link is not valid');
    const row = (await ctx.database.db.select().from(files).where(eq(files.id, id)).limit(1))[0];
    if (!row) throw notFound('File not found');
    const type = row.contentType.toLowerCase();
    const inert = INLINE_TYPES.has(type);
    const inline = inert && req.query.download === undefined;
    const contentType = inert ? type : 'application/octet-stream';
    const direct = await ctx.fileStore.directUrl(row.sha256, {
      name: row.name,
      contentType,
      disposition: inline ? 'inline' : 'attachment',
    });
    // The link was checked above; the store's own link is short-lived (docs/operations.md).
    if (direct !== undefined) return reply.header('Cache-Control', 'no-store').redirect(direct, 302);
    reply
      .header('Content-Type', contentType)
      .header('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', row.name))
      .header('X-Content-Type-Options', 'nosniff')
      .header(
        'Content-Security-Policy',
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
      )
      .header('Cache-Control', 'private, max-age=3600');
    return sendBlob(req, reply, ctx.fileStore, row);
  });
}

/**
 * A bound link works while its session is live and its user still holds the contact; a view's link
 * while the view is live and would still open (platform/view-session.ts: an active staff admin of the
 * contact's portal).
 */
async function stillHeld(ctx: AppContext, b: UrlBinding): Promise<boolean> {
  const now = ctx.clock.now().toISOString();
  const r = await ctx.database.db.execute(
    b.view
      ? sql`
    select 1 from view_sessions v
    join staff_users s on s.id = v.staff_user_id and s.status = 'active'
    join contacts k on k.id = v.contact_id
    join staff_memberships m on m.staff_user_id = v.staff_user_id and m.portal_id = k.portal_id
      and m.role = 'admin'
    where v.id = ${b.sessionId} and v.contact_id = ${b.contactId} and v.token_hash is not null
      and v.expires_at > ${now}::timestamptz`
      : sql`
    select 1 from sessions s
    join user_contacts uc on uc.user_id = s.user_id and uc.contact_id = ${b.contactId}
    where s.id = ${b.sessionId} and s.revoked_at is null
      and s.expires_at > ${now}::timestamptz`,
  );
  return (r as unknown as { rows: unknown[] }).rows.length > 0;
}
