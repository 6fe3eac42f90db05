import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  companies,
  contacts,
  documents,
  files,
  portals,
  signatureEvents,
  signatureOtps,
  signatureRequests,
} from '../../db/schema';

type Conn = Db | Tx;

/** A signature request with what the page and the audit page need about its signer and portal. */
export interface SignatureRequestRow {
  id: number;
  portalId: number;
  documentKey: string;
  documentName: string;
  requireOtp: boolean;
  expiresAt: Date | null;
  signedAt: Date | null;
  signedFileId: number | null;
  /** 0017: the signer first opened the page; the request was cancelled (the link is gone). */
  openedAt: Date | null;
  cancelledAt: Date | null;
  fileId: number;
  fileName: string;
  fileContentType: string;
  fileSha256: string;
  contactId: number;
  companyId: number;
  signerName: string;
  phone: string | null;
  companyName: string;
  portalName: string;
  timeZone: string;
  defaultLanguage: string;
}

/**
 * The request of `documentKey` in portal `portalKey`, or undefined. The key is compared exactly (it is
 * a capability); the portal key case-insensitively, like every route. `lock` takes the request row for
 * update, which serialises sends and signatures of one document across processes.
 */
export async function findRequest(
  db: Conn,
  portalKey: string,
  documentKey: string,
  lock = false,
): Promise<SignatureRequestRow | undefined> {
  const q = db
    .select({
      id: signatureRequests.id,
      portalId: signatureRequests.portalId,
      documentKey: signatureRequests.documentKey,
      documentName: signatureRequests.documentName,
      requireOtp: signatureRequests.requireOtp,
      expiresAt: signatureRequests.expiresAt,
      signedAt: signatureRequests.signedAt,
      signedFileId: signatureRequests.signedFileId,
      openedAt: signatureRequests.openedAt,
      cancelledAt: signatureRequests.cancelledAt,
      fileId: files.id,
      fileName: files.name,
      fileContentType: files.contentType,
      fileSha256: files.sha256,
      contactId: contacts.id,
      companyId: contacts.companyId,
      signerName: contacts.referentName,
      phone: contacts.phone,
      companyName: companies.companyName,
      portalName: portals.name,
      timeZone: portals.timeZone,
      defaultLanguage: portals.defaultLanguage,
    })
    .from(signatureRequests)
    .innerJoin(portals, eq(portals.id, signatureRequests.portalId))
    .innerJoin(contacts, eq(contacts.id, signatureRequests.contactId))
    .innerJoin(companies, eq(companies.id, contacts.companyId))
    .innerJoin(files, eq(files.id, signatureRequests.fileId))
    .where(and(eq(portals.key, portalKey.toLowerCase()), eq(signatureRequests.documentKey, documentKey)))
    .limit(1);
  const rows = lock ? await q.for('update', { of: signatureRequests }) : await q;
  return rows[0];
}

export async function fileById(
  db: Conn,
  portalId: number,
  fileId: number,
): Promise<{ id: number; name: string; contentType: string } | undefined> {
  const rows = await db
    .select({ id: files.id, name: files.name, contentType: files.contentType })
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.portalId, portalId)))
    .limit(1);
  return rows[0];
}

export interface OtpRow {
  id: number;
  codeHash: string;
  createdAt: Date;
  expiresAt: Date;
  attempts: number;
  consumedAt: Date | null;
}

const otpColumns = {
  id: signatureOtps.id,
  codeHash: signatureOtps.codeHash,
  createdAt: signatureOtps.createdAt,
  expiresAt: signatureOtps.expiresAt,
  attempts: signatureOtps.attempts,
  consumedAt: signatureOtps.consumedAt,
};

/** The most recent code sent for a request, used or not (the resend delay counts from it). */
export async function latestOtp(db: Conn, requestId: number): Promise<OtpRow | undefined> {
  const rows = await db
    .select(otpColumns)
    .from(signatureOtps)
    .where(eq(signatureOtps.requestId, requestId))
    .orderBy(desc(signatureOtps.createdAt), desc(signatureOtps.id))
    .limit(1);
  return rows[0];
}

/** Codes sent since `since`, oldest first: the hourly limit and when it frees up. */
export async function otpsSince(
  db: Conn,
  requestId: number,
  since: Date,
): Promise<{ total: number; oldest: Date | null }> {
  const rows = await db
    .select({
      total: count(),
      oldest: sql<Date | null>`min(${signatureOtps.createdAt})`.mapWith(signatureOtps.createdAt),
    })
    .from(signatureOtps)
    .where(and(eq(signatureOtps.requestId, requestId), gt(signatureOtps.createdAt, since)));
  const r = rows[0];
  return { total: Number(r?.total ?? 0), oldest: r?.oldest ?? null };
}

