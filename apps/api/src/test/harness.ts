import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { migrate } from '../db/migrate';
import { fixedClock } from '../platform/clock';
import type { App, AppContext } from '../platform/context';
import { FileStore, FileUrlSigner } from '../platform/files';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789';

export interface TestApp {
  app: App;
  ctx: AppContext;
  clock: ReturnType<typeof fixedClock>;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * One app on a fresh database: in-memory PGlite, or the PostgreSQL of TEST_DATABASE_URL (CI runs the
 * same suite there; each test app then gets its own schema-less database reset by dropping tables).
 */
export async function createTestApp(
  opts: { env?: Record<string, string>; now?: string; database?: Database } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportello-test-'));
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    PORTAL_ADMIN_KEY: TEST_ADMIN_KEY,
    WEB_DIST: join(dataDir, 'no-web'),
    LOG_LEVEL: 'silent',
    ...opts.env,
  });
  const database = opts.database ?? (await openTestDatabase());
  const clock = fixedClock(opts.now ?? '2026-11-20T10:00:00Z');
  const secret = 'test-secret-'.padEnd(40, 'x');
  const ctx: AppContext = {
    config,
    database,
    clock,
    fileStore: new FileStore(join(dataDir, 'files')),
    signer: new FileUrlSigner(secret),
    secret,
  };
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    clock,
    dataDir,
    async close() {
      await app.close();
      if (!opts.database) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let pgCounter = 0;

/** A migrated, empty database for one test file. */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const database = await openDatabase({});
    await migrate(database);
    return database;
  }
  // On PostgreSQL each test file gets its own database, created from the server's template.
  const admin = await openDatabase({ databaseUrl: url, maxConnections: 1 });
  const name = `sportello_test_${process.pid}_${Date.now()}_${pgCounter++}`;
  await admin.withConnection((sql) => sql.exec(`create database ${name}`));
  await admin.close();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString() });
  await migrate(database);
  const close = database.close.bind(database);
  database.close = async () => {
    await close();
    const a = await openDatabase({ databaseUrl: url, maxConnections: 1 });
    await a.withConnection((sql) => sql.exec(`drop database if exists ${name} with (force)`));
    await a.close();
  };
  return database;
}
