import {
  portalLanguageSchema,
  type LoginAnswer,
  type MeAnswer,
  type SecondFactorAnswer,
  type SessionAnswer,
} from '@sportello/contracts';
import { invalidSession } from '../../platform/auth';
import type { ViewAs } from '../../platform/view-session';
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
  isRemembered,
  LAST_SEEN_STEP_MS,
  touchSession,
  loadMeRows,
  loadViewMeRow,
  retireUserTokens,
  revokeAllSessions,
  revokeSession,
  setPassword,
  type LoginCandidate,
  type LinkRow,
  type SessionMeta,
} from './auth.queries';
import {
  consumeChallenge,
  findFactors,
  findLoginChallenge,
  hasSecondFactor,
  methodsOf,
  openChallenge,
  passkeyAuthenticationOptions,
  passkeysOf,
  purgeChallenges,
  setWebauthnChallenge,
  useAnyCode,
  usePasskey,
} from './two-factor';

/** Throttling windows (shared with the staff sign-in: platform/rate-limit.ts). */
export const LIMITS = SIGN_IN_LIMITS;

export const RECOVERY_TTL_MS = 3600_000;

/** Second-factor attempts of one account from every address together (each address has 5 of them). */
export const SECOND_FACTOR_PER_ACCOUNT = { limit: 20, windowSeconds: 15 * 60 };

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
  meta: SessionMeta,
): Promise<LoginAnswer> {
  const ip = meta.ip;
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
  const challenge = await secondFactorChallenge(ctx, user.id, meta.remember);
  if (challenge) return challenge;
  return toAnswer(await insertSession(db, user.id, ctx.clock.now(), ctx.config.TOKEN_TTL_HOURS, meta));
}

/**
 * For an account with two-factor sign-in, the ticket of a sign-in waiting for its second factor
 * (nothing else opens a session for it: not the password, not a recovery link); else undefined.
 */
async function secondFactorChallenge(
  ctx: AppContext,
  userId: number,
  remember: boolean,
): Promise<SecondFactorAnswer | undefined> {
  const db = ctx.database.db;
  const factors = await findFactors(db, userId);
  if (!hasSecondFactor(factors)) return undefined;
  const now = ctx.clock.now();
  await purgeChallenges(db, userId, 'login', now);
  const c = await openChallenge(db, userId, 'login', now, { remember });
  return {
    secondFactor: { ticket: c.ticket, methods: methodsOf(factors), expiresAt: c.expiresAt.toISOString() },
  };
}

const wrongCode = () => unauthorized('The code is not right', 'wrong_code');
const challengeExpired = () =>
  unauthorized('This sign-in has expired: please sign in again', 'challenge_expired');

/**
 * Finishes a two-factor sign-in: the ticket of `login` (or `confirm`) and a code of the authenticator
 * app, a recovery code, or a passkey's answer. Attempts count like passwords: on the account's counter
 * from this address and on the address's, so five wrong codes close the account to that address.
 */
export async function finishSecondFactor(
  ctx: AppContext,
  req: { ticket: string; code?: string | undefined; passkey?: Record<string, unknown> | undefined },
  meta: Omit<SessionMeta, 'remember'>,
): Promise<SessionAnswer> {
  const db = ctx.database.db;
  const challenge = await findLoginChallenge(db, req.ticket, ctx.clock.now());
  if (!challenge) throw challengeExpired();
  const address = addressKey(meta.ip);
  const ipKey = `login:ip:${address}`;
  const own = accountKey(challenge.userId, address);
  // And across addresses: the password is known here, only the code stands between a guesser and the
  // account, so many addresses must not add up to many guesses.
  const accountWide = `second-factor:user:${challenge.userId}`;
  await throttle(ctx, ipKey, LIMITS.loginPerIp);
  await throttle(ctx, own, LIMITS.loginPerAccountAndAddress);
  await throttle(ctx, accountWide, SECOND_FACTOR_PER_ACCOUNT);

  const ok =
    req.code !== undefined
      ? await useAnyCode(ctx, db, challenge.userId, req.code)
      : !!challenge.webauthnChallenge &&
        (await usePasskey(ctx, db, challenge.userId, challenge.webauthnChallenge, req.passkey ?? {}));
  if (!ok) throw wrongCode();

  const now = ctx.clock.now();
  const session = await db.transaction(async (tx) => {
    if (!(await consumeChallenge(tx, challenge.id, now))) throw challengeExpired();
    return insertSession(tx, challenge.userId, now, ctx.config.TOKEN_TTL_HOURS, {
      ...meta,
      remember: challenge.remember,
    });
  });
  await clear(db, own);
  await clear(db, accountWide);
  await unhit(db, ipKey);
  return toAnswer(session);
}

