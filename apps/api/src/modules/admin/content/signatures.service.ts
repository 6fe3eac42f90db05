/**
 * Signature requests as an entity (issue 14 item 3, issue 12 item 4): made, followed, cancelled and
 * downloaded by a staff admin or a portal key. A new request is one transaction: the PDF's file row
 * (inline bytes staged before it, or the caller's upload claimed in it), the request, the e-mail to
 * the contact's users (the notification trigger of 0013: branded, in each user's language), the SMS
 * with the link when the contact has a phone, the request's own timeline, the audit row and
 * `signature.requested`. Any refusal leaves no row, no attached upload and no bytes behind.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  contentErrorCodes,
  entityErrorCodes,
  type SignatureListFilter,
  type SignaturePage,
  type SignatureRequestCreate,
  type SignatureRequestDetail,
  type SignatureRequestEntity,
} from '@sportello/contracts';
import type { Tx } from '../../../db/client';
import type { AppContext } from '../../../platform/context';
import { emitDataEvent, apiKeySource, staffSource } from '../../../platform/events';
import { AppError, conflict, notFound } from '../../../platform/errors';
import { payloadTooLarge, type StagedBlob } from '../../../platform/files';
import { enqueueSms, kickOutbox } from '../../../platform/outbox';
import type { Answer } from '../../../platform/idempotency';
import { maskPhone } from '../../../platform/phone-mask';
import { inTransaction, record, uploadNotFound, type Actor, type Idem } from '../entities/entities.service';
import { claimUpload } from '../entities/uploads.queries';
import {
  contactForSignature,
  insertEvent,
  insertStoredFile,
  listSignatures,
  notifiedUsers,
  readSignature,
  signatureTimeline,
  type StoredSignature,
} from './content.queries';

const PDF_MAGIC = Buffer.from('%PDF-');

const notAPdf = () =>
  new AppError(422, contentErrorCodes.notAPdf, 'file: the document to sign must be a PDF', [
    { path: 'file', message: 'not a PDF' },
  ]);

const missing = (key: string) =>
  new AppError(404, entityErrorCodes.entityNotFound, `The portal has no signature request ${key}`);

/** The signing page the contact is sent to (the same path as the notification's link). */
const linkOf = (ctx: AppContext, portalKey: string, documentKey: string) =>
  `${ctx.config.publicUrl}/${encodeURIComponent(portalKey)}/documents/${encodeURIComponent(documentKey)}`;

function answerOf(ctx: AppContext, actor: Actor, s: StoredSignature): SignatureRequestEntity {
  const { rowId: _r, signedSha256: _s, ...rest } = s;
  return { ...rest, link: linkOf(ctx, actor.portalKey, s.documentKey) };
}

/** SPEC B3: the SMS in the portal's language (Italian by default), with the link. */
const SMS: Record<string, (doc: string, link: string) => string> = {
  it: (d, l) => `Ti chiediamo di firmare "${d}": ${l}`,
  en: (d, l) => `You are asked to sign "${d}": ${l}`,
  es: (d, l) => `Te pedimos que firmes "${d}": ${l}`,
};

