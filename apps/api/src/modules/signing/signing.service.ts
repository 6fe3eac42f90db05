import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_MAX_PER_HOUR,
  OTP_RESEND_SECONDS,
  OTP_TTL_SECONDS,
  signingErrorCodes as codes,
  type OtpSent,
  type SignRequest,
  type SignedAnswer,
  type SigningDocument,
} from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import { emitSignatureEvent } from '../../platform/events';
import { AppError } from '../../platform/errors';
import { enqueueSms, kickOutbox } from '../../platform/outbox';
import { maskPhone } from '../../platform/phone-mask';
import { formatInZone } from '@sportello/contracts/time-zone';
import { auditLanguageOf, buildSignedPdf, type Verification } from './signing.pdf';
import {
  consumeOtp,
  countWrongAttempt,
  fileById,
  findRequest,
  insertContactDocument,
  insertEvent,
  insertOtp,
  insertStoredFile,
  latestOtp,
  markOpened,
  markSigned,
  otpsSince,
  retireOpenOtps,
  type OtpRow,
  type SignatureRequestRow,
} from './signing.queries';

export { maskPhone };

/** Where a request came from, for the audit trail. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}

const documentNotFound = () =>
  new AppError(404, codes.documentNotFound, 'This document does not exist or is no longer available');
const alreadySigned = (signedAt: Date) =>
  new AppError(409, codes.alreadySigned, 'This document has already been signed', {
    signedAt: signedAt.toISOString(),
  });

/** Codes are bound to their request, so a hash copied to another request is worthless. */
const hashCode = (secret: string, requestId: number, code: string) =>
  createHmac('sha256', secret).update(`signing-otp:${requestId}:${code}`).digest('hex');

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

const plus = (d: Date, seconds: number) => new Date(d.getTime() + seconds * 1000);

const hasPhone = (r: SignatureRequestRow) => !!r.phone?.trim();

/**
 * Unknown, foreign, cancelled and (unsigned) expired requests look the same: a signed one stays
 * visible.
 */
function isGone(r: SignatureRequestRow | undefined, now: Date): r is undefined {
  return (
    !r || (!r.signedAt && (!!r.cancelledAt || (!!r.expiresAt && r.expiresAt.getTime() <= now.getTime())))
  );
}

function otpState(otp: OtpRow | undefined) {
  if (!otp || otp.consumedAt) return null;
  return {
    sentAt: otp.createdAt.toISOString(),
    expiresAt: otp.expiresAt.toISOString(),
    resendAvailableAt: plus(otp.createdAt, OTP_RESEND_SECONDS).toISOString(),
    attemptsLeft: Math.max(0, OTP_MAX_ATTEMPTS - otp.attempts),
  };
}

async function recordOpened(ctx: AppContext, requestId: number, now: Date, client?: ClientInfo) {
  await ctx.database.db.transaction(async (tx) => {
    if (await markOpened(tx, requestId, now))
      await insertEvent(tx, requestId, {
        event: 'opened',
        at: now,
        ip: client?.ip ?? null,
        userAgent: client?.userAgent ?? null,
        details: {},
      });
  });
}

export async function getSigningDocument(
  ctx: AppContext,
  company: string,
  documentKey: string,
  client?: ClientInfo,
): Promise<SigningDocument> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const r = await findRequest(db, company, documentKey);
  if (isGone(r, now)) throw documentNotFound();
  // The desk shows "opened": the first view of an unsigned request is recorded once.
  if (!r.openedAt && !r.signedAt) await recordOpened(ctx, r.id, now, client);
  const signedFile = r.signedFileId ? await fileById(db, r.portalId, r.signedFileId) : undefined;
  const shown = signedFile ?? { id: r.fileId, name: r.fileName, contentType: r.fileContentType };
  const otp = r.requireOtp && !r.signedAt ? await latestOtp(db, r.id) : undefined;
  return {
    documentName: r.documentName,
    signerName: r.signerName,
    companyName: r.companyName,
    webPortalName: r.portalName,
    requireOtp: r.requireOtp,
    hasPhone: hasPhone(r),
    maskedPhone: hasPhone(r) ? maskPhone(r.phone!) : null,
    status: r.signedAt ? 'signed' : 'pending',
    signedAt: r.signedAt?.toISOString() ?? null,
    documentUrl: ctx.signer.sign(shown.id, shown.name, now),
    contentType: shown.contentType,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    otp: otpState(otp),
  };
}

