/**
 * The signed-in user's own account: profile (name, language, e-mail change), sessions, and the
 * enrolment of second factors (authenticator app, passkeys, recovery codes).
 */
import { generateRegistrationOptions } from '@simplewebauthn/server';
import type { AccountSession, Profile, ProfileUpdate, Reauth } from '@sportello/contracts';
import { portalLanguageSchema } from '@sportello/contracts';
import type { Tx } from '../../db/client';
import type { AppContext } from '../../platform/context';
import { AppError, badRequest, conflict, notFound, tooMany } from '../../platform/errors';
import { kickOutbox, enqueueEmail } from '../../platform/outbox';
import { verifyPassword } from '../../platform/passwords';
import { clear, hit, SIGN_IN_LIMITS } from '../../platform/rate-limit';
import { emailConfirmEmail, emailNoticeEmail, factorChangedEmail, type FactorChange } from './account.mail';
import {
  deletePasskey,
  endAllSessions,
  endSession,
  findAccount,
  insertPasskey,
  listPasskeys,
  listSessions,
  pendingEmailOf,
  setEmail,
  setTotp,
  updateProfile,
} from './account.queries';
import {
  consumeLink,
  findLink,
  findPasswordHash,
  findUserPortals,
  insertUserToken,
  retireUserTokens,
} from './auth.queries';
import { describeUserAgent } from './user-agent';
import {
  CHALLENGE_TTL_MS,
  consumeChallenge,
  credentialDescriptors,
  dropRecoveryCodes,
  findFactors,
  findPasskeyChallenge,
  hasSecondFactor,
  matchTotp,
  newTotpSecret,
  openChallenge,
  passkeysOf,
  purgeChallenges,
  recoveryCodesLeft,
  relyingParty,
  replaceRecoveryCodes,
  takeTotpStep,
  totpUri,
  useAnyCode,
  verifyPasskeyRegistration,
} from './two-factor';

/** An e-mail change's link is valid this long. */
export const EMAIL_LINK_TTL_MS = 24 * 3600_000;

const wrongPassword = () => badRequest('The current password is wrong', 'wrong_password');
const wrongCode = () => badRequest('The code is not right', 'wrong_code');

/** The password checks of the account share the password change's counter: 5 per user in 15 minutes. */
async function throttlePassword(ctx: AppContext, userId: number): Promise<void> {
  const r = await hit(
    ctx.database.db,
    `password:user:${userId}`,
    SIGN_IN_LIMITS.passwordChangePerUser.limit,
    SIGN_IN_LIMITS.passwordChangePerUser.windowSeconds,
    ctx.clock.now(),
  );
  if (!r.allowed)
    throw tooMany('Too many attempts: please wait and try again', 'too_many_attempts', r.retryAfterSeconds);
}

async function checkPassword(ctx: AppContext, userId: number, password: string): Promise<void> {
  await throttlePassword(ctx, userId);
  if (!(await verifyPassword(await findPasswordHash(ctx.database.db, userId), password)))
    throw wrongPassword();
  await clear(ctx.database.db, `password:user:${userId}`);
}

/** Proof before a factor goes or codes are renewed: the password, or a code (app or recovery). */
async function checkReauth(ctx: AppContext, userId: number, proof: Reauth): Promise<void> {
  if (proof.password !== undefined) return checkPassword(ctx, userId, proof.password);
  await throttlePassword(ctx, userId);
  if (!(await useAnyCode(ctx, ctx.database.db, userId, proof.code ?? ''))) throw wrongCode();
  await clear(ctx.database.db, `password:user:${userId}`);
}

