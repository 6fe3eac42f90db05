/**
 * A real PostgreSQL stopped and started under load (issue 29, 12a): the process lives on, answers 503
 * with Retry-After while the server is away, and serves again by itself once it is back. The cluster is
 * the test's own (test/pg-cluster.ts): it runs in the PostgreSQL pass (TEST_DATABASE_URL), where CI has
 * the binaries.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskSignalOf, DESK_CHANNEL } from '../platform/event-signal';
import { bearer } from '../test/seed';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../test/harness';
import { seedPersonas } from '../test/personas';
import { pgBinaries, startPgCluster, type PgCluster } from '../test/pg-cluster';
import { openDatabase, type Database } from './client';
import { migrate } from './migrate';

/** Polls `ok` until it holds, failing after `ms`. */
async function until(ok: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${ok.toString()}`);
    await sleep(50);
  }
}

const bins = pgBinaries();
const skip = !process.env.TEST_DATABASE_URL
  ? 'runs in the PostgreSQL pass (set TEST_DATABASE_URL)'
  : 'reason' in bins
    ? bins.reason
    : undefined;

describe.skipIf(skip !== undefined)(
  `a PostgreSQL restart under load${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let cluster: PgCluster;
    let database: Database;
    let t: TestApp;

    beforeAll(async () => {
      cluster = await startPgCluster((bins as { bin: string }).bin);
      database = await openDatabase({ databaseUrl: cluster.url });
      await migrate(database);
      t = await createTestApp({ database });
      await seedPersonas(t);
    }, 60_000);
    afterAll(async () => {
      // Closing the app and pool after the restarts once outlasted the 60 s hook in CI's PostgreSQL pass
      // (cause not found yet): bounded here so the cluster is always
      // removed, and the tests above still decide.
      const closed = (async () => {
        await t?.close();
        await database?.close();
      })();
      await Promise.race([closed, sleep(15_000)]);
      cluster?.destroy();
    }, 30_000);

    const createKey = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/portals/acme/keys',
        headers: bearer(TEST_ADMIN_KEY),
        payload: { name: 'restart', scopes: ['events'] },
      });

    it('answers 503 with Retry-After while the server is away, never 500, and recovers alone', async () => {
      const answers: { status: number; retryAfter: string | undefined; phase: string }[] = [];
      let phase = 'before';
      let running = true;
      const writer = async () => {
        while (running) {
          const res = await createKey();
          answers.push({ status: res.statusCode, retryAfter: res.headers['retry-after'] as string, phase });
          if (res.statusCode !== 201) await sleep(50);
        }
      };
      // Transactions that hold their client checked out between statements: the state in which a lost
      // server's 'error' event had no listener and killed the process.
      const holder = async () => {
        while (running) {
          await database.db
            .transaction(async (tx) => {
              await tx.execute(sql`select 1`);
              await sleep(200);
              await tx.execute(sql`select 1`);
            })
            .catch(() => sleep(50));
        }
      };
      const load = [...Array.from({ length: 10 }, writer), holder(), holder()];
      await sleep(500);

      phase = 'away';
      cluster.stop('fast');
      await sleep(1500);
      cluster.start();
      phase = 'back';
      // Recovered: a write succeeds again without anything being restarted on our side.
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !answers.some((a) => a.phase === 'back' && a.status === 201))
        await sleep(100);
      await sleep(300);
      running = false;
      await Promise.all(load);

      const statuses = [...new Set(answers.map((a) => a.status))].sort();
      expect(statuses).toEqual([201, 503]);
      expect(answers.filter((a) => a.phase === 'before' && a.status === 201).length).toBeGreaterThan(0);
      expect(answers.filter((a) => a.phase === 'away' && a.status === 503).length).toBeGreaterThan(0);
      expect(answers.filter((a) => a.status === 503).every((a) => a.retryAfter === '5')).toBe(true);
      expect(answers.some((a) => a.phase === 'back' && a.status === 201)).toBe(true);
      const last = await createKey();
      expect(last.statusCode, last.body).toBe(201);
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    }, 60_000);

    it('listens again after a restart, and counts the gap as a change', async () => {
      // Another process on the same server: its own pool and its own LISTEN connection.
      const other = await openDatabase({ databaseUrl: cluster.url, maxConnections: 2 });
      try {
        const signal = deskSignalOf(database);
        let heard = 0;
        const unsubscribe = signal.subscribe(() => heard++);
        await until(() => signal.isListening);
        const notifyFromOther = () => other.withConnection((c) => c.exec(`notify ${DESK_CHANNEL}`));
        const listening = heard;
        await notifyFromOther();
        await until(() => heard > listening);

        cluster.stop('fast');
        // The gap opens: listeners are told (caches clear, and keep nothing while it lasts).
        await until(() => !signal.isListening);
        const atGap = heard;
        expect(atGap).toBeGreaterThan(listening + 1);
        cluster.start();
        // The gap closes (LISTEN again, after back-off): told once more, as anything may have changed.
        await until(() => signal.isListening, 15_000);
        expect(heard).toBeGreaterThan(atGap);

        const before = heard;
        await until(async () => {
          await notifyFromOther().catch(() => {});
          return heard > before;
        }, 10_000);
        unsubscribe();
      } finally {
        await other.close();
      }
    }, 60_000);
  },
);
