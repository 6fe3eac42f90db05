/**
 * Receiving one uploaded file (multipart field `file`): streamed to the file store with the
 * MAX_UPLOAD_MB limit, recorded as a `files` row owned by the uploading contact. Above the limit the
 * answer is 413 and nothing is kept; a second file part is a 400; if the database part fails, the
 * bytes are left to the sweeper (another request may share them, see FileStore).
 */
import type { FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { uploadErrorCodes } from '@sportello/contracts';
import type { Tx } from '../db/client';
import { files } from '../db/schema';
import type { AppContext } from './context';
import { AppError, badRequest } from './errors';
import { cleanFileName, PENDING_UPLOADS, type StagedBlob } from './files';
import { pauseForBody, resumeAfterBody } from './load-shedding';
import type { TenantContext } from './tenancy';

export { cleanFileName };

/** Who uploads: a contact of a portal, a portal API key (integration API) or a staff user (desk). */
export type UploadOwner = Pick<TenantContext, 'portalId'> &
  (
    | { contactId: number; apiKeyId?: undefined; staffUserId?: undefined }
    | { contactId?: undefined; apiKeyId: number; staffUserId?: undefined }
    | { contactId?: undefined; apiKeyId?: undefined; staffUserId: number }
  );

export interface StoredUpload {
  id: number;
  name: string;
  contentType: string;
}

const cleanType = (t: string | undefined) =>
  t && /^[\w.+-]{1,100}\/[\w.+-]{1,100}$/.test(t) ? t.toLowerCase() : 'application/octet-stream';

/** Namespaces of the per-owner advisory locks that make the pending-upload quota exact. */
const PENDING_LOCK = { contact: 7_270_011, apiKey: 7_270_012, staff: 7_270_013 } as const;

/**
 * The body was not read to its end (a failed write, a refused part): stop parsing and discard the
 * rest, so the answer goes out and the next request on this keep-alive connection is read.
 */
function abandonBody(req: FastifyRequest): void {
  if (req.raw.readableEnded) return;
  req.raw.unpipe();
  req.raw.resume();
}

/** Parser errors of a malformed body are the client's (400); file-system errors are ours. */
function uploadError(e: unknown): unknown {
  if (e instanceof AppError) return e;
  const err = e as { code?: string; statusCode?: number; syscall?: string; message?: string };
  if (err.code === 'FST_FILES_LIMIT')
    return badRequest('Send one file per upload request', uploadErrorCodes.oneFileOnly);
  if (err.code === 'ENOSPC' || err.code === 'EDQUOT')
    return new AppError(507, 'insufficient_storage', 'The server has no room for this file now');
  if (err.syscall !== undefined) return e;
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) return e;
  return badRequest(
    `The multipart body is malformed: ${err.message ?? 'unreadable'}`,
    uploadErrorCodes.badMultipart,
  );
}

/** Reads the parts: the one `file` part is staged, anything else is drained; two files are a 400. */
async function stagePart(
  req: FastifyRequest,
  ctx: AppContext,
): Promise<{ blob: StagedBlob; filename: string; mimetype: string }> {
  const maxBytes = ctx.config.MAX_UPLOAD_MB * 1024 * 1024;
  let staged: { blob: StagedBlob; filename: string; mimetype: string } | undefined;
  let extraFile = false;
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') continue;
      if (staged || part.fieldname !== 'file') {
        extraFile ||= !!staged;
        part.file.resume();
        continue;
      }
      const blob = await ctx.fileStore.stage(part.file, maxBytes);
      staged = { blob, filename: part.filename, mimetype: part.mimetype };
    }
  } catch (e) {
    await ctx.fileStore.discard(staged?.blob);
    abandonBody(req);
    throw uploadError(e);
  }
  if (extraFile) {
    await ctx.fileStore.discard(staged?.blob);
    throw badRequest('Send one file per upload request', uploadErrorCodes.oneFileOnly);
  }
  if (!staged) throw badRequest('The multipart field "file" is missing', uploadErrorCodes.fileRequired);
  return staged;
}

/**
 * Refuses an upload that would take the contact's unattached uploads over the quota. The advisory
 * lock serialises one contact's uploads, so two at once cannot both pass on the same count.
 */