export async function profile(ctx: AppContext, userId: number): Promise<Profile> {
  const db = ctx.database.db;
  const a = await findAccount(db, userId);
  if (!a) throw notFound();
  const language = portalLanguageSchema.safeParse(a.language);
  const passkeys = await listPasskeys(db, userId);
  return {
    userName: a.userName,
    displayName: a.displayName,
    email: a.email,
    pendingEmail: await pendingEmailOf(db, userId, ctx.clock.now()),
    language: language.success ? language.data : null,
    twoFactor: {
      totp: a.totp,
      passkeys: passkeys.map((p) => ({
        id: p.publicId,
        name: p.name,
        createdAt: p.createdAt.toISOString(),
        lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
      })),
      recoveryCodesLeft: await recoveryCodesLeft(db, userId),
    },
  };
}

export async function update(ctx: AppContext, userId: number, body: ProfileUpdate): Promise<Profile> {
  const displayName = body.displayName === undefined ? undefined : body.displayName?.trim() || null;
  await updateProfile(ctx.database.db, userId, { displayName, language: body.language });
  return profile(ctx, userId);
}

/**
 * An e-mail change: nothing changes until the new address opens its link, so a typo or a borrowed
 * session cannot take the account's mail; the old address is told at once.
 */
export async function requestEmailChange(
  ctx: AppContext,
  userId: number,
  body: { email: string; password: string },
): Promise<void> {
  await checkPassword(ctx, userId, body.password);
  const db = ctx.database.db;
  const a = await findAccount(db, userId);
  if (!a) throw notFound();
  const email = body.email.trim();
  if (a.email && a.email.toLowerCase() === email.toLowerCase())
    throw badRequest('This is already the address of the account', 'email_unchanged');
  const portals = await findUserPortals(db, userId);
  const language = a.language ?? (portals.length === 1 ? portals[0]!.defaultLanguage : undefined);
  const now = ctx.clock.now();
  await db.transaction(async (tx) => {
    await retireUserTokens(tx, userId, now, 'email');
    const token = await insertUserToken(tx, userId, 'email', now, EMAIL_LINK_TTL_MS, email);
    const link = `${ctx.config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`;
    await enqueueEmail(tx, emailConfirmEmail({ to: email, userName: a.userName, link, language }), now);
    if (a.email)
      await enqueueEmail(
        tx,
        emailNoticeEmail({ to: a.email, userName: a.userName, newEmail: email, language }),
        now,
      );
  });
  kickOutbox();
}

export async function confirmEmail(ctx: AppContext, token: string): Promise<{ email: string }> {
  const db = ctx.database.db;
  const link = await findLink(db, token);
  if (!link || link.purpose !== 'email' || !link.newEmail || link.usedAt)
    throw notFound('This link is not valid or was already used', 'link_invalid');
  const now = ctx.clock.now();
  if (link.expiresAt.getTime() <= now.getTime())
    throw new AppError(410, 'link_expired', 'This link has expired');
  const email = link.newEmail;
  await db.transaction(async (tx) => {
    if (!(await consumeLink(tx, link.id, now)))
      throw notFound('This link is not valid or was already used', 'link_invalid');
    await setEmail(tx, link.userId, email);
  });
  return { email };
}

export async function sessions(
  ctx: AppContext,
  user: { userId: number; sessionId: number },
): Promise<AccountSession[]> {
  const rows = await listSessions(ctx.database.db, user.userId, ctx.clock.now());
  return rows.map((r) => ({
    id: r.publicId,
    current: r.id === user.sessionId,
    ...describeUserAgent(r.userAgent),
    address: r.ip,
    createdAt: r.createdAt.toISOString(),
    lastSeenAt: (r.lastSeenAt ?? r.createdAt).toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    remember: r.remember,
  }));
}

export async function signOutSession(ctx: AppContext, userId: number, publicId: string): Promise<void> {
  if (!(await endSession(ctx.database.db, userId, publicId, ctx.clock.now())))
    throw notFound('No such session', 'not_found');
}

export async function signOutEverywhere(ctx: AppContext, userId: number): Promise<void> {
  await endAllSessions(ctx.database.db, userId, ctx.clock.now());
}

// --- Authenticator app ---

