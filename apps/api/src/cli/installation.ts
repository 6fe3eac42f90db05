/**
 * What every command-line tool starts with: the configuration, then this installation's database
 * (DATA_DIR or DATABASE_URL, like the server), migrated, as an AppContext that is closed afterwards.
 * Exit codes shared by the tools: 2 usage/configuration, 3 DATA_DIR in use by a running server,
 * 4 DATA_DIR unusable.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { DataDirLockedError } from '../db/data-dir-lock';
import { DataDirError } from '../db/data-dir-modes';
import { migrate } from '../db/migrate';
import { systemClock } from '../platform/clock';
import type { AppContext } from '../platform/context';
import { FileUrlSigner } from '../platform/files';
import { openFileStore } from '../platform/file-store';

/** The configuration, or the exit code after saying what is wrong with it. */
export function loadCliConfig(): Config | number {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      return 2;
    }
    throw e;
  }
}

/** The server's secret when there is one; the tools sign nothing lasting, so a throwaway one is fine otherwise. */
function readSecret(config: Config, dataDir: string): string {
  if (config.SECRET) return config.SECRET;
  const path = join(dataDir, 'secret');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  return randomBytes(48).toString('base64url');
}

/**
 * Where a tool reaches the running server of this installation: this machine, on the server's PORT
 * (not PUBLIC_URL, which may be a proxy's address a tool on the server's machine cannot reach).
 */
export function localServerUrl(config: Config): string {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}

/**
 * Runs `fn` with the installation's context and answers its exit code; the database is closed after.
 * When a running server holds the embedded database, `onLocked` answers instead (a tool that can ask
 * that server does), or the tool stops with exit code 3.
 */
export async function withInstallation(
  config: Config,
  fn: (ctx: AppContext) => Promise<number>,
  onLocked?: (message: string) => Promise<number>,
): Promise<number> {
  const dataDir = resolve(config.DATA_DIR);
  let database: Database;
  try {
    // Opening the embedded database creates DATA_DIR with private modes (or says why it cannot).
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
  } catch (e) {
    if (e instanceof DataDirLockedError && onLocked) return onLocked(e.message);
    if (e instanceof DataDirLockedError || e instanceof DataDirError) {
      console.error(e.message);
      return e instanceof DataDirError ? 4 : 3;
    }
    throw e;
  }
  try {
    await migrate(database);
    const secret = readSecret(config, dataDir);
    const fileStore = openFileStore({ ...config, DATA_DIR: dataDir });
    try {
      return await fn({
        config,
        database,
        clock: systemClock,
        fileStore,
        signer: new FileUrlSigner(secret),
        secret,
      });
    } finally {
      await fileStore.close();
    }
  } finally {
    await database.close();
  }
}
