import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import type { Clock } from './clock';
import { unauthorized } from './errors';
import { preparedPerDb } from './prepared';

export interface SessionUser {
  userId: number;
  userName: string;
  sessionId: number;
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const newToken = () => randomBytes(32).toString('base64url');

/** Reads `Authorization: Bearer <token>`; anything else is no token. */
export function bearerOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

export const invalidSession = () => unauthorized('Your session has expired or is not valid', 'invalid_token');

/**
 * The condition of a live (not revoked, not expired) session row, for prepared queries: fill its
 * placeholders with `liveSessionParams`.
 */
export const liveSession = and(
  eq(sessions.tokenHash, sql.placeholder('tokenHash')),
  isNull(sessions.revokedAt),
  sql`${sessions.expiresAt} > ${sql.placeholder('now')}::timestamptz`,
);
export const liveSessionParams = (token: string, clock: Clock) => ({
  tokenHash: sha256(token),
  now: clock.now().toISOString(),
});

/** Every authenticated request runs it: prepared once per connection. */
const findSessionQuery = preparedPerDb((db) =>
  db
    .select({ sessionId: sessions.id, userId: users.id, userName: users.userName })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(liveSession)
    .limit(1)
    .prepare('find_session'),
);

/** The live session that `token` opens now. */
export async function findSession(db: Db, clock: Clock, token: string): Promise<SessionUser | undefined> {
  const rows = await findSessionQuery(db).execute(liveSessionParams(token, clock));
  return rows[0];
}

const cache = new WeakMap<FastifyRequest, Promise<SessionUser>>();

/** The signed-in user of this request, or 401. Resolved once per request. */
export function requireUser(req: FastifyRequest, db: Db, clock: Clock): Promise<SessionUser> {
  let p = cache.get(req);
  if (!p) {
    p = (async () => {
      const token = bearerOf(req);
      if (!token) throw unauthorized();
      const s = await findSession(db, clock, token);
      if (!s) throw invalidSession();
      return s;
    })();
    cache.set(req, p);
  }
  return p;
}

/** Records the user a combined lookup (session + tenant in one statement) found for this request. */
export function rememberUser(req: FastifyRequest, user: SessionUser): void {
  cache.set(req, Promise.resolve(user));
}

/** Opens a session for a user; the token is returned once and only its hash is stored. */
export async function issueSession(
  db: Db,
  clock: Clock,
  userId: number,
  ttlHours: number,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(clock.now().getTime() + ttlHours * 3600_000);
  await db.insert(sessions).values({ tokenHash: sha256(token), userId, createdAt: clock.now(), expiresAt });
  return { token, expiresAt };
}
