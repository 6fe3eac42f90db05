/**
 * `npm run import -- path/to/file.json`: imports a back-office document into the database of this
 * installation (DATA_DIR or DATABASE_URL, like the server). File references may be `path`s, relative
 * to the JSON file. Exit codes: 0 imported, 1 invalid document or failure, 2 usage/configuration,
 * 3 DATA_DIR in use by a running server.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { DataDirLockedError } from '../db/data-dir-lock';
import { DataDirError } from '../db/data-dir-modes';
import { migrate } from '../db/migrate';
import { importDocument } from '../modules/admin/import.service';
import { checkJsonText } from '../platform/request-guards';
import { systemClock } from '../platform/clock';
import type { AppContext } from '../platform/context';
import { AppError } from '../platform/errors';
import { FileStore, FileUrlSigner } from '../platform/files';

/** The server's secret when there is one; the import signs nothing, so a throwaway one is fine otherwise. */
function readSecret(config: Config, dataDir: string): string {
  if (config.SECRET) return config.SECRET;
  const path = join(dataDir, 'secret');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  return randomBytes(48).toString('base64url');
}

async function main(): Promise<number> {
  const arg = process.argv.slice(2).find((a) => a !== '--');
  if (!arg) {
    console.error('Usage: npm run import -- path/to/document.json');
    return 2;
  }
  // npm runs scripts from the package root; a relative path means the caller's directory.
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), arg);
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      return 2;
    }
    throw e;
  }
  let doc: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    // The same checks as the HTTP import: a NUL would otherwise reach PostgreSQL mid-import.
    const problem = checkJsonText(text);
    if (problem) throw problem;
    doc = JSON.parse(text);
  } catch (e) {
    console.error(`Cannot read ${file}: ${(e as Error).message}`);
    return 1;
  }

  const dataDir = resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
  } catch (e) {
    if (e instanceof DataDirLockedError || e instanceof DataDirError) {
      console.error(e.message);
      return 3;
    }
    throw e;
  }
  try {
    await migrate(database);
    const secret = readSecret(config, dataDir);
    const ctx: AppContext = {
      config,
      database,
      clock: systemClock,
      fileStore: new FileStore(join(dataDir, 'files')),
      signer: new FileUrlSigner(secret),
      secret,
    };
    const started = performance.now();
    const counts = await importDocument(ctx, doc, { baseDir: dirname(file) });
    const ms = Math.round(performance.now() - started);
    console.log(`Imported ${file} in ${ms} ms:`);
    for (const [kind, n] of Object.entries(counts)) if (n > 0) console.log(`  ${kind}: ${n}`);
    return 0;
  } catch (e) {
    if (e instanceof AppError) {
      console.error(`${e.message}:`);
      if (Array.isArray(e.details)) {
        for (const p of e.details as { path: string; message: string }[])
          console.error(`  ${p.path}: ${p.message}`);
      }
      return 1;
    }
    throw e;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