async function checkPendingQuota(
  tx: Tx,
  ctx: AppContext,
  t: UploadOwner,
  size: number,
  now: Date,
): Promise<void> {
  const [lock, id, owner] =
    t.contactId !== undefined
      ? [PENDING_LOCK.contact, t.contactId, sql`uploaded_by_contact_id`]
      : t.staffUserId !== undefined
        ? [PENDING_LOCK.staff, t.staffUserId, sql`uploaded_by_staff_id`]
        : [PENDING_LOCK.apiKey, t.apiKeyId, sql`uploaded_by_api_key_id`];
  await tx.execute(sql`select pg_advisory_xact_lock(${lock}, ${id})`);
  const since = new Date(now.getTime() - PENDING_UPLOADS.ttlMs);
  const r = (
    (await tx.execute(sql`
      select count(*)::int as n, coalesce(sum(size), 0)::float8 as bytes, min(created_at) as oldest
      from files
      where ${owner} = ${id} and attached_at is null
        and created_at >= ${since.toISOString()}::timestamptz`)) as unknown as {
      rows: { n: number; bytes: number; oldest: string | Date | null }[];
    }
  ).rows[0]!;
  const maxBytes = PENDING_UPLOADS.maxUploads * ctx.config.MAX_UPLOAD_MB * 1024 * 1024;
  if (Number(r.n) + 1 <= PENDING_UPLOADS.maxCount && Number(r.bytes) + size <= maxBytes) return;
  const frees = r.oldest ? new Date(r.oldest).getTime() + PENDING_UPLOADS.ttlMs : now.getTime();
  throw new AppError(
    429,
    uploadErrorCodes.pendingQuota,
    `Too many files uploaded and not attached yet (at most ${PENDING_UPLOADS.maxCount} files, ` +
      `${Math.round(maxBytes / 1024 / 1024)} MB): attach them to a ticket or try again later`,
    { retryAfterSeconds: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)) },
  );
}

/**
 * What one contact may upload in 24 hours, attached or not: attaching frees the pending quota, so
 * without this bound a contact could fill the disk 20 files at a time. Staff and API keys are the
 * portal's own and are not bounded here.
 */
export const CONTACT_DAILY_UPLOADS = { windowMs: 24 * 3600_000, maxCount: 200, maxUploads: 40 };

/** Refuses an upload past the contact's daily bound (under the lock `checkPendingQuota` takes). */
async function checkDailyQuota(tx: Tx, ctx: AppContext, contactId: number, size: number, now: Date) {
  await tx.execute(sql`select pg_advisory_xact_lock(${PENDING_LOCK.contact}, ${contactId})`);
  const since = new Date(now.getTime() - CONTACT_DAILY_UPLOADS.windowMs);
  const r = (
    (await tx.execute(sql`
      select count(*)::int as n, coalesce(sum(size), 0)::float8 as bytes, min(created_at) as oldest
      from files where uploaded_by_contact_id = ${contactId}
        and created_at >= ${since.toISOString()}::timestamptz`)) as unknown as {
      rows: { n: number; bytes: number; oldest: string | Date | null }[];
    }
  ).rows[0]!;
  const maxBytes = CONTACT_DAILY_UPLOADS.maxUploads * ctx.config.MAX_UPLOAD_MB * 1024 * 1024;
  if (Number(r.n) + 1 <= CONTACT_DAILY_UPLOADS.maxCount && Number(r.bytes) + size <= maxBytes) return;
  const frees = r.oldest ? new Date(r.oldest).getTime() + CONTACT_DAILY_UPLOADS.windowMs : now.getTime();
  throw new AppError(
    429,
    uploadErrorCodes.dailyQuota,
    `Too many files uploaded in 24 hours (at most ${CONTACT_DAILY_UPLOADS.maxCount} files, ` +
      `${Math.round(maxBytes / 1024 / 1024)} MB): try again later`,
    { retryAfterSeconds: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)) },
  );
}

/**
 * Stores the request's file and runs `then` in the same transaction as the `files` row (for the row
 * that references it, e.g. a contact document). Uploads not attached at once count against the
 * contact's pending quota until a ticket or comment attaches them.
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
  // The body arrives at the client's pace and costs the database nothing: the embedded database's
  // load shedding counts the request again for its transaction only.
  pauseForBody(req);
  const { blob, filename, mimetype } = await stagePart(req, ctx);
  const name = cleanFileName(filename);
  const contentType = cleanType(mimetype);
  try {
    await resumeAfterBody(req);
  } catch (e) {
    ctx.fileStore.discard(blob);
    throw e;
  }
  const now = ctx.clock.now();
  try {
    return await ctx.database.db.transaction(async (tx) => {
      if (t.contactId !== undefined) await checkDailyQuota(tx, ctx, t.contactId, blob.size, now);
      if (!opts.attachNow) await checkPendingQuota(tx, ctx, t, blob.size, now);
      await ctx.fileStore.record(tx, blob, now);
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
          uploadedByStaffId: t.staffUserId ?? null,
          // A file that becomes a document at once is taken: no ticket or comment may attach it.
          attachedAt: opts.attachNow ? now : null,
          createdAt: now,
        })
        .returning({ id: files.id });
      return then(tx, { id: row[0]!.id, name, contentType });
    });
  } catch (e) {
    await ctx.fileStore.discard(blob);
    throw e;
  }
}
