import { REMEMBER_DAYS, type PermissionFlag } from '@sportello/contracts';
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { permissionColumns } from '../../platform/tenancy';
import {
  companies,
  contacts,
  files,
  portals,
  sessions,
  userContacts,
  userTokens,
  users,
} from '../../db/schema';
import { newToken, sha256 } from '../../platform/auth';
import { preparedPerDb } from '../../platform/prepared';
import { portalSettingsColumns, type PortalSettingsRow } from '../../platform/portal-settings';

type Conn = Db | Tx;

export interface LoginCandidate {
  id: number;
  userName: string;
  email: string | null;
  passwordHash: string | null;
  /** Chosen in the profile: the language of the user's e-mails. */
  language: string | null;
}

/**
 * Users a login name may mean: the one whose user name it is, else those whose e-mail it is (e-mails
 * are not unique across users). Case-insensitive, name matches first.
 */
export async function findUsersByNameOrEmail(db: Conn, nameOrEmail: string): Promise<LoginCandidate[]> {
  const needle = nameOrEmail.trim().toLowerCase();
  const nameMatch = sql`lower(${users.userName}) = ${needle}`;
  const rows = await db
    .select({
      id: users.id,
      userName: users.userName,
      email: users.email,
      passwordHash: users.passwordHash,
      language: users.language,
    })
    .from(users)
    .where(or(nameMatch, sql`lower(${users.email}) = ${needle}`))
    .orderBy(sql`case when ${nameMatch} then 0 else 1 end`, asc(users.id))
    .limit(5);
  const byName = rows.find((r) => r.userName.toLowerCase() === needle);
  return byName ? [byName] : rows;
}

export async function findPasswordHash(db: Conn, userId: number): Promise<string | null> {
  const rows = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0]?.hash ?? null;
}

export interface MeRow extends Record<PermissionFlag, boolean | null> {
  userId: number;
  userName: string;
  displayName: string | null;
  language: string | null;
  /** The "last seen" of the session asking (the same statement reads it). */
  lastSeenAt: Date | null;
  contactExtId: number | null;
  companyName: string | null;
  /** Null when the user holds no contact (the left joins found nothing). */
  settings: PortalSettingsRow | null;
}

/** The user and every contact they hold, with portal settings and logo, in one statement. */
/** Every page load asks for it: prepared once per connection. */
const meRowsQuery = preparedPerDb((db) =>
  db
    .select({
      userId: users.id,
      userName: users.userName,
      displayName: users.displayName,
      language: users.language,
      lastSeenAt: sessions.lastSeenAt,
      contactExtId: contacts.extId,
      companyName: companies.companyName,
      ...permissionColumns,
      settings: portalSettingsColumns,
    })
    .from(users)
    .leftJoin(sessions, and(eq(sessions.id, sql.placeholder('sessionId')), eq(sessions.userId, users.id)))
    .leftJoin(userContacts, eq(userContacts.userId, users.id))
    .leftJoin(contacts, eq(contacts.id, userContacts.contactId))
    .leftJoin(companies, eq(companies.id, contacts.companyId))
    .leftJoin(portals, eq(portals.id, contacts.portalId))
    .leftJoin(files, eq(files.id, portals.logoFileId))
    .where(eq(users.id, sql.placeholder('userId')))
    .orderBy(asc(portals.key), asc(companies.companyName), asc(contacts.extId))
    .prepare('me_rows'),
);

export async function loadMeRows(db: Db, userId: number, sessionId: number): Promise<MeRow[]> {
  return (await meRowsQuery(db).execute({ userId, sessionId })) as MeRow[];
}

/**
 * The one contact of a "see as this contact" session as `loadMeRows` reads contacts (no user: the
 * user fields are the viewer's, filled by the caller).
 */
export async function loadViewMeRow(
  db: Db,
  contactRowId: number,
): Promise<Pick<MeRow, 'contactExtId' | 'companyName' | 'settings' | PermissionFlag> | undefined> {
  const rows = await db
    .select({
      contactExtId: contacts.extId,
      companyName: companies.companyName,
      ...permissionColumns,
      settings: portalSettingsColumns,
    })
    .from(contacts)
    .innerJoin(companies, eq(companies.id, contacts.companyId))
    .innerJoin(portals, eq(portals.id, contacts.portalId))
    .leftJoin(files, eq(files.id, portals.logoFileId))
    .where(eq(contacts.id, contactRowId));
  return rows[0] as Pick<MeRow, 'contactExtId' | 'companyName' | 'settings' | PermissionFlag> | undefined;
}

