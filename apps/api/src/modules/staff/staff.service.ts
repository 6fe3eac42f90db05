import {
  staffErrorCodes,
  type StaffLinkAnswer,
  type StaffMeAnswer,
  type StaffRole,
  type StaffSessionAnswer,
} from '@sportello/contracts';
import type { Tx } from '../../db/client';
import type { AppContext } from '../../platform/context';
import { AppError, badRequest, notFound, tooMany, unauthorized } from '../../platform/errors';
import { enqueueEmail, kickOutbox } from '../../platform/outbox';
import { burnPasswordCheck, checkNewPassword, hashPassword, verifyPassword } from '../../platform/passwords';
import {
  addressKey,
  clear,
  clearPrefix,
  hit,
  SIGN_IN_LIMITS as LIMITS,
  unhit,
} from '../../platform/rate-limit';
import { ensureStaffAgent } from '../tickets/core';
import { staffLinkEmail } from './staff.mail';
import {
  agentTaken,
  consumeStaffLink,
  findAgentByEmail,
  findPortalByKey,
  findStaffByEmail,
  findStaffLink,
  insertStaffSession,
  insertStaffToken,
  listMemberships,
  retireStaffTokens,
  revokeAllStaffSessions,
  revokeStaffSession,
  setStaffPassword,
  touchMembership,
  upsertMembership,
  upsertStaffUser,
} from './staff.queries';

export const STAFF_INVITE_TTL_MS = 7 * 24 * 3600_000;
export const STAFF_RECOVERY_TTL_MS = 3600_000;

const wrongCredentials = () => unauthorized('Wrong e-mail or password', 'wrong_credentials');
const linkInvalid = () => notFound('This link is not valid or was already used', 'link_invalid');
const linkExpired = () => new AppError(410, 'link_expired', 'This link has expired');

const toAnswer = (s: { token: string; expiresAt: Date }): StaffSessionAnswer => ({
  token: s.token,
  expiresAt: s.expiresAt.toISOString(),
});

async function throttle(ctx: AppContext, key: string, rule: { limit: number; windowSeconds: number }) {
  const r = await hit(ctx.database.db, key, rule.limit, rule.windowSeconds, ctx.clock.now());
  if (!r.allowed)
    throw tooMany('Too many attempts: please wait and try again', 'too_many_attempts', r.retryAfterSeconds);
}

/** The page a staff link opens: the portal's own branded staff page. */
export const staffLinkUrl = (ctx: AppContext, portalKey: string, token: string) =>
  `${ctx.config.publicUrl}/${encodeURIComponent(portalKey)}/staff/accept?token=${encodeURIComponent(token)}`;

/**
 * Staff sign-in, throttled with the contacts' limits but on counters of its own (a flood against one
 * side does not lock the other out). Unknown, invited (no password yet) and disabled users get the same
 * answer as a wrong password, after the same argon2 work.
 */
export async function staffLogin(
  ctx: AppContext,
  email: string,
  password: string,
  ip: string,
): Promise<StaffSessionAnswer> {
  const db = ctx.database.db;
  const user = await findStaffByEmail(db, email);
  const address = addressKey(ip);
  const ipKey = `staff-login:ip:${address}`;
  // Failures count per account and address (a guesser's address is stopped, not the owner), as for
  // contacts; unknown e-mails count by their text, so they cost a caller the same as known ones.
  const accountKey = user
    ? `staff-login:user:${user.id}:${address}`
    : `staff-login:name:${email.trim().toLowerCase()}:${address}`;
  await throttle(ctx, ipKey, LIMITS.loginPerIp);
  await throttle(ctx, accountKey, LIMITS.loginPerAccountAndAddress);
  const usable = user && user.status === 'active' && user.passwordHash ? user : undefined;
  if (!usable) {
    await burnPasswordCheck(password);
    throw wrongCredentials();
  }
  if (!(await verifyPassword(usable.passwordHash, password))) throw wrongCredentials();
  await clear(db, accountKey);
  await unhit(db, ipKey);
  const now = ctx.clock.now();
  return toAnswer(await insertStaffSession(db, usable.id, now, ctx.config.TOKEN_TTL_HOURS));
}

