/**
 * Second factors of a contact's sign-in: an authenticator app (TOTP, otplib), passkeys (WebAuthn,
 * @simplewebauthn/server) and single-use recovery codes. Used by the sign-in (auth.service.ts) and the
 * profile (account.service.ts). Secrets never leave here in clear but once, at enrolment.
 */
import { randomInt } from 'node:crypto';
import { and, asc, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { RECOVERY_CODE_COUNT, type SecondFactorMethod } from '@sportello/contracts';
import type { Db, Tx } from '../../db/client';
import { authChallenges, userPasskeys, userRecoveryCodes, users } from '../../db/schema';
import { newToken, sha256 } from '../../platform/auth';
import type { AppContext } from '../../platform/context';
import { open, seal } from './secret-box';

type Conn = Db | Tx;

/** A sign-in waiting for its second factor, and a passkey registration, last this long. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

// --- Which factors a user has ---

export interface Factors {
  totp: boolean;
  passkeys: number;
}
export const hasSecondFactor = (f: Factors) => f.totp || f.passkeys > 0;
export const methodsOf = (f: Factors): SecondFactorMethod[] => [
  ...(f.totp ? (['totp'] as const) : []),
  ...(f.passkeys > 0 ? (['passkey'] as const) : []),
  'recovery',
];

export async function findFactors(db: Conn, userId: number): Promise<Factors> {
  const [totp, passkeys] = await Promise.all([
    db
      .select({ on: sql<boolean>`${users.totpSecret} is not null` })
      .from(users)
      .where(eq(users.id, userId)),
    db.select({ n: count() }).from(userPasskeys).where(eq(userPasskeys.userId, userId)),
  ]);
  return { totp: !!totp[0]?.on, passkeys: Number(passkeys[0]?.n ?? 0) };
}

// --- TOTP ---

/** Codes of the step before and after the current one pass too (clocks drift, people type slowly). */
const TOTP_TOLERANCE_SECONDS = 30;

export function newTotpSecret(ctx: AppContext): { plain: string; sealed: string } {
  const plain = generateSecret();
  return { plain, sealed: seal(ctx.secret, plain) };
}

export const totpUri = (issuer: string, label: string, secret: string) =>
  generateURI({ issuer, label, secret });

/** The time step a code matches, or undefined. Steps at or before `afterStep` are refused (replay). */
export async function matchTotp(
  ctx: AppContext,
  sealed: string | null,
  code: string,
  afterStep: number | null,
): Promise<number | undefined> {
  if (!sealed || !/^\d{6}$/.test(code)) return undefined;
  const secret = open(ctx.secret, sealed);
  if (!secret) return undefined;
  try {
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(ctx.clock.now().getTime() / 1000),
      epochTolerance: TOTP_TOLERANCE_SECONDS,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  } catch {
    // otplib refuses a last step beyond the window (the server's clock went back): no code matches.
    return undefined;
  }
}

/** Takes a step for good: false when another request took it (or a later one) first. */
export async function takeTotpStep(db: Conn, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length === 1;
}

/** A TOTP code of the user's app, taken for good (a code works once). */
export async function useTotpCode(ctx: AppContext, db: Conn, userId: number, code: string): Promise<boolean> {
  const rows = await db
    .select({ secret: users.totpSecret, last: users.totpLastStep })
    .from(users)
    .where(eq(users.id, userId));
  const r = rows[0];
  if (!r) return false;
  const step = await matchTotp(ctx, r.secret, code, r.last);
  return step !== undefined && (await takeTotpStep(db, userId, step));
}

// --- Recovery codes ---

// No 0/o, 1/l/i: read off paper without doubt. 32 symbols, 10 of them: 50 bits per code.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** A new set of codes: the old set stops working. Only hashes are stored; the codes are answered once. */
export async function replaceRecoveryCodes(tx: Conn, userId: number, now: Date): Promise<string[]> {
  await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx
    .insert(userRecoveryCodes)
    .values(codes.map((c) => ({ userId, codeHash: sha256(normaliseRecoveryCode(c)), createdAt: now })));
  return codes;
}

export async function dropRecoveryCodes(tx: Conn, userId: number): Promise<void> {
  await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
}

/** Uses a recovery code: true once per code. */
export async function useRecoveryCode(db: Conn, userId: number, code: string, now: Date): Promise<boolean> {
  const normal = normaliseRecoveryCode(code);
  if (!/^[a-z0-9]{10}$/.test(normal)) return false;
  const rows = await db
    .update(userRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(userRecoveryCodes.userId, userId),
        eq(userRecoveryCodes.codeHash, sha256(normal)),
        isNull(userRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: userRecoveryCodes.id });
  return rows.length === 1;
}

export async function recoveryCodesLeft(db: Conn, userId: number): Promise<number> {
  const rows = await db
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return Number(rows[0]?.n ?? 0);
}

/** A code typed by the user: six digits are the app's, anything else a recovery code. */
export async function useAnyCode(ctx: AppContext, db: Conn, userId: number, code: string): Promise<boolean> {
  const trimmed = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(trimmed)) return useTotpCode(ctx, db, userId, trimmed);
  return useRecoveryCode(db, userId, code, ctx.clock.now());
}

