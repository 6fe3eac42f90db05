import { spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Logger } from 'drizzle-orm/logger';
import * as schema from './schema';
import { lockDataDir } from './data-dir-lock';
import { OWNER_ONLY_PRELUDE, secureDataDir } from './data-dir-modes';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query API as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Plain SQL on one connection: migrations and the few statements drizzle does not express. */
export interface RawSql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(text: string): Promise<void>;
}

export interface Database {
  kind: 'pglite' | 'pg';
  db: Db;
  /** Runs `fn` on one dedicated connection (PostgreSQL) or the only one (PGlite). */
  withConnection<T>(fn: (sql: RawSql) => Promise<T>): Promise<T>;
  /** Counts statements sent through drizzle; tests use it to prove a list is not N+1. */
  stats: { statements: number };
  /**
   * LISTEN on `channel`: `onNotify` runs for each notification (PostgreSQL: on a dedicated connection
   * outside the pool, closed with the database). Answers the function that stops listening. A lost
   * connection is made again with back-off (PostgreSQL restarted): `onGap(false)` when it is lost or
   * the first attempt fails, `onGap(true)` whenever the LISTEN is in place (again); notifications of
   * the time between are lost. The embedded database never loses it.
   */
  listen(
    channel: string,
    onNotify: () => void,
    onGap?: (listening: boolean) => void,
  ): Promise<() => Promise<void>>;
  /** The embedded database's files as a gzipped tarball (PGlite only): tests start from a migrated copy. */
  dumpDataDir?(): Promise<Blob>;
  /** A query's rows in COPY text format, as the server writes them (PGlite only: `npm run db -- dump`). */
  copyOut?(query: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * SQLSTATE classes and codes, and socket errors, that mean the server is away (stopping, starting,
 * restarting, unreachable) rather than that a statement is wrong: the request is worth retrying.
 */
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Whether `err` (or an error it wraps) says the database server cannot be reached now: the answer is
 * then 503 with Retry-After, not 500. Walks `cause`, as drizzle wraps the driver's error.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (
      typeof message === 'string' &&
      /^Connection terminated|^Client has encountered a connection error/.test(message)
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Back-off of a lost LISTEN connection: 100 ms, doubled up to 5 s. */
export const LISTEN_RETRY = { firstMs: 100, maxMs: 5_000 };

function countingLogger(stats: { statements: number }): Logger {
  return {
    logQuery() {
      stats.statements++;
    },
  };
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Directory for the embedded database; undefined means in memory (tests). */
  dataDir?: string | undefined;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** Start an in-memory embedded database from this tarball (made by dumpDataDir). */
  loadDataDir?: Blob;
}

/**
 * PostgreSQL settings of the embedded database. Its memory is one WASM heap that grows to its peak and
 * never shrinks, and PostgreSQL's shared buffers are most of it (the default 128 MB alone held ~150 MB
 * of the server's RSS once warm). PGlite reads pages missing from the pool through the OS page cache,
 * which is not the process's memory, so a small pool costs a system call per miss, not a disk read.
 */
const PGLITE_SETTINGS = [
  'shared_buffers=32MB',
  // PostgreSQL keeps up to this many relation files open (1,000 by default, nearly all of a 1,024 fd
  // limit); the server sheds client connections above the fd limit minus its reserve (fd-limit.ts).
  'max_files_per_process=200',
];

/**
 * Creates a new embedded database (initdb) in a short-lived child process. In-process, PGlite runs
 * initdb in a second WASM Postgres and copies its result as a tarball: that instance stays reachable
 * until the database is closed and the garbage collector happens to run, and the freed malloc arenas
 * never go back to the OS, so the first start on an empty DATA_DIR sat at ~950 MB until a restart.
 * The child writes a staging directory renamed into place at the end: an interrupted first start
 * leaves no half-written database behind.
 */
async function createDataDir(dataDir: string): Promise<void> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} holds files but no database (no PG_VERSION): move it away or empty it`);
  }
  const staging = `${dataDir}.new`;
  rmSync(staging, { recursive: true, force: true });
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `${OWNER_ONLY_PRELUDE}require(${JSON.stringify(entry)}).PGlite.create({ dataDir: process.argv[1] })
    .then((pg) => pg.close())
    .catch((e) => { console.error(e); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script, staging], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`Creating the database in ${dataDir} failed: ${stderr.trim()}`);
  }
  if (existsSync(dataDir)) rmdirSync(dataDir); // empty, checked above
  renameSync(staging, dataDir);
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const stats = { statements: 0 };
  const logger = countingLogger(stats);
  if (opts.databaseUrl) {
    const pg = (await import('pg')).default;
    // timestamptz / date / numeric keep their text form in raw queries; drizzle maps its own columns.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.maxConnections ?? 10 });
    pool.on('error', () => {
      // An idle client lost its server; the pool replaces it on the next checkout.
    });
    // pg-pool listens for errors of idle clients only: a client checked out between two statements (a
    // transaction waiting on the app) whose server goes away emits 'error' with no listener, which
    // killed the process. Its next statement fails instead (the request answers 503, see
    // isDatabaseUnavailable), and the pool drops it when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const db = drizzle({ client: pool, schema, logger }) as unknown as Db;
    const stops = new Set<() => Promise<void>>();
    return {
      kind: 'pg',
      db,
      stats,
      async listen(channel, onNotify, onGap) {
        if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
        let stopped = false;
        let client: InstanceType<typeof pg.Client> | undefined;
        let timer: NodeJS.Timeout | undefined;
        let delay = LISTEN_RETRY.firstMs;
        // Notifications sent while no connection listened are lost: whoever listens is told of the
        // gap as it opens and again once it closes, and treats it as "anything may have changed".
        const lost = (c: InstanceType<typeof pg.Client>) => {
          if (client !== c) return;
          client = undefined;
          c.end().catch(() => {});
          if (stopped) return;
          onGap?.(false);
          retry();
        };
        const retry = () => {
          timer = setTimeout(() => void connect(), delay);
          timer.unref();
          delay = Math.min(LISTEN_RETRY.maxMs, delay * 2);
        };
        const connect = async (): Promise<boolean> => {
          const c = new pg.Client({ connectionString: opts.databaseUrl });
          c.on('error', () => lost(c));
          c.on('end', () => lost(c));
          c.on('notification', () => onNotify());
          client = c;
          try {
            await c.connect();
            await c.query(`listen ${channel}`);
          } catch {
            if (client === c) lost(c);
            return false;
          }
          if (stopped || client !== c) {
            await c.end().catch(() => {});
            return false;
          }
          delay = LISTEN_RETRY.firstMs;
          onGap?.(true);
          return true;
        };
        const stop = async () => {
          stopped = true;
          clearTimeout(timer);
          stops.delete(stop);
          const c = client;
          client = undefined;
          await c?.end().catch(() => {});
        };
        stops.add(stop);
        // The first attempt is awaited, so a caller knows it listens; a failed one keeps trying.
        await connect();
        return stop;
      },
      async withConnection(fn) {
        const client = await pool.connect();
        try {
          return await fn({
            query: async (text, params) => {
              const r = await client.query(text, params as unknown[]);
              return { rows: r.rows };
            },
            exec: async (text) => {
              await client.query(text);
            },
          });
        } finally {
          client.release();
        }
      },
      async close() {
        await Promise.all([...stops].map((stop) => stop()));
        await pool.end();
      },
    };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  // pg_trgm backs the staff inbox's search (migration 0008 creates the extension), btree_gin its
  // portal-led text indexes (0019); a PostgreSQL server has both in its contrib package.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { btree_gin } = await import('@electric-sql/pglite/contrib/btree_gin');
  let unlock = () => {};
  let dataDir: string | undefined;
  if (opts.dataDir) {
    secureDataDir(opts.dataDir);
    unlock = lockDataDir(opts.dataDir);
    dataDir = join(opts.dataDir, 'pgdata');
  }
  let pglite;
  try {
    if (dataDir && !existsSync(join(dataDir, 'PG_VERSION'))) await createDataDir(dataDir);
    pglite = await PGlite.create({
      ...(dataDir ? { dataDir } : opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
      extensions: { pg_trgm, btree_gin },
    });
  } catch (e) {
    unlock();
    throw e;
  }
  const { drizzle } = await import('drizzle-orm/pglite');
  const db = drizzle({ client: pglite, schema, logger }) as unknown as Db;
  const raw: RawSql = {
    query: async (text, params) => {
      const r = await pglite.query(text, params as unknown[]);
      return { rows: r.rows as never[] };
    },
    exec: async (text) => {
      await pglite.exec(text);
    },
  };
  return {
    kind: 'pglite',
    db,
    stats,
    withConnection: (fn) => fn(raw),
    async listen(channel, onNotify, onGap) {
      const stop = await pglite.listen(channel, () => onNotify());
      onGap?.(true);
      return async () => {
        await stop();
      };
    },
    dumpDataDir: () => pglite.dumpDataDir('gzip'),
    async copyOut(query) {
      const r = await pglite.query(`copy (${query}) to '/dev/blob'`);
      return r.blob ? r.blob.text() : '';
    },
    async close() {
      await pglite.close();
      unlock();
    },
  };
}
