import type { MeAnswer, SessionAnswer } from '@sportello/contracts';
import { invalidSession, issueSession } from '../../platform/auth';
import { emitUserActivated } from '../../platform/events';
import type { AppContext } from '../../platform/context';
import { flagsOf } from '../../platform/tenancy';
import { AppError, badRequest, notFound, tooMany, unauthorized } from '../../platform/errors';
import { burnPasswordCheck, hashPassword, checkNewPassword, verifyPassword } from '../../platform/passwords';
import { enqueueEmail, kickOutbox } from '../../platform/outbox';
import { addressKey, clear, clearPrefix, hit, SIGN_IN_LIMITS, unhit } from '../../platform/rate-limit';
import { toPortalSettings } from '../../platform/portal-settings';
import { recoveryEmail } from '../../platform/account-mail';
import {
  consumeLink,
  findLink,
  findPasswordHash,
  findUserPortals,
  findUsersByNameOrEmail,
  insertSession,
  insertUserToken,
  loadMeRows,
  retireUserTokens,
  revokeAllSessions,
  revokeSession,
  setPassword,
  type LoginCandidate,
} from './auth.queries';

/** Throttling windows (shared with the staff sign-in: platform/rate-limit.ts). */
export const LIMITS = SIGN_IN_LIMITS;

export const RECOVERY_TTL_MS = 3600_000;

const wrongCredentials = () => unauthorized('Wrong username or password', 'wrong_credentials');
const tooManyAttempts = (retryAfterSeconds: number) =>
  tooMany('Too many attempts: please wait and try again', 'too_many_attempts', retryAfterSeconds);
const linkInvalid = () => notFound('This link is not valid or was already used', 'link_invalid');
const linkExpired = () => new AppError(410, 'link_expired', 'This link has expired');

const toAnswer = (s: { token: string; expiresAt: Date }): SessionAnswer => ({
  token: s.token,
  expiresAt: s.expiresAt.toISOString(),
});

async function throttle(
  ctx: AppContext,
  key: string,
  rule: { limit: number; windowSeconds: number },
): Promise<void> {
  const r = await hit(ctx.database.db, key, rule.limit, rule.windowSeconds, ctx.clock.now());
  if (!r.allowed) throw tooManyAttempts(r.retryAfterSeconds);
}

/** Verifies a password against the candidates; spends the same argon2 work when there is nobody to check. */
async function matchCandidate(
  candidates: LoginCandidate[],
  password: string,
): Promise<LoginCandidate | undefined> {
  let checked = false;
  for (const c of candidates) {
    if (!c.passwordHash) continue;
    checked = true;
    if (await verifyPassword(c.passwordHash, password)) return c;
  }
  if (!checked) await burnPasswordCheck(password);
  return undefined;
}

/**
 * Every attempt is counted before the password is checked (so parallel guesses cannot slip past the
 * limit): once per address, and once per account it names *from that address*. So five wrong passwords
 * close that account to that address only, and the owner elsewhere still gets in. A name shared by
 * several accounts (an e-mail) counts against each of them: it cannot be used to dodge an account's
 * counter. A success takes its own attempt back from the address and clears the account's counter there.
 */
export async function login(
  ctx: AppContext,
  userName: string,
  password: string,
  ip: string,
): Promise<SessionAnswer> {
  const db = ctx.database.db;
  const candidates = await findUsersByNameOrEmail(db, userName);
  const address = addressKey(ip);
  const ipKey = `login:ip:${address}`;
  // Unknown names count by their text, so they cost a caller the same as known ones.
  const accountKeys =
    candidates.length > 0
      ? candidates.map((c) => accountKey(c.id, address))
      : [`login:name:${userName.trim().toLowerCase()}:${address}`];
  await throttle(ctx, ipKey, LIMITS.loginPerIp);
  for (const key of accountKeys) await throttle(ctx, key, LIMITS.loginPerAccountAndAddress);

  const user = await matchCandidate(candidates, password);
  if (!user) throw wrongCredentials();

  const own = accountKey(user.id, address);
  for (const key of accountKeys) await (key === own ? clear(db, key) : unhit(db, key));
  await unhit(db, ipKey);
  return toAnswer(await issueSession(db, ctx.clock, user.id, ctx.config.TOKEN_TTL_HOURS));
}

/** The failed-login counter of one account from one address (see `login`). */
const accountKey = (userId: number, address: string) => `login:user:${userId}:${address}`;

export async function logout(ctx: AppContext, sessionId: number): Promise<void> {
  await revokeSession(ctx.database.db, sessionId, ctx.clock.now());
}

export async function me(ctx: AppContext, userId: number): Promise<MeAnswer> {
  const rows = await loadMeRows(ctx.database.db, userId);
  const first = rows[0];
  if (!first) throw invalidSession();
  const now = ctx.clock.now();
  const contacts: MeAnswer['contacts'] = [];
  for (const r of rows) {
    if (r.contactExtId === null || r.companyName === null || r.settings === null) continue;
    contacts.push({
      contactId: r.contactExtId,
      companyName: r.companyName,
      ...flagsOf(r),
      portalSettings: toPortalSettings(r.settings, ctx.signer, now),
    });
  }
  return {
    id: first.userId,
    userName: first.userName,
    contacts,
    maxUploadBytes: ctx.config.MAX_UPLOAD_MB * 1024 * 1024,
  };
}

