import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Logger } from 'drizzle-orm/logger';
import * as schema from './schema';
import { lockDataDir } from './data-dir-lock';

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
  /** The embedded database's files as a gzipped tarball (PGlite only): tests start from a migrated copy. */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

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
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const db = drizzle({ client: pool, schema, logger }) as unknown as Db;
    return {
      kind: 'pg',
      db,
      stats,
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
      close: () => pool.end(),
    };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  let unlock = () => {};
  let dataDir: string | undefined;
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    unlock = lockDataDir(opts.dataDir);
    dataDir = join(opts.dataDir, 'pgdata');
  }
  let pglite;
  try {
    pglite = await PGlite.create(
      dataDir ? { dataDir } : opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {},
    );
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
    dumpDataDir: () => pglite.dumpDataDir('gzip'),
    async close() {
      await pglite.close();
      unlock();
    },
  };
}
