import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { DataDirLockedError } from './db/data-dir-lock';
import { DataDirError, secureDataDir } from './db/data-dir-modes';
import { migrate } from './db/migrate';
import { systemClock } from './platform/clock';
import type { AppContext } from './platform/context';
import { FileUrlSigner } from './platform/files';
import { openFileStore } from './platform/file-store';
import { logDestination } from './platform/log-stream';
import { connectionLimit } from './platform/fd-limit';
import { FileSweeper } from './platform/file-sweeper';
import { OutboxWorker } from './platform/outbox';
import { notificationMailChannel } from './modules/tickets/core';
import { loadDemoDataIfEmpty } from './modules/admin/demo';
import { WebhookWorker } from './modules/integration/webhook-worker';
import { SlaSweeper } from './modules/staff/sla-sweeper';
import { MailboxReader } from './modules/email/reader';
import { SmtpIngress } from './modules/email/smtp-ingress';
import { sealClearWebhookSecrets } from './modules/integration/webhook-secrets';

/** SECRET, or one generated on first start and kept in DATA_DIR (processes sharing DATA_DIR share it). */
function resolveSecret(config: Config): string {
  if (config.SECRET) return config.SECRET;
  const path = join(config.DATA_DIR, 'secret');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(path, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

/**
 * Why the data directory cannot hold the database and files, in words, or undefined when it can. Tried
 * by writing, because permission bits do not tell (root, read-only mounts).
 */
function dataDirProblem(dataDir: string): string | undefined {
  const probe = join(dataDir, `.write-test-${process.pid}`);
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    return `is not a writable directory (${code}): give the service user a directory it may write, or set DATA_DIR`;
  }
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
  const problem = dataDirProblem(dataDir);
  if (problem) {
    console.error(`DATA_DIR ${dataDir} ${problem}`);
    process.exit(4);
  }

  let database;
  try {
    // Private modes for everything the process writes, checked before anything is written.
    secureDataDir(dataDir);
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
  } catch (e) {
    if (e instanceof DataDirError) {
      console.error(e.message);
      process.exit(4);
    }
    if (e instanceof DataDirLockedError) {
      console.error(e.message);
      process.exit(3);
    }
    throw e;
  }
  const secret = resolveSecret({ ...config, DATA_DIR: dataDir });
  const lifecycle: { phase: 'starting' | 'serving' } = { phase: 'starting' };
  const ctx: AppContext = {
    config,
    database,
    clock: systemClock,
    fileStore: openFileStore({ ...config, DATA_DIR: dataDir }),
    signer: new FileUrlSigner(secret),
    secret,
    lifecycle,
  };
  const app = await buildApp(ctx, { logger: { level: config.LOG_LEVEL, stream: logDestination() } });

  // Listening before migrating: a load balancer sees a process starting (`/api/health/ready` answers
  // 503, API requests 503 `starting`) rather than a refused connection, for as long as migrations take.
  // Shed connections before the fd limit, so the process keeps descriptors for its own files.
  const maxConnections = connectionLimit();
  if (maxConnections !== undefined) app.server.maxConnections = maxConnections;
  await app.listen({ port: config.PORT, host: config.HOST });

  await migrate(database);
  if (config.DEMO_DATA) {
    const loaded = await loadDemoDataIfEmpty(ctx);
    if (loaded) app.log.info('empty database: demo portal loaded (set DEMO_DATA=false to start empty)');
  }

  // Customer notifications' e-mails are rendered when sent (modules/tickets/core/notifications.ts).
  const worker = new OutboxWorker(ctx, app.log, { channels: [notificationMailChannel(ctx, app.log)] });
  worker.start();
  // Signing secrets still in clear (written before migration 0025) are sealed with SECRET.
  await sealClearWebhookSecrets(ctx, app.log);
  // Webhooks have their own loop: a slow receiver never holds up e-mail, nor the reverse.
  const webhooks = new WebhookWorker(ctx, app.log);
  webhooks.start();
  // Expired uploads, temp files of killed requests and unreferenced blobs: now, then periodically.
  const sweeper = new FileSweeper(ctx, app.log);
  sweeper.start();
  // Service levels: tickets entering "soon" or passing a due time are told (docs/staff.md).
  const slaSweeper = new SlaSweeper(ctx, app.log, { pollMs: config.SLA_SWEEP_SECONDS * 1000 });
  slaSweeper.start();
  // The portals' support mailboxes (docs/email.md): one process reads each, under a lease.
  const mailboxes = new MailboxReader(ctx, app.log);
  mailboxes.start();
  // And the mail sent to them straight to this process, when INBOUND_SMTP_PORT says so.
  const ingress =
    config.INBOUND_SMTP_PORT === undefined
      ? undefined
      : new SmtpIngress(ctx, app.log, {
          port: config.INBOUND_SMTP_PORT,
          host: config.INBOUND_SMTP_HOST ?? config.HOST,
          messagesPerIp: config.INBOUND_SMTP_RATE,
        });

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
      await Promise.all([
        worker.stop(),
        webhooks.stop(),
        sweeper.stop(),
        slaSweeper.stop(),
        mailboxes.stop(),
        ingress?.stop(),
      ]);
      await Promise.all([database.close(), ctx.fileStore.close()]);
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await ingress?.start();
  lifecycle.phase = 'serving';
  app.log.info(
    {
      url: `http://${config.HOST}:${config.PORT}`,
      database: database.kind,
      files: ctx.fileStore.description,
      startupMs: Math.round(performance.now() - started),
    },
    'Sportello is ready',
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
