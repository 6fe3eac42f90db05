import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { DataDirLockedError } from './db/data-dir-lock';
import { migrate } from './db/migrate';
import { systemClock } from './platform/clock';
import type { AppContext } from './platform/context';
import { FileStore, FileUrlSigner } from './platform/files';
import { OutboxWorker } from './platform/outbox';
import { loadDemoDataIfEmpty } from './modules/admin/demo';

/** SECRET, or one generated on first start and kept in DATA_DIR (processes sharing DATA_DIR share it). */
function resolveSecret(config: Config): string {
  if (config.SECRET) return config.SECRET;
  const path = join(config.DATA_DIR, 'secret');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(path, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

async function main(): Promise<void> {
  const started = performance.now();
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(2);
    }
    throw e;
  }
  const dataDir = resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });

  let database;
  try {
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
  } catch (e) {
    if (e instanceof DataDirLockedError) {
      console.error(e.message);
      process.exit(3);
    }
    throw e;
  }
  await migrate(database);

  const secret = resolveSecret({ ...config, DATA_DIR: dataDir });
  const ctx: AppContext = {
    config,
    database,
    clock: systemClock,
    fileStore: new FileStore(join(dataDir, 'files')),
    signer: new FileUrlSigner(secret),
    secret,
  };
  // Asynchronous writes: lines logged while a write is in flight leave together in the next one, where a
  // synchronous stdout costs one blocking write per line (pino flushes the rest when the process exits).
  const stream = pino.destination({ dest: 1, sync: false });
  const app = await buildApp(ctx, { logger: { level: config.LOG_LEVEL, stream } });

  if (config.DEMO_DATA) {
    const loaded = await loadDemoDataIfEmpty(ctx);
    if (loaded) app.log.info('empty database: demo portal loaded (set DEMO_DATA=false to start empty)');
  }

  const worker = new OutboxWorker(ctx, app.log);
  worker.start();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 20 s, exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    try {
      await app.close();
      await worker.stop();
      await database.close();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(
    {
      url: `http://${config.HOST}:${config.PORT}`,
      database: database.kind,
      startupMs: Math.round(performance.now() - started),
    },
    'Sportello is ready',
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