export async function createSignatureRequest(
  ctx: AppContext,
  actor: Actor,
  body: SignatureRequestCreate,
  idem?: Idem,
): Promise<Answer<SignatureRequestEntity>> {
  const now = ctx.clock.now();
  if (body.expiresAt && new Date(body.expiresAt).getTime() <= now.getTime())
    throw new AppError(422, contentErrorCodes.expiryInPast, 'expiresAt: the expiry must be in the future', [
      { path: 'expiresAt', message: 'in the past' },
    ]);
  // Inline bytes: decoded, checked and staged before the transaction; dropped if it fails.
  let blob: StagedBlob | undefined;
  let inlineName: string | undefined;
  if (!('uploadId' in body.file)) {
    if (body.file.base64 === undefined) throw notAPdf();
    const max = ctx.config.MAX_UPLOAD_MB * 1024 * 1024;
    if (Math.floor((body.file.base64.length * 3) / 4) > max + 3) throw payloadTooLarge(max);
    const bytes = Buffer.from(body.file.base64, 'base64');
    if (bytes.length > max) throw payloadTooLarge(max);
    if (!bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) throw notAPdf();
    blob = await ctx.fileStore.stageBuffer(bytes);
    inlineName = body.file.name;
  }
  const documentKey = body.documentKey ?? randomBytes(24).toString('base64url');
  try {
    const answer = await inTransaction(ctx, actor, idem, body, async (tx) => {
      const contact = await contactForSignature(tx, actor.portalId, body.contactId);
      if (!contact)
        throw new AppError(
          422,
          entityErrorCodes.unknownReference,
          `contactId: the portal has no contact ${body.contactId}`,
          [{ path: 'contactId', message: `unknown id ${body.contactId}` }],
        );
      if (body.method === 'sms_code' && !contact.phone)
        throw new AppError(
          422,
          contentErrorCodes.contactWithoutPhone,
          'method: the contact has no phone for an SMS code; choose acceptance or add a phone',
          [{ path: 'method', message: 'the contact has no phone' }],
        );
      if (await readSignature(tx, actor.portalId, documentKey, now))
        throw conflict(`A signature request ${documentKey} exists`, entityErrorCodes.entityExists);
      const fileId = blob
        ? await storeInline(ctx, tx, actor.portalId, blob, inlineName!, now)
        : await claimPdf(ctx, tx, actor, (body.file as { uploadId: number }).uploadId, now);
      const rows = (await tx.execute(
        // The insert fires the notification trigger (0013): the e-mail to the contact's users.
        sqlInsert(actor.portalId, documentKey, contact.id, body, fileId, now),
      )) as unknown as { rows: { id: number }[] };
      const requestId = Number(rows.rows[0]!.id);
      await insertEvent(tx, requestId, { event: 'created', at: now, ip: null, userAgent: null, details: {} });
      const users = await notifiedUsers(tx, contact.id, documentKey);
      if (users > 0)
        await insertEvent(tx, requestId, {
          event: 'sent_email',
          at: now,
          ip: null,
          userAgent: null,
          details: { users },
        });
      if (contact.phone) {
        const link = linkOf(ctx, actor.portalKey, documentKey);
        const text = (SMS[contact.language.slice(0, 2)] ?? SMS.it!)(body.documentName, link);
        await enqueueSms(tx, { to: contact.phone, text }, now);
        await insertEvent(tx, requestId, {
          event: 'sent_sms',
          at: now,
          ip: null,
          userAgent: null,
          details: { to: maskPhone(contact.phone) },
        });
      }
      const after = answerOf(ctx, actor, (await readSignature(tx, actor.portalId, documentKey, now))!);
      await record(ctx, tx, actor, {
        entity: 'signature_request',
        entityId: documentKey,
        action: 'created',
        before: null,
        after,
        emit: (audit) =>
          emitDataEvent(
            tx,
            ctx,
            'signature.requested',
            actor.portalId,
            sourceOf(actor),
            { signatureRequest: after },
            audit,
          ),
      });
      return { status: 201, body: after };
    });
    kickOutbox();
    return answer;
  } catch (e) {
    await ctx.fileStore.discard(blob);
    throw e;
  }
}

const sourceOf = (a: Actor) =>
  a.type === 'api_key' ? apiKeySource(a.apiKeyId) : staffSource(a.staffUserId, a.name);

async function storeInline(
  ctx: AppContext,
  tx: Tx,
  portalId: number,
  blob: StagedBlob,
  name: string,
  now: Date,
) {
  await ctx.fileStore.record(tx, blob, now);
  return insertStoredFile(tx, portalId, blob, name, 'application/pdf', now);
}