/** Where a session was opened from, and whether it is remembered (REMEMBER_DAYS instead of the TTL). */
export interface SessionMeta {
  remember: boolean;
  userAgent: string | undefined;
  ip: string;
}

/** Opens a session inside the caller's transaction; only the token's hash is stored. */
export async function insertSession(
  tx: Conn,
  userId: number,
  now: Date,
  ttlHours: number,
  meta?: SessionMeta,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const hours = meta?.remember ? REMEMBER_DAYS * 24 : ttlHours;
  const expiresAt = new Date(now.getTime() + hours * 3600_000);
  await tx.insert(sessions).values({
    tokenHash: sha256(token),
    userId,
    createdAt: now,
    expiresAt,
    lastSeenAt: now,
    remember: meta?.remember ?? false,
    // Bounded: a user agent is the client's to write.
    userAgent: meta?.userAgent?.slice(0, 400) ?? null,
    ip: meta?.ip ?? null,
  });
  return { token, expiresAt };
}

/** Whether a session is a remembered one (a password change keeps that choice for its new session). */
export async function isRemembered(db: Conn, sessionId: number): Promise<boolean> {
  const rows = await db.select({ r: sessions.remember }).from(sessions).where(eq(sessions.id, sessionId));
  return rows[0]?.r ?? false;
}

/** How stale `last_seen_at` may get before a page load moves it: a write per load would be waste. */
export const LAST_SEEN_STEP_MS = 5 * 60_000;

export async function touchSession(db: Conn, sessionId: number, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: Conn, sessionId: number, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(db: Conn, userId: number, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function setPassword(db: Conn, userId: number, hash: string, now: Date): Promise<void> {
  await db.update(users).set({ passwordHash: hash, passwordChangedAt: now }).where(eq(users.id, userId));
}

/** Marks every open link of a user used: once a password is set, older links must not set another. */
export async function retireUserTokens(
  db: Conn,
  userId: number,
  now: Date,
  purpose?: 'invite' | 'recovery' | 'email',
): Promise<void> {
  await db
    .update(userTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(userTokens.userId, userId),
        isNull(userTokens.usedAt),
        purpose ? eq(userTokens.purpose, purpose) : undefined,
      ),
    );
}

export async function insertUserToken(
  db: Conn,
  userId: number,
  purpose: 'invite' | 'recovery' | 'email',
  now: Date,
  ttlMs: number,
  newEmail?: string,
): Promise<string> {
  const token = newToken();
  await db.insert(userTokens).values({
    tokenHash: sha256(token),
    userId,
    purpose,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
    newEmail: newEmail ?? null,
  });
  return token;
}

export interface LinkRow {
  id: number;
  userId: number;
  userName: string;
  purpose: 'invite' | 'recovery' | 'email';
  expiresAt: Date;
  usedAt: Date | null;
  newEmail: string | null;
}

export async function findLink(db: Conn, token: string): Promise<LinkRow | undefined> {
  const rows = await db
    .select({
      id: userTokens.id,
      userId: userTokens.userId,
      userName: users.userName,
      purpose: userTokens.purpose,
      expiresAt: userTokens.expiresAt,
      usedAt: userTokens.usedAt,
      newEmail: userTokens.newEmail,
    })
    .from(userTokens)
    .innerJoin(users, eq(users.id, userTokens.userId))
    .where(eq(userTokens.tokenHash, sha256(token)))
    .limit(1);
  return rows[0];
}

/** Takes a link for good: true only for the one caller that found it unused and unexpired. */
export async function consumeLink(db: Conn, linkId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(userTokens)
    .set({ usedAt: now })
    .where(and(eq(userTokens.id, linkId), isNull(userTokens.usedAt), gt(userTokens.expiresAt, now)))
    .returning({ id: userTokens.id });
  return rows.length === 1;
}

export interface UserPortal {
  key: string;
  name: string;
  defaultLanguage: string;
}

/** The portals a user holds a contact in (the only ones whose branding their e-mails may wear). */
export async function findUserPortals(db: Conn, userId: number): Promise<UserPortal[]> {
  return db
    .selectDistinct({ key: portals.key, name: portals.name, defaultLanguage: portals.defaultLanguage })
    .from(userContacts)
    .innerJoin(contacts, eq(contacts.id, userContacts.contactId))
    .innerJoin(portals, eq(portals.id, contacts.portalId))
    .where(eq(userContacts.userId, userId))
    .orderBy(asc(portals.key));
}
