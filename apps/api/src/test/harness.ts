import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { migrate } from '../db/migrate';
import { fixedClock } from '../platform/clock';
import type { App, AppContext } from '../platform/context';
import { FileUrlSigner, type FileStore } from '../platform/files';
import { openFileStore } from '../platform/file-store';
import { LocalFileStore } from '../platform/file-store-local';
import { recordUndocumentedAnswers } from '../platform/route';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789';

export interface TestApp {
  app: App;
  ctx: AppContext;
  clock: ReturnType<typeof fixedClock>;
  dataDir: string;
  /** `GET /api/x → 418` for each answer a route gave that its contract does not document. */
  undocumented: string[];
  close(): Promise<void>;
}

/**
 * One app on a fresh database: in-memory PGlite, or the PostgreSQL of TEST_DATABASE_URL (CI runs the
 * same suite there; each test app then gets its own schema-less database reset by dropping tables).
 */
export async function createTestApp(
  opts: {
    env?: Record<string, string>;
    now?: string;
    database?: Database;
    /** Another store than the local one of the test's data directory (the store suite's S3 one). */
    fileStore?: FileStore;
    /**
     * Hooks or routes a test adds to the app before it starts (its hooks do not reach the upload
     * routes: platform/route.ts).
     */
    configure?: (app: App) => void;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportello-test-'));
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    PORTAL_ADMIN_KEY: TEST_ADMIN_KEY,
    WEB_DIST: join(dataDir, 'no-web'),
    LOG_LEVEL: 'silent',
    // Tests are about behaviour, not load: a file's requests sent together (or a slow machine) must not
    // be shed for waiting their turn. The load-shedding tests set their own bound.
    PGLITE_MAX_WAIT_MS: '60000',
    ...opts.env,
  });
  const database = opts.database ?? (await openTestDatabase());
  const clock = fixedClock(opts.now ?? '2026-11-20T10:00:00Z');
  const secret = 'test-secret-'.padEnd(40, 'x');
  const ctx: AppContext = {
    config,
    database,
    clock,
    fileStore: opts.fileStore ?? openFileStore(config),
    signer: new FileUrlSigner(secret),
    secret,
  };
  // Every answer a test sees must be one its route's contract documents (OpenAPI completeness).
  let undocumented: string[] = [];
  const app = await buildApp(ctx, { beforeRoutes: (a) => (undocumented = recordUndocumentedAnswers(a)) });
  opts.configure?.(app);
  await app.ready();
  return {
    app,
    ctx,
    clock,
    dataDir,
    undocumented,
    async close() {
      await app.close();
      if (!opts.database) await database.close();
      await ctx.fileStore.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (undocumented.length > 0)
        throw new Error(
          `Answers their route contracts do not document (add them to the contract's responses):\n${undocumented.join('\n')}`,
        );
    },
  };
}

let pgCounter = 0;

/**
 * A migrated, empty embedded database as a tarball, made once per set of migrations and kept in the
 * temp directory: loading it takes ~0.7 s where creating and migrating a fresh one takes ~2.7 s, for
 * every test file.
 */
async function migratedTemplate(): Promise<Blob> {
  const dir = new URL('../db/migrations/', import.meta.url);
  const hash = createHash('sha256');
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.sql'))
    .sort()) {
    hash.update(f).update(readFileSync(new URL(f, dir)));
  }
  const path = join(tmpdir(), `sportello-test-template-${hash.digest('hex').slice(0, 16)}.tgz`);
  if (existsSync(path)) return new Blob([readFileSync(path)]);
  const database = await openDatabase({});
  await migrate(database);
  const blob = await database.dumpDataDir!();
  await database.close();
  // Parallel test workers may race to write it: each writes its own file and renames it into place.
  const tmp = `${path}.${process.pid}.${Date.now()}`;
  writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
  renameSync(tmp, path);
  return blob;
}

/** A migrated, empty database for one test file. */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ loadDataDir: await migratedTemplate() });
    // A no-op on the template; it keeps the test honest should the template lag the migrations.
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

/** The test app's store as what it is, for tests about the disk itself (temp files, paths). */
export function localFiles(t: TestApp): LocalFileStore {
  if (!(t.ctx.fileStore instanceof LocalFileStore)) throw new Error('this test needs the local file store');
  return t.ctx.fileStore;
}