/** The issuer an app shows beside the code: the user's one portal, else the product. */
async function issuerOf(ctx: AppContext, userId: number): Promise<string> {
  const portals = await findUserPortals(ctx.database.db, userId);
  return portals.length === 1 ? portals[0]!.name : 'Sportello';
}

/**
 * The owner hears of every factor added or removed, in the change's transaction: whoever holds a
 * session and the password could otherwise add their own factor unseen.
 */
async function tellOwner(
  ctx: AppContext,
  tx: Tx,
  userId: number,
  change: FactorChange,
  passkeyName?: string,
): Promise<void> {
  const a = await findAccount(tx, userId);
  if (!a?.email) return;
  const mail = factorChangedEmail({
    to: a.email,
    userName: a.displayName ?? a.userName,
    change,
    language: a.language,
    ...(passkeyName === undefined ? {} : { passkeyName }),
  });
  await enqueueEmail(tx, mail, ctx.clock.now());
}

/**
 * Opens an authenticator app's enrolment, with the password or a code (a session alone adds no
 * factor: the new one would then sign in on its own). The secret confirms within CHALLENGE_TTL_MS.
 */
export async function totpSetup(
  ctx: AppContext,
  userId: number,
  proof: Reauth,
): Promise<{ secret: string; uri: string }> {
  const db = ctx.database.db;
  const a = await findAccount(db, userId);
  if (!a) throw notFound();
  // Replacing a working app takes turning it off first, which needs the password or a code: a session
  // alone (a borrowed browser) cannot move the second factor to another phone.
  if (a.totp) throw conflict('The authenticator app is already on: turn it off first', 'conflict');
  await checkReauth(ctx, userId, proof);
  const { plain, sealed } = newTotpSecret(ctx);
  await setTotp(db, userId, { totpPendingSecret: sealed, totpPendingAt: ctx.clock.now() });
  return { secret: plain, uri: totpUri(await issuerOf(ctx, userId), a.email ?? a.userName, plain) };
}

/** Turns two-factor sign-in on: the first factor also brings the recovery codes. The owner is told. */
async function afterFactorAdded<T>(
  ctx: AppContext,
  userId: number,
  wasOn: boolean,
  change: FactorChange,
  add: (tx: Tx) => Promise<T>,
  passkeyName?: string,
): Promise<{ recoveryCodes?: string[] }> {
  const now = ctx.clock.now();
  const r = await ctx.database.db.transaction(async (tx) => {
    await add(tx);
    await tellOwner(ctx, tx, userId, change, passkeyName);
    if (wasOn) return {};
    return { recoveryCodes: await replaceRecoveryCodes(tx, userId, now) };
  });
  kickOutbox();
  return r;
}

export async function totpConfirm(
  ctx: AppContext,
  userId: number,
  code: string,
): Promise<{ recoveryCodes?: string[] }> {
  const db = ctx.database.db;
  const a = await findAccount(db, userId);
  const opened = a?.totpPendingAt?.getTime() ?? 0;
  if (!a?.totpPendingSecret || opened + CHALLENGE_TTL_MS <= ctx.clock.now().getTime())
    throw conflict('Start again: scan a new code first', 'no_pending_enrolment');
  await throttlePassword(ctx, userId);
  const step = await matchTotp(ctx, a.totpPendingSecret, code, null);
  if (step === undefined) throw wrongCode();
  await clear(db, `password:user:${userId}`);
  const wasOn = hasSecondFactor(await findFactors(db, userId));
  return afterFactorAdded(ctx, userId, wasOn, 'totpAdded', async (tx) => {
    await setTotp(tx, userId, {
      totpSecret: a.totpPendingSecret,
      totpPendingSecret: null,
      totpPendingAt: null,
      totpLastStep: null,
    });
    // The enrolment's code is spent: it may not open a sign-in too.
    await takeTotpStep(tx, userId, step);
  });
}

/** When the last factor goes, so do the recovery codes: there is nothing left to recover. */
async function dropCodesIfNoFactor(ctx: AppContext, userId: number): Promise<void> {
  if (!hasSecondFactor(await findFactors(ctx.database.db, userId)))
    await dropRecoveryCodes(ctx.database.db, userId);
}