/** The WebAuthn options for a sign-in's ticket; the challenge is kept on the ticket's row. */
export async function passkeyLoginOptions(ctx: AppContext, ticket: string): Promise<Record<string, unknown>> {
  const db = ctx.database.db;
  const challenge = await findLoginChallenge(db, ticket, ctx.clock.now());
  if (!challenge) throw challengeExpired();
  const rows = await passkeysOf(db, challenge.userId);
  if (rows.length === 0) throw wrongCode();
  const options = await passkeyAuthenticationOptions(ctx, rows);
  await setWebauthnChallenge(db, challenge.id, options.challenge);
  return options as unknown as Record<string, unknown>;
}

/** The failed-login counter of one account from one address (see `login`). */
const accountKey = (userId: number, address: string) => `login:user:${userId}:${address}`;

export async function logout(ctx: AppContext, sessionId: number): Promise<void> {
  await revokeSession(ctx.database.db, sessionId, ctx.clock.now());
}

export async function me(
  ctx: AppContext,
  userId: number,
  sessionId: number,
  viewAs?: ViewAs,
): Promise<MeAnswer> {
  if (viewAs) return viewAsMe(ctx, viewAs);
  const rows = await loadMeRows(ctx.database.db, userId, sessionId);
  const first = rows[0];
  if (!first) throw invalidSession();
  const now = ctx.clock.now();
  // Every page load asks for the user: that is the session's "last seen" (the profile lists it),
  // written only when it is older than a few minutes.
  if (!first.lastSeenAt || now.getTime() - first.lastSeenAt.getTime() >= LAST_SEEN_STEP_MS)
    await touchSession(ctx.database.db, sessionId, now);
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
  const language = portalLanguageSchema.safeParse(first.language);
  return {
    id: first.userId,
    userName: first.userName,
    displayName: first.displayName,
    language: language.success ? language.data : null,
    contacts,
    maxUploadBytes: ctx.config.MAX_UPLOAD_MB * 1024 * 1024,
  };
}

