import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from './context';
import { createTestApp, type TestApp } from '../test/harness';
import { seedExample } from '../test/seed';

const onPglite = process.env.TEST_DATABASE_URL === undefined;
const url = '/api/Settings/portals/acme';

/** The event loop held for `ms`, as by one long statement of the embedded database. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * Requests carrying `x-test-id` note when their work begins (after the load-shedding hook has let them
 * start); `x-test-block: ms` then holds the loop that long, after setting a timer that notes when the
 * loop next turned.
 */
function workRecorder(events: string[]) {
  return (app: App) =>
    app.addHook('preHandler', (req, _reply, done) => {
      const id = req.headers['x-test-id'];
      if (typeof id === 'string') {
        events.push(`start ${id}`);
        const ms = Number(req.headers['x-test-block'] ?? 0);
        if (ms > 0) {
          setTimeout(() => events.push('loop turned'), 0);
          block(ms);
        }
      }
      done();
    });
}

describe('embedded database queue bound by count', () => {
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

  it.runIf(onPglite)(
    'refuses API requests at once with 503 and Retry-After past the limit, then serves them again',
    async () => {
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

describe('embedded database queue bound by time', () => {
  let t: TestApp;
  const events: string[] = [];
  beforeAll(async () => {
    // A turn starts requests for a quarter of the bound: 250 ms here.
    t = await createTestApp({ env: { PGLITE_MAX_WAIT_MS: '1000' }, configure: workRecorder(events) });
    await seedExample(t);
  });
  afterAll(() => t.close());
  const get = (id: string, blockMs = 0) =>
    t.app.inject({ method: 'GET', url, headers: { 'x-test-id': id, 'x-test-block': String(blockMs) } });

  it.runIf(onPglite)(
    'starts requests read together on later turns of the loop, so it reads, accepts and refuses in between',
    async () => {
      events.length = 0;
      // A holds the loop for longer than a turn's slice: B, read with it, starts on the next turn.
      const [a, b] = await Promise.all([get('A', 400), get('B')]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(events).toEqual(['start A', 'loop turned', 'start B']);
    },
  );

  it.runIf(onPglite)(
    'answers a request held past the bound 503 with Retry-After when its turn comes, before any of its work',
    async () => {
      events.length = 0;
      let blockEnded = 0;
      const slow = get('A', 1200).then((r) => {
        blockEnded = performance.now();
        return r;
      });
      const [a, b, health] = await Promise.all([
        slow,
        get('B'),
        t.app.inject({ method: 'GET', url: '/api/health' }),
      ]);
      const answeredAfterBlock = performance.now() - blockEnded;
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(503);
      expect(b.headers['retry-after']).toBe('1');
      expect(b.json()).toMatchObject({ code: 'server_busy' });
      // B never started: no hook, guard or handler of its route ran.
      expect(events).toContain('start A');
      expect(events).not.toContain('start B');
      expect(answeredAfterBlock).toBeLessThan(500);
      // The health check waited for the loop like everything else, but is never refused.
      expect(health.statusCode).toBe(200);
      // With the loop free again, the next request is served.
      expect((await get('C')).statusCode).toBe(200);
    },
  );

  it.runIf(!onPglite)('is not installed on PostgreSQL, where statements do not hold the loop', async () => {
    const [a, b] = await Promise.all([get('A', 1200), get('B')]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
  });
});