export async function totpDisable(ctx: AppContext, userId: number, proof: Reauth): Promise<void> {
  await checkReauth(ctx, userId, proof);
  const wasOn = (await findAccount(ctx.database.db, userId))?.totp ?? false;
  await ctx.database.db.transaction(async (tx) => {
    await setTotp(tx, userId, {
      totpSecret: null,
      totpPendingSecret: null,
      totpPendingAt: null,
      totpLastStep: null,
    });
    if (wasOn) await tellOwner(ctx, tx, userId, 'totpRemoved');
  });
  kickOutbox();
  await dropCodesIfNoFactor(ctx, userId);
}

// --- Passkeys ---

/** Opens a passkey's registration, with the password or a code (as the authenticator app's). */
export async function passkeyOptions(
  ctx: AppContext,
  userId: number,
  proof: Reauth,
): Promise<Record<string, unknown>> {
  const db = ctx.database.db;
  const a = await findAccount(db, userId);
  if (!a) throw notFound();
  await checkReauth(ctx, userId, proof);
  const rp = relyingParty(ctx);
  const options = await generateRegistrationOptions({
    rpName: await issuerOf(ctx, userId),
    rpID: rp.rpID,
    userName: a.userName,
    userDisplayName: a.displayName ?? a.userName,
    userID: new TextEncoder().encode(`sportello-user-${userId}`),
    attestationType: 'none',
    excludeCredentials: credentialDescriptors(await passkeysOf(db, userId)),
    authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
  });
  const now = ctx.clock.now();
  await purgeChallenges(db, userId, 'passkey', now);
  await openChallenge(db, userId, 'passkey', now, { webauthnChallenge: options.challenge });
  return options as unknown as Record<string, unknown>;
}

export async function passkeyAdd(
  ctx: AppContext,
  userId: number,
  body: { name: string; response: Record<string, unknown> },
): Promise<{ recoveryCodes?: string[] }> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const challenge = await findPasskeyChallenge(db, userId, now);
  if (!challenge?.webauthnChallenge)
    throw conflict('Start again: the registration has expired', 'no_pending_enrolment');
  const credential = await verifyPasskeyRegistration(ctx, challenge.webauthnChallenge, body.response);
  if (!credential) throw wrongCode();
  const wasOn = hasSecondFactor(await findFactors(db, userId));
  const name = body.name.trim();
  return afterFactorAdded(
    ctx,
    userId,
    wasOn,
    'passkeyAdded',
    async (tx) => {
      if (!(await consumeChallenge(tx, challenge.id, now)))
        throw conflict('Start again: the registration has expired', 'no_pending_enrolment');
      if (!(await insertPasskey(tx, { userId, name, createdAt: now, ...credential })))
        throw conflict('This passkey is already registered', 'passkey_exists');
    },
    name,
  );
}

export async function passkeyRemove(
  ctx: AppContext,
  userId: number,
  publicId: string,
  proof: Reauth,
): Promise<void> {
  await checkReauth(ctx, userId, proof);
  await ctx.database.db.transaction(async (tx) => {
    const name = await deletePasskey(tx, userId, publicId);
    if (name === undefined) throw notFound('No such passkey', 'not_found');
    await tellOwner(ctx, tx, userId, 'passkeyRemoved', name);
  });
  kickOutbox();
  await dropCodesIfNoFactor(ctx, userId);
}

export async function renewRecoveryCodes(
  ctx: AppContext,
  userId: number,
  proof: Reauth,
): Promise<{ recoveryCodes: string[] }> {
  if (!hasSecondFactor(await findFactors(ctx.database.db, userId)))
    throw conflict('Two-factor sign-in is off', 'two_factor_off');
  await checkReauth(ctx, userId, proof);
  return { recoveryCodes: await replaceRecoveryCodes(ctx.database.db, userId, ctx.clock.now()) };
}