/** A new code replaces the previous one: `consumed_at` marks a code that can no longer be used. */
export async function retireOpenOtps(tx: Tx, requestId: number, now: Date): Promise<void> {
  await tx
    .update(signatureOtps)
    .set({ consumedAt: now })
    .where(and(eq(signatureOtps.requestId, requestId), isNull(signatureOtps.consumedAt)));
}

export async function insertOtp(
  tx: Tx,
  requestId: number,
  codeHash: string,
  now: Date,
  expiresAt: Date,
): Promise<number> {
  const [row] = await tx
    .insert(signatureOtps)
    .values({ requestId, codeHash, createdAt: now, expiresAt })
    .returning({ id: signatureOtps.id });
  return row!.id;
}

/** Counts a wrong try; the `attempts < max` guard keeps concurrent guesses from going past the limit. */
export async function countWrongAttempt(tx: Tx, otpId: number, max: number): Promise<number | undefined> {
  const rows = await tx
    .update(signatureOtps)
    .set({ attempts: sql`${signatureOtps.attempts} + 1` })
    .where(and(eq(signatureOtps.id, otpId), sql`${signatureOtps.attempts} < ${max}`))
    .returning({ attempts: signatureOtps.attempts });
  return rows[0]?.attempts;
}

export async function consumeOtp(tx: Tx, otpId: number, now: Date): Promise<boolean> {
  const rows = await tx
    .update(signatureOtps)
    .set({ consumedAt: now })
    .where(and(eq(signatureOtps.id, otpId), isNull(signatureOtps.consumedAt)))
    .returning({ id: signatureOtps.id });
  return rows.length === 1;
}

export interface SignatureEvent {
  event:
    'otp_sent' | 'otp_failed' | 'signed' | 'opened' | 'created' | 'sent_email' | 'sent_sms' | 'cancelled';
  at: Date;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
}

export async function insertEvent(tx: Tx, requestId: number, e: SignatureEvent): Promise<void> {
  await tx.insert(signatureEvents).values({ requestId, ...e });
}

/** A `files` row for bytes already recorded in the store (FileStore.record, same transaction). */
export async function insertStoredFile(
  tx: Tx,
  portalId: number,
  blob: { sha256: string; size: number },
  name: string,
  contentType: string,
  now: Date,
): Promise<number> {
  const [row] = await tx
    .insert(files)
    .values({ portalId, sha256: blob.sha256, name, contentType, size: blob.size, createdAt: now })
    .returning({ id: files.id });
  return row!.id;
}

/** The first opening of the signing page (later ones change nothing): true when this was it. */
export async function markOpened(tx: Tx, requestId: number, now: Date): Promise<boolean> {
  const rows = await tx
    .update(signatureRequests)
    .set({ openedAt: now })
    .where(and(eq(signatureRequests.id, requestId), isNull(signatureRequests.openedAt)))
    .returning({ id: signatureRequests.id });
  return rows.length === 1;
}

/** Marks the request signed, unless someone else did first (then undefined). */
export async function markSigned(
  tx: Tx,
  requestId: number,
  signedFileId: number,
  now: Date,
): Promise<Date | undefined> {
  const rows = await tx
    .update(signatureRequests)
    .set({ signedAt: now, signedFileId })
    .where(and(eq(signatureRequests.id, requestId), isNull(signatureRequests.signedAt)))
    .returning({ signedAt: signatureRequests.signedAt });
  return rows[0]?.signedAt ?? undefined;
}

/**
 * Files the signed PDF among the contact's documents. Its id continues the portal's document sequence,
 * never below the highest id the back office imported, so it cannot collide with one of theirs.
 */
export async function insertContactDocument(
  tx: Tx,
  r: Pick<SignatureRequestRow, 'portalId' | 'companyId' | 'contactId'>,
  documentName: string,
  fileId: number,
  now: Date,
): Promise<number> {
  const [seq] = await tx
    .update(portals)
    .set({
      documentSeq: sql`greatest(${portals.documentSeq}, (select coalesce(max(${documents.extId}), 0) from ${documents} where ${documents.portalId} = ${r.portalId})) + 1`,
    })
    .where(eq(portals.id, r.portalId))
    .returning({ documentSeq: portals.documentSeq });
  const extId = Number(seq!.documentSeq);
  await tx.insert(documents).values({
    portalId: r.portalId,
    companyId: r.companyId,
    contactId: r.contactId,
    extId,
    documentName,
    createDate: now,
    fileId,
  });
  return extId;
}