/** The caller's upload, attached in this transaction; refused (and left unattached) unless a PDF. */
async function claimPdf(ctx: AppContext, tx: Tx, actor: Actor, uploadId: number, now: Date) {
  const upload = await claimUpload(tx, actor, uploadId, now);
  if (!upload) throw uploadNotFound('file', uploadId);
  const first = await ctx.fileStore.head(upload.sha256, PDF_MAGIC.length);
  if (!first.equals(PDF_MAGIC)) throw notAPdf();
  return upload.id;
}

function sqlInsert(
  portalId: number,
  documentKey: string,
  contactRowId: number,
  body: SignatureRequestCreate,
  fileId: number,
  now: Date,
) {
  return sql`insert into signature_requests
      (portal_id, document_key, contact_id, document_name, file_id, require_otp, expires_at, created_at)
    values (${portalId}::int, ${documentKey}, ${contactRowId}::int, ${body.documentName}, ${fileId}::int,
      ${body.method === 'sms_code'}, ${body.expiresAt ? new Date(body.expiresAt).toISOString() : null}::timestamptz,
      ${now.toISOString()}::timestamptz)
    returning id`;
}

export async function getSignatureRequest(
  ctx: AppContext,
  actor: Actor,
  documentKey: string,
): Promise<SignatureRequestDetail> {
  const db = ctx.database.db;
  const s = await readSignature(db, actor.portalId, documentKey, ctx.clock.now());
  if (!s) throw missing(documentKey);
  return { ...answerOf(ctx, actor, s), timeline: await signatureTimeline(db, s.rowId) };
}

export async function listSignatureRequests(
  ctx: AppContext,
  actor: Actor,
  q: SignatureListFilter,
): Promise<SignaturePage> {
  const page = await listSignatures(ctx.database.db, actor.portalId, q, ctx.clock.now());
  return { items: page.items.map((s) => answerOf(ctx, actor, s)), nextCursor: page.nextCursor };
}

export async function cancelSignatureRequest(
  ctx: AppContext,
  actor: Actor,
  documentKey: string,
): Promise<SignatureRequestEntity> {
  const now = ctx.clock.now();
  const a = await inTransaction(ctx, actor, undefined, null, async (tx) => {
    const s = await readSignature(tx, actor.portalId, documentKey, now, true);
    if (!s) throw missing(documentKey);
    if (s.signedAt || s.cancelledAt)
      throw conflict(
        s.signedAt ? 'This request is signed already' : 'This request is cancelled already',
        contentErrorCodes.signatureClosed,
      );
    const before = answerOf(ctx, actor, s);
    await tx.execute(sql`update signature_requests set cancelled_at = ${now.toISOString()}::timestamptz
      where id = ${s.rowId}::int`);
    await insertEvent(tx, s.rowId, { event: 'cancelled', at: now, ip: null, userAgent: null, details: {} });
    const after = answerOf(ctx, actor, (await readSignature(tx, actor.portalId, documentKey, now))!);
    await record(ctx, tx, actor, {
      entity: 'signature_request',
      entityId: documentKey,
      action: 'cancelled',
      before,
      after,
      emit: (audit) =>
        emitDataEvent(
          tx,
          ctx,
          'signature.cancelled',
          actor.portalId,
          sourceOf(actor),
          { signatureRequest: after },
          audit,
        ),
    });
    return { status: 200, body: after };
  });
  return a.body;
}

/** The signed PDF with its audit page: its name and bytes. */
export async function signedPdf(ctx: AppContext, actor: Actor, documentKey: string) {
  const s = await readSignature(ctx.database.db, actor.portalId, documentKey, ctx.clock.now());
  if (!s) throw missing(documentKey);
  if (!s.signedFile || !s.signedSha256)
    throw notFound('This request is not signed yet', contentErrorCodes.notSigned);
  return { file: s.signedFile, stream: await ctx.fileStore.read(s.signedSha256) };
}