/** What the signing page's frame draws above the document (apps/api app.ts, portals' public frame). */
export interface SigningHeading {
  documentName: string;
  signerName: string;
  companyName: string;
  /** `DD/MM/YYYY` in the portal's zone, as the page shows it; null when signed or without a deadline. */
  expiresOn: string | null;
}

/**
 * The heading of a document to sign, for the page the server draws before the app: what
 * `getSigningDocument` answers anyone holding the key, and nothing more (no file link, no phone, no
 * code state). It records no view: the app's own request does, as before. Null when that request would
 * answer 404, so the app's not-found state stays the one the API gives.
 */
export async function signingHeading(
  ctx: AppContext,
  company: string,
  documentKey: string,
): Promise<SigningHeading | null> {
  const r = await findRequest(ctx.database.db, company, documentKey);
  if (isGone(r, ctx.clock.now())) return null;
  return {
    documentName: r.documentName,
    signerName: r.signerName,
    companyName: r.companyName,
    expiresOn: r.expiresAt && !r.signedAt ? formatInZone(r.expiresAt, r.timeZone, 'DD/MM/YYYY') : null,
  };
}

/** The SMS the signer receives (SPEC B3: Italian is the portal's default language). */
const smsText = (documentName: string, code: string) =>
  `Sportello: il codice per firmare "${documentName}" è ${code}. Valido 10 minuti.`;

/**
 * Sends a new code: checks the resend delay and the hourly limit on the codes stored for this
 * document (so every process sees them), retires the previous code and queues the SMS, all in one
 * transaction that holds the request row.
 */
export async function sendOtp(
  ctx: AppContext,
  company: string,
  documentKey: string,
  client: ClientInfo,
): Promise<OtpSent> {
  const now = ctx.clock.now();
  const sent = await ctx.database.db.transaction(async (tx) => {
    const r = await findRequest(tx, company, documentKey, true);
    if (isGone(r, now)) throw documentNotFound();
    if (r.signedAt) throw alreadySigned(r.signedAt);
    if (!r.requireOtp)
      throw new AppError(409, codes.otpNotRequired, 'This document is signed without a code');
    if (!hasPhone(r))
      throw new AppError(
        409,
        codes.noPhone,
        'no phone number provided, unable to proceed with OTP signature',
      );
    const last = await latestOtp(tx, r.id);
    if (last) {
      const wait = Math.ceil((plus(last.createdAt, OTP_RESEND_SECONDS).getTime() - now.getTime()) / 1000);
      if (wait > 0)
        throw new AppError(409, codes.otpResendTooEarly, `A new code can be sent in ${wait} seconds`, {
          retryAfterSeconds: wait,
        });
    }
    const lastHour = await otpsSince(tx, r.id, plus(now, -3600));
    if (lastHour.total >= OTP_MAX_PER_HOUR) {
      const frees = lastHour.oldest ? plus(lastHour.oldest, 3600) : plus(now, 3600);
      const wait = Math.max(1, Math.ceil((frees.getTime() - now.getTime()) / 1000));
      throw new AppError(
        429,
        codes.otpTooMany,
        'Too many codes requested for this document: try again later',
        {
          retryAfterSeconds: wait,
        },
      );
    }
    const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
    const expiresAt = plus(now, OTP_TTL_SECONDS);
    await retireOpenOtps(tx, r.id, now);
    const otpId = await insertOtp(tx, r.id, hashCode(ctx.secret, r.id, code), now, expiresAt);
    const maskedPhone = maskPhone(r.phone!);
    await enqueueSms(tx, { to: r.phone!.trim(), text: smsText(r.documentName, code) }, now);
    await insertEvent(tx, r.id, {
      event: 'otp_sent',
      at: now,
      ip: client.ip,
      userAgent: client.userAgent,
      details: { otpId, to: maskedPhone },
    });
    return { expiresAt, maskedPhone };
  });
  kickOutbox();
  return {
    sentAt: now.toISOString(),
    expiresAt: sent.expiresAt.toISOString(),
    resendAvailableAt: plus(now, OTP_RESEND_SECONDS).toISOString(),
    maskedPhone: sent.maskedPhone,
  };
}