/** A "see as this contact" session: the one contact, as its users see it; no user, no language. */
async function viewAsMe(ctx: AppContext, v: ViewAs): Promise<MeAnswer> {
  const r = await loadViewMeRow(ctx.database.db, v.tenant.contactId);
  if (!r || r.contactExtId === null || r.companyName === null || r.settings === null) throw invalidSession();
  return {
    id: 0,
    userName: v.viewer,
    displayName: null,
    language: null,
    contacts: [
      {
        contactId: r.contactExtId,
        companyName: r.companyName,
        ...flagsOf(r),
        portalSettings: toPortalSettings(r.settings, ctx.signer, ctx.clock.now()),
      },
    ],
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

  const named = req.company?.toLowerCase();
  const candidates = (await findUsersByNameOrEmail(db, userName)).filter((u) => u.email);
  // An e-mail several accounts share: the accounts of the portal the request names. Another portal
  // giving one of its users this address must not silence this portal's recovery (its actions stay
  // in it); whatever accounts remain, each gets its own link at its own address.
  const portalsOf = new Map<number, Awaited<ReturnType<typeof findUserPortals>>>();
  for (const u of candidates) portalsOf.set(u.id, await findUserPortals(db, u.id));
  const inNamed = named
    ? candidates.filter((u) => portalsOf.get(u.id)!.some((p) => p.key.toLowerCase() === named))
    : [];
  const chosen = inNamed.length > 0 ? inNamed : candidates;
  const now = ctx.clock.now();
  await db.transaction(async (tx) => {
    for (const user of chosen) {
      const own = portalsOf.get(user.id)!;
      const portal = named ? own.find((p) => p.key.toLowerCase() === named) : undefined;
      // The language the user chose in the profile first, then the screen's, then the portal's.
      const language =
        user.language ?? req.language ?? (portal ?? (own.length === 1 ? own[0] : undefined))?.defaultLanguage;
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
    }
  });
  kickOutbox();
}

/** What a link is for, so the confirm page can say so; 404 unknown or used, 410 expired. */
export async function checkLink(
  ctx: AppContext,
  token: string,
): Promise<{ purpose: 'invite' | 'recovery'; userName: string }> {
  const link = passwordLink(await findLink(ctx.database.db, token));
  if (!link || link.usedAt) throw linkInvalid();
  if (link.expiresAt.getTime() <= ctx.clock.now().getTime()) throw linkExpired();
  return { purpose: link.purpose, userName: link.userName };
}

/** Only invitation and recovery links set a password (an e-mail change's link is not one). */
const passwordLink = (link: LinkRow | undefined) =>
  link && link.purpose !== 'email' ? { ...link, purpose: link.purpose } : undefined;

/**
 * Sets the password from an invitation or recovery link, ends every session, and signs the user in, or,
 * for an account with two-factor sign-in, answers the ticket of its second factor: a mailbox alone does
 * not open the account.
 */
export async function confirm(
  ctx: AppContext,
  token: string,
  password: string,
  passwordRepeat: string,
  meta: Omit<SessionMeta, 'remember'>,
): Promise<LoginAnswer> {
  checkNewPassword(password, passwordRepeat);
  const db = ctx.database.db;
  const link = passwordLink(await findLink(db, token));
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
    const factors = await findFactors(tx, link.userId);
    if (hasSecondFactor(factors)) return undefined;
    return insertSession(tx, link.userId, now, ctx.config.TOKEN_TTL_HOURS, { ...meta, remember: false });
  });
  // A new password ends every lockout of the account, from every address.
  await clearPrefix(db, `login:user:${link.userId}:`);
  if (session) return toAnswer(session);
  const challenge = await secondFactorChallenge(ctx, link.userId, false);
  if (!challenge) throw linkInvalid();
  return challenge;
}

/**
 * Changes the password of the signed-in user. Every session of the user ends, this one included, and
 * a fresh token is answered: whoever held an old token (another browser, a thief) is signed out.
 */
export async function changePassword(
  ctx: AppContext,
  user: { userId: number; sessionId: number },
  currentPassword: string,
  newPassword: string,
  meta: Omit<SessionMeta, 'remember'>,
): Promise<SessionAnswer> {
  const userId = user.userId;
  const db = ctx.database.db;
  await throttle(ctx, `password:user:${userId}`, LIMITS.passwordChangePerUser);
  const stored = await findPasswordHash(db, userId);
  if (!(await verifyPassword(stored, currentPassword)))
    throw badRequest('The current password is wrong', 'wrong_password');
  checkNewPassword(newPassword);
  const hash = await hashPassword(newPassword);
  const now = ctx.clock.now();
  const remember = await isRemembered(db, user.sessionId);
  const session = await db.transaction(async (tx) => {
    await setPassword(tx, userId, hash, now);
    await retireUserTokens(tx, userId, now);
    await revokeAllSessions(tx, userId, now);
    return insertSession(tx, userId, now, ctx.config.TOKEN_TTL_HOURS, { ...meta, remember });
  });
  await clear(db, `password:user:${userId}`);
  return toAnswer(session);
}