export async function staffLogout(ctx: AppContext, sessionId: number): Promise<void> {
  await revokeStaffSession(ctx.database.db, sessionId, ctx.clock.now());
}

export async function staffMe(
  ctx: AppContext,
  who: { staffUserId: number; email: string; displayName: string },
): Promise<StaffMeAnswer> {
  const rows = await listMemberships(ctx.database.db, who.staffUserId);
  return {
    id: who.staffUserId,
    email: who.email,
    displayName: who.displayName,
    portals: rows.map((r) => ({ webPortalKey: r.portalKey, webPortalName: r.portalName, role: r.role })),
  };
}

/**
 * Mails a recovery link when the e-mail is a staff user of that portal who may sign in. The caller
 * answers the same whatever happens here, so nobody learns whether an account exists.
 */
export async function staffRecovery(
  ctx: AppContext,
  email: string,
  portalKey: string,
  ip: string,
): Promise<void> {
  const db = ctx.database.db;
  await throttle(ctx, `staff-recovery:ip:${addressKey(ip)}`, LIMITS.recoveryPerIp);
  await throttle(ctx, `staff-recovery:name:${email.trim().toLowerCase()}`, LIMITS.recoveryPerName);
  const user = await findStaffByEmail(db, email);
  if (!user || user.status === 'disabled') return;
  const member = (await listMemberships(db, user.id)).find((m) => m.portalKey === portalKey.toLowerCase());
  if (!member) return;
  const now = ctx.clock.now();
  await db.transaction(async (tx) => {
    await retireStaffTokens(tx, user.id, now, 'recovery');
    const token = await insertStaffToken(tx, {
      staffUserId: user.id,
      portalId: member.portalId,
      purpose: 'recovery',
      now,
      ttlMs: STAFF_RECOVERY_TTL_MS,
    });
    await enqueueEmail(
      tx,
      staffLinkEmail({
        kind: 'recovery',
        to: user.email,
        displayName: user.displayName,
        portalName: member.portalName,
        link: staffLinkUrl(ctx, member.portalKey, token),
        language: member.defaultLanguage,
      }),
      now,
    );
  });
  kickOutbox();
}

/** What a staff link is for; 404 unknown or used, 410 expired. */
export async function checkStaffLink(ctx: AppContext, token: string): Promise<StaffLinkAnswer> {
  const link = await findStaffLink(ctx.database.db, token);
  if (!link || link.usedAt || link.status === 'disabled') throw linkInvalid();
  if (link.expiresAt.getTime() <= ctx.clock.now().getTime()) throw linkExpired();
  return {
    purpose: link.purpose,
    email: link.email,
    displayName: link.displayName,
    webPortalKey: link.portalKey,
  };
}

/** Accepts an invitation or recovery link: sets the password, ends every staff session, signs in. */
export async function confirmStaffLink(
  ctx: AppContext,
  token: string,
  password: string,
  passwordRepeat: string,
): Promise<StaffSessionAnswer> {
  checkNewPassword(password, passwordRepeat);
  const db = ctx.database.db;
  const link = await findStaffLink(db, token);
  if (!link || link.usedAt || link.status === 'disabled') throw linkInvalid();
  if (link.expiresAt.getTime() <= ctx.clock.now().getTime()) throw linkExpired();
  const hash = await hashPassword(password);
  const now = ctx.clock.now();
  const session = await db.transaction(async (tx) => {
    if (!(await consumeStaffLink(tx, link.id, now))) throw linkInvalid();
    await setStaffPassword(tx, link.staffUserId, hash, now);
    await retireStaffTokens(tx, link.staffUserId, now);
    await revokeAllStaffSessions(tx, link.staffUserId, now);
    // Accepting a portal's link is using that portal: its access list shows the member as active.
    await touchMembership(tx, link.staffUserId, link.portalId, now);
    return insertStaffSession(tx, link.staffUserId, now, ctx.config.TOKEN_TTL_HOURS);
  });
  await clearPrefix(db, `staff-login:user:${link.staffUserId}:`);
  return toAnswer(session);
}