const SIGNED_SUFFIX: Record<string, string> = { 'it-IT': 'firmato', 'en-EN': 'signed', 'es-ES': 'firmado' };

/** `Contratto.pdf` → `Contratto (firmato).pdf`, without characters a file system or header dislikes. */
function signedNames(r: SignatureRequestRow): { documentName: string; fileName: string } {
  const suffix = SIGNED_SUFFIX[r.defaultLanguage] ?? SIGNED_SUFFIX['it-IT']!;
  const documentName = `${r.documentName} (${suffix})`;
  const base = [...r.documentName.replace(/\.pdf$/i, '')]
    .map((c) => (c.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(c) ? '_' : c))
    .join('');
  return { documentName, fileName: `${base} (${suffix}).pdf`.slice(-200) };
}

type Verified =
  | { kind: 'verified'; r: SignatureRequestRow; otpId: number | null; verification: Verification }
  | { kind: 'wrong_code'; attemptsLeft: number };

/** Every check of a sign request; `lockedOtp` is re-read under the row lock at commit. */
function checkSignable(
  r: SignatureRequestRow | undefined,
  now: Date,
  fullName: string,
  body: SignRequest,
  otpCode: string,
): asserts r is SignatureRequestRow {
  if (isGone(r, now)) throw documentNotFound();
  if (r.signedAt) throw alreadySigned(r.signedAt);
  if (!fullName || body.accept !== true || (r.requireOtp && !otpCode))
    throw new AppError(400, codes.fieldsRequired, 'Please fill in all fields');
  if (r.requireOtp && !hasPhone(r))
    throw new AppError(409, codes.noPhone, 'no phone number provided, unable to proceed with OTP signature');
}

function checkOtpUsable(otp: OtpRow | undefined, now: Date): asserts otp is OtpRow {
  if (!otp || otp.consumedAt)
    throw new AppError(400, codes.otpNotSent, 'No valid code was sent for this document: request one');
  if (otp.attempts >= OTP_MAX_ATTEMPTS)
    throw new AppError(400, codes.otpLocked, 'Too many wrong codes: request a new code');
  if (otp.expiresAt.getTime() <= now.getTime())
    throw new AppError(400, codes.otpExpired, 'The code has expired: request a new code');
}

/**
 * Signs in three steps, so no transaction (and on PGlite the only connection) is held while the PDF
 * is built: (1) a transaction holding the request row checks the request and the code (a wrong one is
 * counted and committed before the refusal; a right one is NOT spent yet); (2) the signed PDF with its
 * audit page is built and its bytes staged, outside any transaction; (3) a transaction holding the
 * row again re-checks everything that may have changed meanwhile (signed by a concurrent request, the
 * code replaced, spent or expired), then spends the code and records the PDF, the audit events, the
 * signed state and the contact's new document at once. Of concurrent requests exactly one passes (3);
 * the others find the document signed, and their staged PDF is dropped.
 */