// --- Passkeys (WebAuthn) ---

/**
 * The relying party: PUBLIC_URL's host and origin. Browsers refuse an IP address as a relying party,
 * so a server reached on a loopback address (a trial on one's own machine) names `localhost`: open it
 * as http://localhost:PORT to use passkeys there.
 */
export function relyingParty(ctx: AppContext): { rpID: string; origin: string } {
  const url = new URL(ctx.config.publicUrl);
  if (url.hostname === '127.0.0.1' || url.hostname === '[::1]') url.hostname = 'localhost';
  return { rpID: url.hostname, origin: url.origin };
}

export interface PasskeyRow {
  id: number;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string | null;
}

const transportsOf = (t: string | null): AuthenticatorTransport[] | undefined => {
  if (!t) return undefined;
  try {
    const list: unknown = JSON.parse(t);
    return Array.isArray(list)
      ? (list.filter((x) => typeof x === 'string') as AuthenticatorTransport[])
      : undefined;
  } catch {
    return undefined;
  }
};

export async function passkeysOf(db: Conn, userId: number): Promise<PasskeyRow[]> {
  return db
    .select({
      id: userPasskeys.id,
      credentialId: userPasskeys.credentialId,
      publicKey: userPasskeys.publicKey,
      counter: userPasskeys.counter,
      transports: userPasskeys.transports,
    })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId))
    .orderBy(asc(userPasskeys.id));
}

export const credentialDescriptors = (rows: PasskeyRow[]) =>
  rows.map((r) => {
    const transports = transportsOf(r.transports);
    return { id: r.credentialId, ...(transports ? { transports } : {}) };
  });

/** Authentication options for a user's passkeys; the challenge to keep is `options.challenge`. */
export async function passkeyAuthenticationOptions(ctx: AppContext, rows: PasskeyRow[]) {
  return generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    allowCredentials: credentialDescriptors(rows),
    userVerification: 'preferred',
  });
}

/** Verifies a passkey's answer to `challenge` against the user's passkeys; moves its counter. */
export async function usePasskey(
  ctx: AppContext,
  db: Conn,
  userId: number,
  challenge: string,
  response: Record<string, unknown>,
): Promise<boolean> {
  const rows = await passkeysOf(db, userId);
  const row = rows.find((r) => r.credentialId === response.id);
  if (!row) return false;
  const rp = relyingParty(ctx);
  try {
    const transports = transportsOf(row.transports);
    const result = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: row.credentialId,
        publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
        counter: row.counter,
        ...(transports ? { transports } : {}),
      },
      requireUserVerification: false,
    });
    if (!result.verified) return false;
    await db
      .update(userPasskeys)
      .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: ctx.clock.now() })
      .where(eq(userPasskeys.id, row.id));
    return true;
  } catch {
    // A malformed or foreign answer is a wrong answer, not a fault of the server.
    return false;
  }
}

