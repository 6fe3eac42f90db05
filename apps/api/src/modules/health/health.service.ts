/**
 * What `/api/health` and `/api/health/ready` find out. Every probe is cheap and bounded: the database a
 * `select 1` (or one count), the file store one stat / HEAD of an absent blob, SMTP one connection
 * (greeting, EHLO, STARTTLS, AUTH) and the IMAP readers what they wrote in `portal_mailboxes` last. The
 * SMTP and file store probes are shared and kept for CACHE_MS, so load balancers asking every second
 * cost the mail server one connection per quarter minute. Nothing here names a host, user or key.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Health } from '@sportello/contracts';
import { MIGRATION_LOCK, migrationNames } from '../../db/migrate';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { isServing, startingError } from '../../platform/lifecycle';
import { queryRows } from '../../platform/sql-json';

/** A database that takes longer than this to answer counts as down. */
export const HEALTH_TIMEOUT_MS = 5_000;
/** The file store and SMTP probes' own bound. */
export const PROBE_TIMEOUT_MS = 3_000;
/** How long a file store / SMTP probe's answer is reused. */
export const CACHE_MS = 15_000;
/** A mailbox read within this long counts as being read (the reader polls every 30 s). */
const READ_LATELY_MS = 5 * 60_000;

const databaseUnavailable = () => new AppError(503, 'database_unavailable', 'The database does not answer');

class TimedOut extends Error {}

async function within<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimedOut()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether `work` finished within `ms`, and how long it took. */
async function probe(ms: number, work: () => Promise<unknown>): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now();
  const ok = await within(ms, work).then(
    () => true,
    () => false,
  );
  return { ok, ms: Math.round(performance.now() - started) };
}

interface Cached {
  at: number;
  answer: Promise<{ ok: boolean; ms: number }>;
}
const caches = new WeakMap<AppContext, Map<string, Cached>>();

/** One probe per CACHE_MS per process, shared by whoever asks meanwhile. */
function cachedProbe(ctx: AppContext, key: string, work: () => Promise<unknown>) {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && performance.now() - hit.at < CACHE_MS) return hit.answer;
  const answer = probe(PROBE_TIMEOUT_MS, work);
  cache.set(key, { at: performance.now(), answer });
  return answer;
}

function smtpProbe(url: string): Promise<unknown> {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: PROBE_TIMEOUT_MS,
    greetingTimeout: PROBE_TIMEOUT_MS,
    socketTimeout: PROBE_TIMEOUT_MS,
    dnsTimeout: PROBE_TIMEOUT_MS,
  });
  return transporter.verify().finally(() => transporter.close());
}

async function readers(ctx: AppContext): Promise<Health['mail']['readers']> {
  const since = new Date(ctx.clock.now().getTime() - READ_LATELY_MS).toISOString();
  const [row] = await queryRows<{ configured: number; reading: number; failing: number }>(
    ctx.database.db,
    sql`select count(*)::int as configured,
        (count(*) filter (where last_error is null and last_read_at >= ${since}::timestamptz))::int as reading,
        (count(*) filter (where last_error is not null))::int as failing
      from portal_mailboxes where enabled and imap_host <> ''`,
  );
  return {
    configured: Number(row?.configured ?? 0),
    reading: Number(row?.reading ?? 0),
    failing: Number(row?.failing ?? 0),
  };
}

/** The whole report; throws 503 while the process starts or the database does not answer. */
export async function health(ctx: AppContext): Promise<Health> {
  if (!isServing(ctx)) throw startingError();
  const { config, fileStore } = ctx;
  const outboxDir = join(config.DATA_DIR, 'outbox');
  const [database, files, outgoing, mailboxes] = await Promise.all([
    probe(HEALTH_TIMEOUT_MS, () => ctx.database.db.execute(sql`select 1`)),
    cachedProbe(ctx, 'files', () => fileStore.probe()),
    config.SMTP_URL
      ? cachedProbe(ctx, 'smtp', () => smtpProbe(config.SMTP_URL!))
      : // The outbox directory is made on the first message; until then DATA_DIR must take it.
        probe(PROBE_TIMEOUT_MS, () =>
          access(outboxDir, constants.W_OK).catch(() => access(config.DATA_DIR, constants.W_OK)),
        ),
    within(HEALTH_TIMEOUT_MS, () => readers(ctx)).catch(() => undefined),
  ]);
  // A load balancer takes a process out of rotation on 503; a 500 reads as a bug of ours.
  if (!database.ok || !mailboxes) throw databaseUnavailable();
  return {
    status: 'ok',
    database: { kind: ctx.database.kind === 'pg' ? 'postgresql' : 'embedded', ...database },
    files: { kind: fileStore.kind, ...files },
    mail: { outgoing: { kind: config.SMTP_URL ? 'smtp' : 'file', ...outgoing }, readers: mailboxes },
  };
}

/**
 * Readiness: serving, the database answering, every migration of this build applied and none running
 * (another process holding the migration lock: a newer version migrating, whose statements may lock
 * the tables this one reads).
 */
export async function ready(ctx: AppContext): Promise<{ status: 'ready' }> {
  if (!isServing(ctx)) throw startingError();
  const names = migrationNames();
  const known = sql.join(
    names.map((n) => sql`${n}`),
    sql`, `,
  );
  const lock =
    ctx.database.kind === 'pg'
      ? sql`exists (select 1 from pg_locks where locktype = 'advisory' and classid = 0
          and objid = ${MIGRATION_LOCK} and objsubid = 1 and granted)`
      : sql`false`;
  let row: { applied: number; migrating: boolean } | undefined;
  try {
    [row] = await within(HEALTH_TIMEOUT_MS, () =>
      queryRows<{ applied: number; migrating: boolean }>(
        ctx.database.db,
        sql`select (select count(*)::int from schema_migrations where name in (${known})) as applied,
          ${lock} as migrating`,
      ),
    );
  } catch {
    throw databaseUnavailable();
  }
  if (!row || Number(row.applied) < names.length || row.migrating) throw startingError();
  return { status: 'ready' };
}