export interface InviteResult {
  /** The single-use password link; for a user already active, the portal's staff page instead. */
  link: string;
  /** The user already had a password (from another portal): added to this one, password untouched. */
  alreadyActive: boolean;
  email: string;
  displayName: string;
  role: StaffRole;
  /** Whether the person is the portal's agent known from the import (tickets name them). */
  matchedAgent: boolean;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The portal's staff desk page (sign-in when not signed in). */
export const staffDeskUrl = (ctx: AppContext, portalKey: string) =>
  `${ctx.config.publicUrl}/${encodeURIComponent(portalKey)}/staff`;

/**
 * Invites a person to a portal's staff desk: creates the staff user (or reuses the one of that
 * e-mail), makes them a member with at least `role`, ties them to the portal's agent of the same
 * e-mail (the import's agents become staff this way), and queues the invitation e-mail in the same
 * transaction. Any earlier open invitation of the user is retired: only the newest link works.
 * A user who already signs in (active in another portal) only gains the membership and is told so:
 * an invitation link would let whoever reads that mailbox set the account's password.
 */
export async function inviteStaff(
  ctx: AppContext,
  portalKey: string,
  email: string,
  role: StaffRole,
  /** More of the same change, in its transaction (the desk's groups and audit row). */
  within?: (tx: Tx, r: InviteResult & { staffUserId: number; portalId: number }) => Promise<void>,
  /**
   * The name customers will see on the new member's replies. A person already on the staff keeps
   * the name they set (their profile's); without one, the import's agent name or the e-mail's.
   */
  displayName?: string,
): Promise<InviteResult> {
  const clean = email.trim();
  if (!EMAIL_RE.test(clean) || clean.length > 320)
    throw badRequest(`Not an e-mail address: ${clean}`, 'invalid_email');
  const db = ctx.database.db;
  const portal = await findPortalByKey(db, portalKey);
  if (!portal) throw notFound(`No portal with key ${portalKey}`, 'portal_not_found');
  const now = ctx.clock.now();
  const result = await db.transaction(async (tx) => {
    const agent = await findAgentByEmail(tx, portal.id, clean);
    const agentId = agent && !(await agentTaken(tx, agent.id)) ? agent.id : null;
    const name = displayName?.trim() || agent?.displayName || clean.split('@')[0]!;
    const user = await upsertStaffUser(tx, clean, name, now);
    if (user.status === 'disabled')
      throw new AppError(409, staffErrorCodes.staffDisabled, 'This staff user is disabled');
    await upsertMembership(tx, { staffUserId: user.id, portalId: portal.id, role, agentId, now });
    const member = async () => (await listMemberships(tx, user.id)).find((m) => m.portalId === portal.id)!;
    const matchedAgent = agent !== undefined && (await member()).agentId === agent.id;
    // Every member is an agent of the portal (assignable, shown to customers as a reply's author).
    await ensureStaffAgent(tx, portal.id, user.id);
    if (user.status === 'active') {
      const link = staffDeskUrl(ctx, portal.key);
      await enqueueEmail(
        tx,
        staffLinkEmail({
          kind: 'added',
          to: user.email,
          displayName: user.displayName,
          portalName: portal.name,
          link,
          language: portal.defaultLanguage,
        }),
        now,
      );
      const m = await member();
      const r: InviteResult = {
        link,
        alreadyActive: true,
        email: user.email,
        displayName: user.displayName,
        role: m.role,
        matchedAgent,
      };
      await within?.(tx, { ...r, staffUserId: user.id, portalId: portal.id });
      return r;
    }
    await retireStaffTokens(tx, user.id, now, 'invite');
    const token = await insertStaffToken(tx, {
      staffUserId: user.id,
      portalId: portal.id,
      purpose: 'invite',
      now,
      ttlMs: STAFF_INVITE_TTL_MS,
    });
    const link = staffLinkUrl(ctx, portal.key, token);
    await enqueueEmail(
      tx,
      staffLinkEmail({
        kind: 'invite',
        to: user.email,
        displayName: user.displayName,
        portalName: portal.name,
        link,
        language: portal.defaultLanguage,
      }),
      now,
    );
    const m = await member();
    const r: InviteResult = {
      link,
      alreadyActive: false,
      email: user.email,
      displayName: user.displayName,
      role: m.role,
      matchedAgent,
    };
    await within?.(tx, { ...r, staffUserId: user.id, portalId: portal.id });
    return r;
  });
  kickOutbox();
  return result;
}