/** Verifies a registration answer; the credential to store, or undefined. */
export async function verifyPasskeyRegistration(
  ctx: AppContext,
  challenge: string,
  response: Record<string, unknown>,
) {
  const rp = relyingParty(ctx);
  try {
    const result = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
    if (!result.verified) return undefined;
    const c = result.registrationInfo.credential;
    return {
      credentialId: c.id,
      publicKey: Buffer.from(c.publicKey).toString('base64url'),
      counter: c.counter,
      transports: c.transports ? JSON.stringify(c.transports) : null,
    };
  } catch {
    return undefined;
  }
}

// --- Challenges (auth_challenges) ---

export interface ChallengeRow {
  id: number;
  userId: number;
  remember: boolean;
  webauthnChallenge: string | null;
}

/** Opens a challenge; answers its ticket (only the hash is stored). */
export async function openChallenge(
  db: Conn,
  userId: number,
  purpose: 'login' | 'passkey',
  now: Date,
  extra: { remember?: boolean; webauthnChallenge?: string } = {},
): Promise<{ ticket: string; expiresAt: Date }> {
  const ticket = newToken();
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  await db.insert(authChallenges).values({
    tokenHash: sha256(ticket),
    userId,
    purpose,
    remember: extra.remember ?? false,
    webauthnChallenge: extra.webauthnChallenge ?? null,
    createdAt: now,
    expiresAt,
  });
  return { ticket, expiresAt };
}

const liveChallenge = (now: Date) => and(isNull(authChallenges.usedAt), gt(authChallenges.expiresAt, now));

export async function findLoginChallenge(
  db: Conn,
  ticket: string,
  now: Date,
): Promise<ChallengeRow | undefined> {
  const rows = await db
    .select({
      id: authChallenges.id,
      userId: authChallenges.userId,
      remember: authChallenges.remember,
      webauthnChallenge: authChallenges.webauthnChallenge,
    })
    .from(authChallenges)
    .where(
      and(
        eq(authChallenges.tokenHash, sha256(ticket)),
        eq(authChallenges.purpose, 'login'),
        liveChallenge(now),
      ),
    )
    .limit(1);
  return rows[0];
}

export async function setWebauthnChallenge(db: Conn, id: number, challenge: string): Promise<void> {
  await db.update(authChallenges).set({ webauthnChallenge: challenge }).where(eq(authChallenges.id, id));
}

/** Takes a challenge for good: true only for the one caller that found it live. */
export async function consumeChallenge(db: Conn, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(authChallenges)
    .set({ usedAt: now })
    .where(and(eq(authChallenges.id, id), liveChallenge(now)))
    .returning({ id: authChallenges.id });
  return rows.length === 1;
}

/** The user's live passkey registration (the latest one opened). */
export async function findPasskeyChallenge(
  db: Conn,
  userId: number,
  now: Date,
): Promise<ChallengeRow | undefined> {
  const rows = await db
    .select({
      id: authChallenges.id,
      userId: authChallenges.userId,
      remember: authChallenges.remember,
      webauthnChallenge: authChallenges.webauthnChallenge,
    })
    .from(authChallenges)
    .where(and(eq(authChallenges.userId, userId), eq(authChallenges.purpose, 'passkey'), liveChallenge(now)))
    .orderBy(sql`${authChallenges.id} desc`)
    .limit(1);
  return rows[0];
}

/** Forgets a user's finished or stale challenges of a purpose (they pile up otherwise). */
export async function purgeChallenges(
  db: Conn,
  userId: number,
  purpose: 'login' | 'passkey',
  now: Date,
): Promise<void> {
  await db
    .delete(authChallenges)
    .where(
      and(
        eq(authChallenges.userId, userId),
        eq(authChallenges.purpose, purpose),
        or(sql`${authChallenges.usedAt} is not null`, lt(authChallenges.expiresAt, now)),
      ),
    );
}
