import { eq } from 'drizzle-orm';
import { platformRoutes } from '@sportello/contracts';
import { files } from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
import type { App, AppContext } from '../../platform/context';
import { route } from '../../platform/route';

/** Types a browser may render inline. HTML, SVG and anything scriptable are always downloads. */
const INLINE_TYPES = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'text/plain',
]);

/** RFC 6266 / 5987: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function registerFileRoutes(app: App, ctx: AppContext): void {
  route(app, ctx, platformRoutes.file, async (req, reply) => {
    const { id } = req.params;
    const verdict = ctx.signer.verify(id, req.query.e, req.query.s, ctx.clock.now());
    if (verdict === 'expired')
      throw new AppError(410, 'link_expired', 'This link has expired: reload the page');
    if (verdict === 'invalid') throw new AppError(403, 'bad_signature', 'This link is not valid');
    const row = (await ctx.database.db.select().from(files).where(eq(files.id, id)).limit(1))[0];
    if (!row) throw notFound('File not found');
    const type = row.contentType.toLowerCase();
    const inline = INLINE_TYPES.has(type) && req.query.download === undefined;
    reply
      .header(
        'Content-Type',
        inline
          ? type
          : type.startsWith('text/html') || type.includes('svg')
            ? 'application/octet-stream'
            : type,
      )
      .header('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', row.name))
      .header('Content-Length', String(row.size))
      .header('X-Content-Type-Options', 'nosniff')
      .header(
        'Content-Security-Policy',
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
      )
      .header('Cache-Control', 'private, max-age=3600');
    return reply.send(ctx.fileStore.read(row.sha256));
  });
}
