import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { seedExample } from '../test/seed';

describe('embedded database queue bound', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PGLITE_QUEUE_LIMIT: '2' } });
    await seedExample(t);
  });
  afterAll(() => t.close());

  /** Keeps the database busy with `n` slow statements while `fn` runs. */
  async function whileBusy<T>(n: number, fn: () => Promise<T>): Promise<T> {
    const slow = Array.from({ length: n }, () =>
      t.ctx.database.withConnection((sql) => sql.query('select pg_sleep(0.3)')),
    );
    try {
      return await fn();
    } finally {
      await Promise.all(slow);
    }
  }

  it.runIf(process.env.TEST_DATABASE_URL === undefined)(
    'refuses API requests at once with 503 and Retry-After past the limit, then serves them',
    async () => {
      const url = '/api/Settings/portals/acme';
      const started = performance.now();
      const refused = await whileBusy(2, () => t.app.inject({ method: 'GET', url }));
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toMatchObject({ code: 'server_busy' });
      // Answered without waiting for the queue to drain.
      expect(performance.now() - started).toBeLessThan(1000);

      // Under the limit a request waits its turn and is served.
      const served = await whileBusy(1, () => t.app.inject({ method: 'GET', url }));
      expect(served.statusCode).toBe(200);
      // Health is never refused: busy is not down.
      const health = await whileBusy(2, () => t.app.inject({ method: 'GET', url: '/api/health' }));
      expect(health.statusCode).toBe(200);
    },
  );
});
