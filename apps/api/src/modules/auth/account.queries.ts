import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { sessions, userPasskeys, userTokens, users } from '../../db/schema';

type Conn = Db | Tx;

export interface AccountRow {
  userName: string;
  displayName: string | null;
  email: string | null;
  language: string | null;
  totp: boolean;
  totpPendingSecret: string | null;
  totpPendingAt: Date | null;
}

export async function findAccount(db: Conn, userId: number): Promise<AccountRow | undefined> {
  const rows = await db
    .select({
      userName: users.userName,
      displayName: users.displayName,
      email: users.email,
      language: users.language,
      totp: sql<boolean>`${users.totpSecret} is not null`,
      totpPendingSecret: users.totpPendingSecret,
      totpPendingAt: users.totpPendingAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return rows[0];
}

export async function updateProfile(
  db: Conn,
  userId: number,
  set: { displayName?: string | null | undefined; language?: string | null | undefined },
): Promise<void> {
  const values: Partial<typeof users.$inferInsert> = {};
  if (set.displayName !== undefined) values.displayName = set.displayName;
  if (set.language !== undefined) values.language = set.language;
  if (Object.keys(values).length === 0) return;
  await db.update(users).set(values).where(eq(users.id, userId));
}

export async function setEmail(db: Conn, userId: number, email: string): Promise<void> {
  await db.update(users).set({ email }).where(eq(users.id, userId));
}

export async function setTotp(
  db: Conn,
  userId: number,
  set: {
    totpSecret?: string | null;
    totpPendingSecret?: string | null;
    totpPendingAt?: Date | null;
    totpLastStep?: number | null;
  },
): Promise<void> {
  await db.update(users).set(set).where(eq(users.id, userId));
}

/** The address an open e-mail change waits for, if any. */
export async function pendingEmailOf(db: Conn, userId: number, now: Date): Promise<string | null> {
  const rows = await db
    .select({ email: userTokens.newEmail })
    .from(userTokens)
    .where(
      and(
        eq(userTokens.userId, userId),
        eq(userTokens.purpose, 'email'),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, now),
      ),
    )
    .orderBy(desc(userTokens.id))
    .limit(1);
  return rows[0]?.email ?? null;
}

/** The user's live sessions, most recently seen first (a user holds a handful: no paging). */
export async function listSessions(db: Conn, userId: number, now: Date) {
  return db
    .select({
      id: sessions.id,
      publicId: sessions.publicId,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      remember: sessions.remember,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt}) desc`, desc(sessions.id))
    .limit(200);
}

/** Ends one live session of the user; false when there is none by that id (or it is another's). */
export async function endSession(db: Conn, userId: number, publicId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length === 1;
}

export async function endAllSessions(db: Conn, userId: number, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function listPasskeys(db: Conn, userId: number) {
  return db
    .select({
      publicId: userPasskeys.publicId,
      name: userPasskeys.name,
      createdAt: userPasskeys.createdAt,
      lastUsedAt: userPasskeys.lastUsedAt,
    })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId))
    .orderBy(userPasskeys.id);
}

/** Stores a passkey; false when its credential is already registered (to anyone). */
export async function insertPasskey(
  db: Conn,
  p: {
    userId: number;
    name: string;
    createdAt: Date;
    credentialId: string;
    publicKey: string;
    counter: number;
    transports: string | null;
  },
): Promise<boolean> {
  const rows = await db
    .insert(userPasskeys)
    .values(p)
    .onConflictDoNothing({ target: userPasskeys.credentialId })
    .returning({ id: userPasskeys.id });
  return rows.length === 1;
}

/** Removes the user's passkey: answers its name, or undefined when there is none of that id. */
export async function deletePasskey(db: Conn, userId: number, publicId: string): Promise<string | undefined> {
  const rows = await db
    .delete(userPasskeys)
    .where(and(eq(userPasskeys.userId, userId), eq(userPasskeys.publicId, publicId)))
    .returning({ name: userPasskeys.name });
  return rows[0]?.name;
}
