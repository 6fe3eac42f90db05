/**
 * `/api/health` says what the installation is made of and whether each part answers, without a secret;
 * `/api/health/ready` tells a load balancer whether this process serves: 503 while migrations run (in
 * a server process that listens before it migrates) and while the database is away (a real PostgreSQL
 * stopped), 200 otherwise.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK } from '../../db/migrate';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { pgBinaries, startPgCluster, type PgCluster } from '../../test/pg-cluster';
import { freePort } from '../../test/ports';

const SMTP_PASSWORD = 'smtp-pass-Zq81x';

describe('health', () => {
  let t: TestApp;
  let closedPort: number;
  beforeAll(async () => {
    closedPort = await freePort();
    t = await createTestApp({
      env: { SMTP_URL: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:${closedPort}` },
    });
    await seedPersonas(t);
  }, 60_000);
  afterAll(() => t.close());

  it('names the database, file store and mail channels and whether each answers, and no secret', async () => {
    const now = t.clock.now().toISOString();
    await t.ctx.database.db.execute(sql`insert into portal_mailboxes
        (portal_id, address, imap_host, imap_user, last_read_at, last_error, created_at, updated_at)
      select id, key || '@mail.example', 'imap.example', 'reader',
        ${now}::timestamptz, case when key = 'acme' then null else 'Authentication failed' end,
        ${now}::timestamptz, ${now}::timestamptz
      from portals where key in ('acme', 'beta')`);
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      database: { kind: process.env.TEST_DATABASE_URL ? 'postgresql' : 'embedded', ok: true },
      files: { kind: 'local', ok: true },
      // Nothing listens on that port: configured, not answering.
      mail: { outgoing: { kind: 'smtp', ok: false }, readers: { configured: 2, reading: 1, failing: 1 } },
    });
    for (const secret of [SMTP_PASSWORD, 'mailer', String(closedPort), 'imap.example', t.dataDir]) {
      expect(res.body).not.toContain(secret);
    }
  });

  it('is ready once every migration of the build is applied, and not while one is missing', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).json()).toEqual({
      status: 'ready',
    });
    const [last] = await queryRows<{ name: string }>(
      t.ctx.database.db,
      sql`select name from schema_migrations order by name desc limit 1`,
    );
    await t.ctx.database.db.execute(sql`delete from schema_migrations where name = ${last!.name}`);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('starting');
      expect(res.headers['retry-after']).toBe('5');
    } finally {
      await t.ctx.database.db.execute(sql`insert into schema_migrations (name) values (${last!.name})`);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });

  it('answers 503 starting, health included, until the process serves', async () => {
    t.ctx.lifecycle = { phase: 'starting' };
    try {
      for (const url of ['/api/health/ready', '/api/health', '/api/staff/me']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(503);
        expect(res.json().code, url).toBe('starting');
      }
    } finally {
      t.ctx.lifecycle = { phase: 'serving' };
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
  });
});

const bins = pgBinaries();
const skip = !process.env.TEST_DATABASE_URL
  ? 'runs in the PostgreSQL pass (set TEST_DATABASE_URL)'
  : 'reason' in bins
    ? bins.reason
    : undefined;
const root = fileURLToPath(new URL('../../../../../', import.meta.url));

describe.skipIf(skip !== undefined)(
  `readiness of a server process${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: PgCluster;
    let server: ChildProcess | undefined;
    const dataDir = mkdtempSync(join(tmpdir(), 'sportello-health-'));
    beforeAll(async () => {
      cluster = await startPgCluster((bins as { bin: string }).bin);
    }, 60_000);
    afterAll(() => {
      server?.kill('SIGKILL');
      cluster?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('is 503 while migrations run and while PostgreSQL is away, 200 otherwise', async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // Trust authentication ignores the password: it is there to be kept out of the answers.
      const databaseUrl = cluster.url.replace('postgres@', 'postgres:db-pass-Hq27@');
      // Another process migrating: this one listens and waits for the migration lock.
      const other = new pg.Client({ connectionString: cluster.url });
      await other.connect();
      await other.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      let out = '';
      server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
        cwd: root,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: String(port),
          DATABASE_URL: databaseUrl,
          DEMO_DATA: 'false',
          LOG_LEVEL: 'warn',
        },
      });
      server.stdout!.on('data', (d) => (out += d));
      server.stderr!.on('data', (d) => (out += d));
      const get = async (path: string) => {
        try {
          const r = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(20_000) });
          return { status: r.status, body: await r.text() };
        } catch {
          return { status: 0, body: '' };
        }
      };
      const until = async (path: string, status: number, ms: number) => {
        const deadline = Date.now() + ms;
        for (;;) {
          const r = await get(path);
          if (r.status === status) return r;
          if (Date.now() > deadline)
            throw new Error(`${path} still ${r.status} after ${ms} ms: ${r.body}\n${out}`);
          await sleep(200);
        }
      };
      try {
        const starting = await until('/api/health/ready', 503, 120_000);
        expect(JSON.parse(starting.body).code).toBe('starting');
        // It stays so while the lock is held, and refuses API requests meanwhile.
        await sleep(1_000);
        expect((await get('/api/health/ready')).status).toBe(503);
        expect(JSON.parse((await get('/api/staff/me')).body).code).toBe('starting');
        await other.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
        await until('/api/health/ready', 200, 180_000);

        const health = await get('/api/health');
        expect(health.status).toBe(200);
        expect(JSON.parse(health.body)).toMatchObject({
          database: { kind: 'postgresql', ok: true },
          files: { kind: 'local', ok: true },
          mail: { outgoing: { kind: 'file', ok: true } },
        });

        // A process of a newer version migrating: this one steps out of rotation too.
        await other.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        expect(JSON.parse((await until('/api/health/ready', 503, 30_000)).body).code).toBe('starting');
        await other.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
        await until('/api/health/ready', 200, 30_000);
        await other.end();

        cluster.stop('immediate');
        const away = await until('/api/health/ready', 503, 60_000);
        expect(JSON.parse(away.body).code).toBe('database_unavailable');
        const healthAway = await get('/api/health');
        expect(healthAway.status).toBe(503);
        for (const r of [starting, health, away, healthAway]) {
          expect(r.body).not.toContain('db-pass-Hq27');
          expect(r.body).not.toContain(String(new URL(cluster.url).port));
        }
        cluster.start();
        await until('/api/health/ready', 200, 60_000);
      } finally {
        await other.end().catch(() => {});
      }
    }, 420_000);
  },
);
