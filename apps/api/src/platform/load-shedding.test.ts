import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, AppContext } from './context';
import { installUploadLimits } from './upload-limits';
import { createTestApp, type TestApp } from '../test/harness';
import { multipartFile, seedPersonas, type PersonaAccess } from '../test/personas';
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
      // Past the bound plus the usual time of the one request ahead (a quarter of the bound at start).
      const slow = get('A', 1600).then((r) => {
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
    const [a, b] = await Promise.all([get('A', 1600), get('B')]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
  });
});

/** An upload over a real connection whose body is still arriving until `end` is called. */
async function slowUpload(t: TestApp, headers: Record<string, string>) {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const { payload, headers: multipart } = multipartFile('slow.txt', 'x'.repeat(64));
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/acme/102/comments/attachments',
    headers: { ...headers, ...multipart, 'content-length': String(payload.length) },
  });
  const answer = new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  req.write(payload.subarray(0, 120));
  // Past its guard, reading its body.
  await new Promise((r) => setTimeout(r, 200));
  return { answer, end: () => req.end(payload.subarray(120)) };
}

describe('uploads and the embedded database queue', () => {
  let t: TestApp;
  let owner: PersonaAccess;
  beforeAll(async () => {
    t = await createTestApp({ env: { PGLITE_QUEUE_LIMIT: '2', PGLITE_MAX_WAIT_MS: '250' } });
    owner = (await seedPersonas(t)).owner;
  });
  afterAll(() => t.close());

  it('counts an upload for its database work only, not while its body arrives', async () => {
    const uploads = [];
    for (let i = 0; i < 3; i++) uploads.push(await slowUpload(t, owner.headers));
    // Three bodies still arriving, with room for two requests: everybody else is served.
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    for (const u of uploads) {
      u.end();
      const r = await u.answer;
      expect(r.statusCode, r.body).toBe(201);
    }
  });

  it.runIf(onPglite)(
    'waits out a short queue that drains at its usual pace rather than refusing it',
    async () => {
      // Eight requests read together, each holding the loop 60 ms: the last starts ~420 ms after it was
      // read, past the 250 ms bound but within the bound plus the usual time of the seven ahead of it.
      const events: string[] = [];
      const slow = await createTestApp({
        env: { PGLITE_MAX_WAIT_MS: '250' },
        configure: workRecorder(events),
      });
      try {
        await seedExample(slow);
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            slow.app.inject({
              method: 'GET',
              url,
              headers: { 'x-test-id': String(i), 'x-test-block': '60' },
            }),
          ),
        );
        expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
      } finally {
        await slow.close();
      }
    },
  );
});

describe('uploads in flight', () => {
  let t: TestApp;
  let owner: PersonaAccess;
  beforeAll(async () => {
    t = await createTestApp({ env: { MAX_UPLOADS_IN_FLIGHT: '2' } });
    owner = (await seedPersonas(t)).owner;
  });
  afterAll(() => t.close());

  it('refuses an upload past the cap with 503 and Retry-After before reading it, and serves the rest', async () => {
    const a = await slowUpload(t, owner.headers);
    const b = await slowUpload(t, owner.headers);
    const { payload, headers } = multipartFile('third.txt', 'third');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/acme/102/comments/attachments',
      headers: { ...owner.headers, ...headers },
      payload,
    });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toMatchObject({ code: 'server_busy' });
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    a.end();
    b.end();
    expect([(await a.answer).statusCode, (await b.answer).statusCode]).toEqual([201, 201]);
    // Room again.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/acme/102/comments/attachments',
      headers: { ...owner.headers, ...headers },
      payload,
    });
    expect(again.statusCode, again.body).toBe(201);
  });
});

describe('the pace of an upload body', () => {
  it('closes the connection of a body slower than the minimum rate, and lets a steady one through', async () => {
    const app = Fastify() as unknown as App;
    installUploadLimits(app, { config: { MAX_UPLOADS_IN_FLIGHT: 10 } } as AppContext, 200);
    app.post('/up', async (req) => {
      let n = 0;
      for await (const chunk of req.raw) n += (chunk as Buffer).length;
      return { n };
    });
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, _payload, done) => done(null));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    try {
      const send = (chunks: number, bytes: number, everyMs: number) =>
        new Promise<string>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          let answer = '';
          socket.on('data', (d: Buffer) => (answer += d.toString()));
          socket.on('close', () => resolve(answer || 'closed'));
          socket.on('error', () => {});
          socket.write(
            `POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n` +
              `Content-Length: ${chunks * bytes}\r\nConnection: close\r\n\r\n`,
          );
          let sent = 0;
          const timer = setInterval(() => {
            if (socket.destroyed) return clearInterval(timer);
            socket.write(Buffer.alloc(bytes, 1));
            if (++sent === chunks) clearInterval(timer);
          }, everyMs);
        });
      // A byte every 50 ms: far below 8 KiB/s, closed within a window or two, unanswered.
      expect(await send(40, 1, 50)).toBe('closed');
      // 4 KiB every 50 ms (80 KiB/s): through.
      expect(await send(10, 4096, 50)).toMatch(/^HTTP\/1.1 200/);
    } finally {
      await app.close();
    }
  });
});
