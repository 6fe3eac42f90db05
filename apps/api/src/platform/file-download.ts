import type { FastifyReply, FastifyRequest } from 'fastify';
import { commonErrorCodes } from '@sportello/contracts';
import { AppError } from './errors';
import type { ByteRange, FileStore } from './files';

/**
 * The one `Range` form browsers and download managers send to resume or seek: a single
 * `bytes=a-b`, `bytes=a-` or `bytes=-n`. Answers the range, 'unsatisfiable', or undefined to send
 * the whole file (no header, several ranges, another unit: RFC 9110 lets a server ignore those).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends a blob's bytes, whole or the `Range` asked for (206), from whichever store holds them, streamed
 * (never read whole). The blob's SHA-256 is its ETag: content addressing makes it exact, and an
 * `If-Range` naming another version gets the whole file. The caller sets the other headers first.
 */
export async function sendBlob(
  req: FastifyRequest,
  reply: FastifyReply,
  store: FileStore,
  blob: { sha256: string; size: number },
): Promise<FastifyReply> {
  const etag = `"${blob.sha256}"`;
  reply.header('Accept-Ranges', 'bytes').header('ETag', etag);
  const ifRange = req.headers['if-range'];
  const range =
    ifRange === undefined || ifRange === etag ? parseRange(req.headers.range, blob.size) : undefined;
  if (range === 'unsatisfiable') {
    reply.header('Content-Range', `bytes */${blob.size}`);
    throw new AppError(416, commonErrorCodes.rangeNotSatisfiable, `The file has ${blob.size} bytes`);
  }
  if (range === undefined)
    return reply.header('Content-Length', String(blob.size)).send(await store.read(blob.sha256));
  return reply
    .code(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${blob.size}`)
    .header('Content-Length', String(range.end - range.start + 1))
    .send(await store.read(blob.sha256, range));
}