export async function signDocument(
  ctx: AppContext,
  company: string,
  documentKey: string,
  body: SignRequest,
  client: ClientInfo,
): Promise<SignedAnswer> {
  const now = ctx.clock.now();
  const fullName = body.fullName?.trim() ?? '';
  const otpCode = body.otpCode?.trim() ?? '';
  const db = ctx.database.db;

  const checked = await db.transaction(async (tx): Promise<Verified> => {
    const r = await findRequest(tx, company, documentKey, true);
    checkSignable(r, now, fullName, body, otpCode);
    if (!r.requireOtp) return { kind: 'verified', r, otpId: null, verification: { method: 'acceptance' } };
    const otp = await latestOtp(tx, r.id);
    checkOtpUsable(otp, now);
    const right =
      /^\d+$/.test(otpCode) &&
      otpCode.length === OTP_LENGTH &&
      sameHash(hashCode(ctx.secret, r.id, otpCode), otp.codeHash);
    if (!right) {
      const attempts = (await countWrongAttempt(tx, otp.id, OTP_MAX_ATTEMPTS)) ?? OTP_MAX_ATTEMPTS;
      await insertEvent(tx, r.id, {
        event: 'otp_failed',
        at: now,
        ip: client.ip,
        userAgent: client.userAgent,
        details: { otpId: otp.id, attempts },
      });
      return { kind: 'wrong_code', attemptsLeft: Math.max(0, OTP_MAX_ATTEMPTS - attempts) };
    }
    return {
      kind: 'verified',
      r,
      otpId: otp.id,
      verification: { method: 'sms_otp', maskedPhone: maskPhone(r.phone!) },
    };
  });
  if (checked.kind === 'wrong_code')
    throw new AppError(400, codes.invalidOtp, 'Invalid OTP code', { attemptsLeft: checked.attemptsLeft });
  const { r, otpId, verification } = checked;

  const original = await ctx.fileStore.readAll(r.fileSha256);
  const originalSha256 = createHash('sha256').update(original).digest('hex');
  const pdf = await buildSignedPdf(
    original,
    r.fileContentType,
    {
      documentName: r.documentName,
      documentKey: r.documentKey,
      signerName: r.signerName,
      typedName: fullName,
      companyName: r.companyName,
      portalName: r.portalName,
      signedAtLocal: `${formatInZone(now, r.timeZone, 'DD/MM/YYYY HH:mm:ss')} (${r.timeZone})`,
      signedAtUtc: now.toISOString(),
      ip: client.ip,
      userAgent: client.userAgent || '-',
      verification,
      originalSha256,
      originalFileName: r.fileName,
    },
    auditLanguageOf(r.defaultLanguage),
    now,
  );
  const blob = await ctx.fileStore.stageBuffer(pdf.bytes);

  let signed: { signedAt: Date; fileId: number; fileName: string };
  try {
    signed = await db.transaction(async (tx) => {
      const again = await findRequest(tx, company, documentKey, true);
      checkSignable(again, now, fullName, body, otpCode);
      if (otpId !== null) {
        const otp = await latestOtp(tx, again.id);
        checkOtpUsable(otp, now);
        // A new code sent meanwhile replaced the one that was checked.
        if (otp.id !== otpId || !(await consumeOtp(tx, otp.id, now)))
          throw new AppError(400, codes.otpNotSent, 'No valid code was sent for this document: request one');
      }
      await ctx.fileStore.record(tx, blob, now);
      const names = signedNames(again);
      const fileId = await insertStoredFile(tx, again.portalId, blob, names.fileName, 'application/pdf', now);
      const signedAt = await markSigned(tx, again.id, fileId, now);
      // The row lock makes this unreachable; the condition stays so a bug cannot sign twice.
      if (!signedAt) throw alreadySigned(now);
      const documentId = await insertContactDocument(tx, again, names.documentName, fileId, now);
      await insertEvent(tx, again.id, {
        event: 'signed',
        at: now,
        ip: client.ip,
        userAgent: client.userAgent,
        details: {
          method: verification.method,
          verification:
            verification.method === 'sms_otp' ? `SMS OTP to ${verification.maskedPhone}` : 'acceptance',
          otpId,
          typedName: fullName,
          signerName: again.signerName,
          originalSha256,
          originalFileId: again.fileId,
          signedSha256: blob.sha256,
          signedFileId: fileId,
          documentId,
          originalPages: pdf.originalPages,
        },
      });
      // The signer opened a capability link: the payload names the contact.
      await emitSignatureEvent(tx, ctx, again.id, documentId, { type: 'contact' });
      return { signedAt, fileId, fileName: names.fileName };
    });
  } catch (e) {
    await ctx.fileStore.discard(blob);
    throw e;
  }
  return {
    signedAt: signed.signedAt.toISOString(),
    documentUrl: ctx.signer.sign(signed.fileId, signed.fileName, now),
  };
}
