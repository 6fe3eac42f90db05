import { isIPv6 } from 'node:net';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';

export interface HitResult {
  /** True while the count, this hit included, is within the limit. */
  allowed: boolean;
  /** Count in the current window after this hit. */
  count: number;
  /** Seconds until the window ends (at least 1): the `Retry-After` of a refusal. */
  retryAfterSeconds: number;
}

type Conn = Db | Tx;

function rowsOf<T>(result: unknown): T[] {
  // node-postgres answers {rows}, PGlite through drizzle answers {rows} too; keep one reader.
  return (result as { rows: T[] }).rows;
}

function toDate(v: unknown): Date {
  return v instanceof Date ? v : new Date(String(v));
}

/**
 * Counts one event under `key` in a fixed window of `windowSeconds`, shared by every process on the
 * database: one atomic upsert, which starts a new window when the stored one is over. Refused hits
 * are counted too, so hammering a closed door keeps it closed until the window ends.
 */
export async function hit(
  db: Conn,
  key: string,
  limit: number,
  windowSeconds: number,
  now: Date,
): Promise<HitResult> {
  const windowStartedBefore = new Date(now.getTime() - windowSeconds * 1000);
  const result = await db.execute(sql`
    insert into rate_limits (key, count, window_start)
    values (${key}, 1, ${now.toISOString()}::timestamptz)
    on conflict (key) do update set
      count = case when rate_limits.window_start <= ${windowStartedBefore.toISOString()}::timestamptz
                   then 1 else rate_limits.count + 1 end,
      window_start = case when rate_limits.window_start <= ${windowStartedBefore.toISOString()}::timestamptz
                   then excluded.window_start else rate_limits.window_start end
    returning count, window_start`);
  const row = rowsOf<{ count: number | string; window_start: unknown }>(result)[0];
  if (!row) throw new Error('rate limit upsert returned no row');
  const count = Number(row.count);
  const endsAt = toDate(row.window_start).getTime() + windowSeconds * 1000;
  return {
    allowed: count <= limit,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)),
  };
}

/** Takes back one hit (an attempt that turned out not to count, e.g. a successful login). */
export async function unhit(db: Conn, key: string): Promise<void> {
  await db.execute(sql`update rate_limits set count = greatest(count - 1, 0) where key = ${key}`);
}

/** Forgets a key: its next hit starts a new window. */
export async function clear(db: Conn, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

/** Drops counters whose window started before `olderThan` (they would restart at 1 anyway). */
export async function purgeStale(db: Conn, olderThan: Date): Promise<number> {
  const result = await db.execute(
    sql`delete from rate_limits where window_start < ${olderThan.toISOString()}::timestamptz returning key`,
  );
  return rowsOf(result).length;
}

/** Forgets every key starting with `prefix` (e.g. all of one account's per-address counters). */
export async function clearPrefix(db: Conn, prefix: string): Promise<void> {
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  await db.execute(sql`delete from rate_limits where key like ${pattern}`);
}

/**
 * The client address as a throttling key. An IPv6 client usually holds a whole /64 and can take a new
 * address from it for every request, so IPv6 counts by its /64; IPv4-mapped IPv6 counts as IPv4.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv6(ip)) {
    const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const groups = ip.includes('::')
      ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
      : left;
    return `${groups
      .slice(0, 4)
      .map((g) => g.replace(/^0+(?=.)/, ''))
      .join(':')}::/64`;
  }
  return ip;
}

/** Throttling windows of sign-in and recovery (contacts and staff, each on counters of its own). Every counter lives in `rate_limits`, so they hold across processes. */
export const SIGN_IN_LIMITS = {
  /** Failures against one account from one address: the guesser's address is stopped, not the owner. */
  loginPerAccountAndAddress: { limit: 5, windowSeconds: 15 * 60 },
  loginPerIp: { limit: 30, windowSeconds: 15 * 60 },
  recoveryPerName: { limit: 3, windowSeconds: 60 * 60 },
  recoveryPerIp: { limit: 10, windowSeconds: 15 * 60 },
  passwordChangePerUser: { limit: 5, windowSeconds: 15 * 60 },
};
