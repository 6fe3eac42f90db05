/**
 * Receiving one uploaded file (multipart field `file`): streamed to the file store with the
 * MAX_UPLOAD_MB limit, recorded as a `files` row owned by the uploading contact. Above the limit the
 * answer is 413 and nothing is kept; if the database part fails, new bytes are discarded too.
 */
import { basename } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { uploadErrorCodes } from '@sportello/contracts';
import type { Tx } from '../db/client';
import { blobs, files } from '../db/schema';
import type { AppContext } from './context';
import { badRequest } from './errors';
import type { TenantContext } from './tenancy';

/** Who uploads: a contact of a portal, or a portal API key (integration API). */
export type UploadOwner = Pick<TenantContext, 'portalId'> &
  ({ contactId: number; apiKeyId?: undefined } | { contactId?: undefined; apiKeyId: number });

export interface StoredUpload {
  id: number;
  name: string;
  contentType: string;
}

/** A display name without path, control characters or surrounding blanks. */
export function cleanFileName(raw: string | undefined): string {
  const name = basename((raw ?? '').replace(/\\/g, '/'))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
  return name === '' || name === '.' || name === '..' ? 'file' : name;
}

const cleanType = (t: string | undefined) =>
  t && /^[\w.+-]{1,100}\/[\w.+-]{1,100}$/.test(t) ? t.toLowerCase() : 'application/octet-stream';

/**
 * Stores the request's file and runs `then` in the same transaction as the `files` row (for the row
 * that references it, e.g. a contact document).
 */
export async function receiveUpload<R>(
  req: FastifyRequest,
  ctx: AppContext,
  t: UploadOwner,
  then: (tx: Tx, file: StoredUpload) => Promise<R>,
  opts: { attachNow?: boolean } = {},
): Promise<R> {
  if (!req.isMultipart())
    throw badRequest(
      'Send the file as multipart/form-data, field "file"',
      uploadErrorCodes.multipartRequired,
    );
  const part = await req.file();
  if (!part || part.fieldname !== 'file') {
    part?.file.resume();
    throw badRequest('The multipart field "file" is missing', uploadErrorCodes.fileRequired);
  }
  const maxBytes = ctx.config.MAX_UPLOAD_MB * 1024 * 1024;
  const blob = await ctx.fileStore.putStream(part.file, maxBytes);
  const name = cleanFileName(part.filename);
  const contentType = cleanType(part.mimetype);
  const now = ctx.clock.now();
  try {
    return await ctx.database.db.transaction(async (tx) => {
      await tx
        .insert(blobs)
        .values({ sha256: blob.sha256, size: blob.size, createdAt: now })
        .onConflictDoNothing();
      const row = await tx
        .insert(files)
        .values({
          portalId: t.portalId,
          sha256: blob.sha256,
          name,
          contentType,
          size: blob.size,
          uploadedByContactId: t.contactId ?? null,
          uploadedByApiKeyId: t.apiKeyId ?? null,
          // A file that becomes a document at once is taken: no ticket or comment may attach it.
          attachedAt: opts.attachNow ? now : null,
          createdAt: now,
        })
        .returning({ id: files.id });
      return then(tx, { id: row[0]!.id, name, contentType });
    });
  } catch (e) {
    ctx.fileStore.discard(blob);
    throw e;
  }
}
