import { PassThrough } from 'node:stream';
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

  /** An API request that stays in progress (its body still arriving) until `end` is called. */
  function pending() {
    const body = new PassThrough();
    const answer = t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    return {
      answer,
      end: () => body.end(JSON.stringify({ userName: 'nobody', password: 'wrong-password-123' })),
    };
  }
  const tick = () => new Promise((r) => setTimeout(r, 50));

  it.runIf(process.env.TEST_DATABASE_URL === undefined)(
    'refuses API requests at once with 503 and Retry-After past the limit, then serves them again',
    async () => {
      const url = '/api/Settings/portals/acme';
      const a = pending();
      const b = pending();
      await tick();
      const started = performance.now();
      const refused = await t.app.inject({ method: 'GET', url });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json()).toMatchObject({ code: 'server_busy' });
      expect(performance.now() - started).toBeLessThan(1000);
      // Health is never refused: busy is not down.
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

      a.end();
      b.end();
      expect((await a.answer).statusCode).toBe(401);
      expect((await b.answer).statusCode).toBe(401);
      // Once the requests in progress are answered, the next one is served.
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    },
  );
});