/**
 * Mails a single-use recovery link when the name or e-mail belongs to a user with an e-mail address.
 * The caller answers the same whatever happens here, so nobody learns whether an account exists.
 * The e-mail wears the branding of the portal named in the request only if the user belongs to it
 * (anyone may name any portal), and speaks the language of the screen it was asked from, else that
 * of the user's portal.
 */
export async function requestRecovery(
  ctx: AppContext,
  req: { userName: string; company?: string | undefined; language?: string | undefined },
  ip: string,
): Promise<void> {
  const db = ctx.database.db;
  const userName = req.userName;
  await throttle(ctx, `recovery:ip:${addressKey(ip)}`, LIMITS.recoveryPerIp);
  await throttle(ctx, `recovery:name:${userName.trim().toLowerCase()}`, LIMITS.recoveryPerName);

  const candidates = await findUsersByNameOrEmail(db, userName);
  // An e-mail shared by several users names none of them for sure: send nothing rather than guess.
  const user = candidates.length === 1 ? candidates[0] : undefined;
  if (!user?.email) return;
  const own = await findUserPortals(db, user.id);
  const named = req.company?.toLowerCase();
  const portal = named ? own.find((p) => p.key.toLowerCase() === named) : undefined;
  const language = req.language ?? (portal ?? (own.length === 1 ? own[0] : undefined))?.defaultLanguage;
  const now = ctx.clock.now();
  await db.transaction(async (tx) => {
    // A new link replaces any earlier recovery link still open.
    await retireUserTokens(tx, user.id, now, 'recovery');
    const token = await insertUserToken(tx, user.id, 'recovery', now, RECOVERY_TTL_MS);
    const link =
      `${ctx.config.publicUrl}/confirm?token=${encodeURIComponent(token)}` +
      (portal ? `&company=${encodeURIComponent(portal.key)}` : '');
    await enqueueEmail(
      tx,
      recoveryEmail({ to: user.email!, userName: user.userName, portalName: portal?.name, link, language }),
      now,
    );
  });
  kickOutbox();
}

/** What a link is for, so the confirm page can say so; 404 unknown or used, 410 expired. */
export async function checkLink(
  ctx: AppContext,
  token: string,
): Promise<{ purpose: 'invite' | 'recovery'; userName: string }> {
  const link = await findLink(ctx.database.db, token);
  if (!link || link.usedAt) throw linkInvalid();
  if (link.expiresAt.getTime() <= ctx.clock.now().getTime()) throw linkExpired();
  return { purpose: link.purpose, userName: link.userName };
}

/** Sets the password from an invitation or recovery link, ends every session, and signs the user in. */
export async function confirm(
  ctx: AppContext,
  token: string,
  password: string,
  passwordRepeat: string,
): Promise<SessionAnswer> {
  checkNewPassword(password, passwordRepeat);
  const db = ctx.database.db;
  const link = await findLink(db, token);
  if (!link || link.usedAt) throw linkInvalid();
  if (link.expiresAt.getTime() <= ctx.clock.now().getTime()) throw linkExpired();
  // Hashing takes a while: outside the transaction, which then re-checks the link atomically.
  const hash = await hashPassword(password);
  const now = ctx.clock.now();
  const session = await db.transaction(async (tx) => {
    if (!(await consumeLink(tx, link.id, now))) throw linkInvalid();
    await setPassword(tx, link.userId, hash, now);
    await retireUserTokens(tx, link.userId, now);
    await revokeAllSessions(tx, link.userId, now);
    if (link.purpose === 'invite') await emitUserActivated(tx, ctx, link.userId);
    return insertSession(tx, link.userId, now, ctx.config.TOKEN_TTL_HOURS);
  });
  // A new password ends every lockout of the account, from every address.
  await clearPrefix(db, `login:user:${link.userId}:`);
  return toAnswer(session);
}

/**
 * Changes the password of the signed-in user. Every session of the user ends, this one included, and
 * a fresh token is answered: whoever held an old token (another browser, a thief) is signed out.
 */
export async function changePassword(
  ctx: AppContext,
  userId: number,
  currentPassword: string,
  newPassword: string,
): Promise<SessionAnswer> {
  const db = ctx.database.db;
  await throttle(ctx, `password:user:${userId}`, LIMITS.passwordChangePerUser);
  const stored = await findPasswordHash(db, userId);
  if (!(await verifyPassword(stored, currentPassword)))
    throw badRequest('The current password is wrong', 'wrong_password');
  checkNewPassword(newPassword);
  const hash = await hashPassword(newPassword);
  const now = ctx.clock.now();
  const session = await db.transaction(async (tx) => {
    await setPassword(tx, userId, hash, now);
    await retireUserTokens(tx, userId, now);
    await revokeAllSessions(tx, userId, now);
    return insertSession(tx, userId, now, ctx.config.TOKEN_TTL_HOURS);
  });
  await clear(db, `password:user:${userId}`);
  return toAnswer(session);
}
