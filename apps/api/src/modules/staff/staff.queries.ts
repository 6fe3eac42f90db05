import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { agents, portals, staffMemberships, staffSessions, staffTokens, staffUsers } from '../../db/schema';
import { newToken, sha256 } from '../../platform/auth';
import { preparedPerDb } from '../../platform/prepared';

type Conn = Db | Tx;

export interface StaffLoginCandidate {
  id: number;
  email: string;
  displayName: string;
  passwordHash: string | null;
  status: 'invited' | 'active' | 'disabled';
}

const candidateColumns = {
  id: staffUsers.id,
  email: staffUsers.email,
  displayName: staffUsers.displayName,
  passwordHash: staffUsers.passwordHash,
  status: staffUsers.status,
};

/** The staff user of an e-mail (unique, case-insensitive). */
export async function findStaffByEmail(db: Conn, email: string): Promise<StaffLoginCandidate | undefined> {
  const rows = await db
    .select(candidateColumns)
    .from(staffUsers)
    .where(sql`lower(${staffUsers.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return rows[0];
}

export interface StaffSessionRow {
  sessionId: number;
  staffUserId: number;
  email: string;
  displayName: string;
}

export interface StaffMembershipRow {
  portalId: number;
  portalKey: string;
  portalName: string;
  timeZone: string;
  defaultLanguage: string;
  role: 'agent' | 'admin';
  agentId: number | null;
  /** When the member last used this portal's desk (null: never since being added). */
  lastSeenAt?: Date | null;
}

const membershipColumns = {
  portalId: portals.id,
  portalKey: portals.key,
  portalName: portals.name,
  timeZone: portals.timeZone,
  defaultLanguage: portals.defaultLanguage,
  role: staffMemberships.role,
  agentId: staffMemberships.agentId,
};

const staffSessionQuery = preparedPerDb((db) =>
  db
    .select({
      sessionId: staffSessions.id,
      staffUserId: staffUsers.id,
      email: staffUsers.email,
      displayName: staffUsers.displayName,
      ...membershipColumns,
      lastSeenAt: staffMemberships.lastSeenAt,
    })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.staffUserId))
    .leftJoin(portals, eq(portals.key, sql`lower(${sql.placeholder('portalKey')})`))
    .leftJoin(
      staffMemberships,
      and(eq(staffMemberships.staffUserId, staffUsers.id), eq(staffMemberships.portalId, portals.id)),
    )
    .where(
      and(
        eq(staffSessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(staffSessions.revokedAt),
        sql`${staffSessions.expiresAt} > ${sql.placeholder('now')}::timestamptz`,
        eq(staffUsers.status, 'active'),
      ),
    )
    .limit(1)
    .prepare('find_staff_session'),
);

/**
 * The live session of a token whose user may still sign in (a disabled user's tokens stop at once),
 * with the user's membership of the portal named `portalKey` (null: not a member, or no portal asked).
 * One prepared statement: every staff request runs it.
 */
export async function findStaffSession(
  db: Db,
  token: string,
  now: Date,
  portalKey: string | null,
): Promise<(StaffSessionRow & { membership: StaffMembershipRow | null }) | undefined> {
  const [r] = await staffSessionQuery(db).execute({
    tokenHash: sha256(token),
    now: now.toISOString(),
    portalKey,
  });
  if (!r) return undefined;
  const { sessionId, staffUserId, email, displayName, role, agentId, lastSeenAt, ...portal } = r;
  const membership =
    role === null || portal.portalId === null
      ? null
      : { ...(portal as Omit<StaffMembershipRow, 'role' | 'agentId'>), role, agentId, lastSeenAt };
  return { sessionId, staffUserId, email, displayName, membership };
}

/** How stale a member's "last seen" in a portal may get before a request moves it (one write per 5 min). */
export const MEMBER_SEEN_EVERY_MS = 5 * 60_000;

/** Records that the member used this portal's desk now (the access list's "active" and "last sign-in"). */
export async function touchMembership(db: Conn, staffUserId: number, portalId: number, now: Date) {
  await db
    .update(staffMemberships)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(staffMemberships.staffUserId, staffUserId),
        eq(staffMemberships.portalId, portalId),
        or(
          isNull(staffMemberships.lastSeenAt),
          lt(staffMemberships.lastSeenAt, new Date(now.getTime() - MEMBER_SEEN_EVERY_MS)),
        ),
      ),
    );
}

export async function listMemberships(db: Conn, staffUserId: number): Promise<StaffMembershipRow[]> {
  return db
    .select(membershipColumns)
    .from(staffMemberships)
    .innerJoin(portals, eq(portals.id, staffMemberships.portalId))
    .where(eq(staffMemberships.staffUserId, staffUserId))
    .orderBy(asc(portals.key));
}

export async function insertStaffSession(
  db: Conn,
  staffUserId: number,
  now: Date,
  ttlHours: number,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + ttlHours * 3600_000);
  await db.insert(staffSessions).values({ tokenHash: sha256(token), staffUserId, createdAt: now, expiresAt });
  return { token, expiresAt };
}

export async function revokeStaffSession(db: Conn, sessionId: number, now: Date): Promise<void> {
  await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(and(eq(staffSessions.id, sessionId), isNull(staffSessions.revokedAt)));
}

export async function revokeAllStaffSessions(db: Conn, staffUserId: number, now: Date): Promise<void> {
  await db
    .update(staffSessions)
    .set({ revokedAt: now })
    .where(and(eq(staffSessions.staffUserId, staffUserId), isNull(staffSessions.revokedAt)));
}

/** Sets the password; an invited user becomes active (a disabled one stays disabled). */
export async function setStaffPassword(
  db: Conn,
  staffUserId: number,
  hash: string,
  now: Date,
): Promise<void> {
  await db
    .update(staffUsers)
    .set({
      passwordHash: hash,
      passwordChangedAt: now,
      status: sql`case when ${staffUsers.status} = 'disabled' then 'disabled' else 'active' end`,
    })
    .where(eq(staffUsers.id, staffUserId));
}

export async function retireStaffTokens(
  db: Conn,
  staffUserId: number,
  now: Date,
  purpose?: 'invite' | 'recovery',
): Promise<void> {
  await db
    .update(staffTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffTokens.staffUserId, staffUserId),
        isNull(staffTokens.usedAt),
        purpose ? eq(staffTokens.purpose, purpose) : undefined,
      ),
    );
}

export async function insertStaffToken(
  db: Conn,
  v: { staffUserId: number; portalId: number; purpose: 'invite' | 'recovery'; now: Date; ttlMs: number },
): Promise<string> {
  const token = newToken();
  await db.insert(staffTokens).values({
    tokenHash: sha256(token),
    staffUserId: v.staffUserId,
    portalId: v.portalId,
    purpose: v.purpose,
    createdAt: v.now,
    expiresAt: new Date(v.now.getTime() + v.ttlMs),
  });
  return token;
}

export interface StaffLinkRow {
  id: number;
  staffUserId: number;
  email: string;
  displayName: string;
  status: 'invited' | 'active' | 'disabled';
  portalId: number;
  portalKey: string;
  purpose: 'invite' | 'recovery';
  expiresAt: Date;
  usedAt: Date | null;
}

export async function findStaffLink(db: Conn, token: string): Promise<StaffLinkRow | undefined> {
  const rows = await db
    .select({
      id: staffTokens.id,
      staffUserId: staffTokens.staffUserId,
      email: staffUsers.email,
      displayName: staffUsers.displayName,
      status: staffUsers.status,
      portalId: staffTokens.portalId,
      portalKey: portals.key,
      purpose: staffTokens.purpose,
      expiresAt: staffTokens.expiresAt,
      usedAt: staffTokens.usedAt,
    })
    .from(staffTokens)
    .innerJoin(staffUsers, eq(staffUsers.id, staffTokens.staffUserId))
    .innerJoin(portals, eq(portals.id, staffTokens.portalId))
    .where(eq(staffTokens.tokenHash, sha256(token)))
    .limit(1);
  return rows[0];
}

/** Takes a link for good: true only for the one caller that found it unused and unexpired. */
export async function consumeStaffLink(db: Conn, linkId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(staffTokens)
    .set({ usedAt: now })
    .where(and(eq(staffTokens.id, linkId), isNull(staffTokens.usedAt), gt(staffTokens.expiresAt, now)))
    .returning({ id: staffTokens.id });
  return rows.length === 1;
}

export interface PortalBrief {
  id: number;
  key: string;
  name: string;
  defaultLanguage: string;
}

export async function findPortalByKey(db: Conn, key: string): Promise<PortalBrief | undefined> {
  const rows = await db
    .select({
      id: portals.id,
      key: portals.key,
      name: portals.name,
      defaultLanguage: portals.defaultLanguage,
    })
    .from(portals)
    .where(eq(portals.key, key.trim().toLowerCase()))
    .limit(1);
  return rows[0];
}

/** The portal's agent (from the back office's import) with this e-mail, if any. */
export async function findAgentByEmail(
  db: Conn,
  portalId: number,
  email: string,
): Promise<{ id: number; displayName: string } | undefined> {
  const rows = await db
    .select({ id: agents.id, displayName: agents.displayName })
    .from(agents)
    .where(and(eq(agents.portalId, portalId), sql`lower(${agents.email}) = ${email.trim().toLowerCase()}`))
    .orderBy(asc(agents.id))
    .limit(1);
  return rows[0];
}

/** Creates the staff user of an e-mail, or answers the existing one (e-mails are unique). */
export async function upsertStaffUser(
  db: Conn,
  email: string,
  displayName: string,
  now: Date,
): Promise<StaffLoginCandidate> {
  const existing = await findStaffByEmail(db, email);
  if (existing) return existing;
  const rows = await db
    .insert(staffUsers)
    .values({ email: email.trim(), displayName, createdAt: now })
    .returning(candidateColumns);
  return rows[0]!;
}

/**
 * Makes the user a member of the portal with at least `role` (an admin invited again as agent stays
 * admin), tied to the portal's agent row when one is known and not already tied to someone else.
 */
export async function upsertMembership(
  db: Conn,
  v: { staffUserId: number; portalId: number; role: 'agent' | 'admin'; agentId: number | null; now: Date },
): Promise<void> {
  await db
    .insert(staffMemberships)
    .values({
      staffUserId: v.staffUserId,
      portalId: v.portalId,
      role: v.role,
      agentId: v.agentId,
      createdAt: v.now,
    })
    .onConflictDoUpdate({
      target: [staffMemberships.staffUserId, staffMemberships.portalId],
      set: {
        role: sql`case when ${staffMemberships.role} = 'admin' then 'admin' else excluded.role end`,
        agentId: sql`coalesce(${staffMemberships.agentId}, excluded.agent_id)`,
      },
    });
}

/** Whether an agent row is already tied to a staff user (each agent is one person). */
export async function agentTaken(db: Conn, agentId: number): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(staffMemberships)
    .where(eq(staffMemberships.agentId, agentId))
    .limit(1);
  return rows.length > 0;
}
