import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../test/harness';
import { bearer, seedExample, tokenFor } from '../test/seed';
import {
  checkJsonText,
  DEFAULT_BODY_LIMIT,
  HEADERS_TIMEOUT_MS,
  IDLE_REQUEST_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_JSON_DEPTH,
} from './request-guards';

/** Opens a raw connection to the listening app and collects what it answers until it closes. */
function rawClient(port: number): { socket: Socket; received: () => string; closed: Promise<number> } {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (d) => (data += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((res) => socket.on('close', () => res(Date.now() - started)));
  return { socket, received: () => data, closed };
}

const waitFor = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return cond();
};

describe('request guards', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    await seedExample(t);
    token = await tokenFor(t, 'mario.rossi');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  describe('JSON depth', () => {
    it('answers a deeply nested body 400 at once, and the server keeps answering', async () => {
      const depth = Math.floor((DEFAULT_BODY_LIMIT - 100) / 2);
      const deep = `{"userName":"a","password":"b","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const started = performance.now();
      const [res, health] = await Promise.all([
        t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: deep,
          headers: { 'content-type': 'application/json' },
        }),
        t.app.inject({ url: '/api/health' }),
      ]);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'json_too_deep' });
      expect(health.statusCode).toBe(200);
    });

    it('counts only brackets outside strings', () => {
      const inString = JSON.stringify({ a: '['.repeat(1000) });
      expect(checkJsonText(inString)).toBeUndefined();
      const atLimit = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
      expect(checkJsonText(atLimit)).toBeUndefined();
      expect(checkJsonText(`[${atLimit}]`)?.code).toBe('json_too_deep');
      expect(checkJsonText(JSON.stringify({ a: 'x\\"[[[', b: '\\' }))).toBeUndefined();
    });

    it('tells an escaped control character from an escaped backslash', () => {
      const bad = (s: string) => checkJsonText(s)?.code;
      expect(bad(JSON.stringify({ a: 'x\\b \\f \\u0000 \\u001F' }))).toBeUndefined();
      expect(bad('{"a":"\\\\b"}')).toBeUndefined();
      expect(bad('{"a":"\\\\\\b"}')).toBe('control_character');
      expect(bad('{"a":"\\u000B"}')).toBe('control_character');
      expect(bad('{"a":"\\u007f \\u0009 \\u000a \\r \\n \\t"}')).toBeUndefined();
      expect(bad(JSON.stringify({ a: 'a\u0000b' }))).toBe('control_character');
    });
  });

  describe('body limits', () => {
    it('refuses a body bigger than its route needs with 413 before reading it', async () => {
      const c = rawClient(port);
      // Announces 190 MB and sends none of it: the answer must not wait for the body.
      c.socket.write(
        'POST /api/auth/recovery HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          `Content-Length: ${190 * 1024 * 1024}\r\n\r\n{"userName":"`,
      );
      expect(await waitFor(() => c.received().includes('\r\n\r\n'), 3000)).toBe(true);
      expect(c.received()).toMatch(/^HTTP\/1\.1 413/);
      expect(c.received()).toContain('payload_too_large');
      c.socket.destroy();
    });

    it('lets the import take the large body its contract names', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/import',
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
        payload: { formatVersion: 1, portals: [], users: [], padding: 'x'.repeat(2 * DEFAULT_BODY_LIMIT) },
      });
      expect(res.statusCode).not.toBe(413);
    });

    it('gives the ticket routes room for a long HTML description, and the rest a few KiB', async () => {
      const big = { userName: 'x'.repeat(DEFAULT_BODY_LIMIT), password: 'y' };
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: big });
      expect(login.statusCode).toBe(413);
      const ticket = await t.app.inject({
        method: 'POST',
        url: '/api/acme/101/tickets',
        headers: bearer(token),
        payload: { title: 'Long', description: `<p>${'è'.repeat(200_000)}</p>`, taskTypeId: null },
      });
      expect(ticket.statusCode).not.toBe(413);
    });
  });

  describe('timeouts', () => {
    it('bounds headers, the whole request, keep-alive and a silent client', () => {
      const s = t.app.server;
      expect(s.timeout).toBe(IDLE_REQUEST_MS);
      expect(IDLE_REQUEST_MS).toBeLessThan(15_000);
      expect(s.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
      expect(s.requestTimeout).toBeGreaterThan(0);
      expect(s.requestTimeout).toBeLessThanOrEqual(5 * 60_000);
      expect(s.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    });

    it('cuts a client that trickles its body (idle timeout shortened to 0.5 s)', async () => {
      t.app.server.setTimeout(500);
      try {
        const c = rawClient(port);
        c.socket.write(
          'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{',
        );
        const trickle = setInterval(() => c.socket.writable && c.socket.write(' '), 1500);
        const closedAfter = await Promise.race([
          c.closed,
          new Promise<number>((r) => setTimeout(() => r(-1), 5000)),
        ]);
        clearInterval(trickle);
        expect(closedAfter).toBeGreaterThan(0);
        expect(closedAfter).toBeLessThan(3000);
      } finally {
        t.app.server.setTimeout(IDLE_REQUEST_MS);
      }
    });

    it('cuts a trickle on a keep-alive connection too, after a first request', async () => {
      t.app.server.setTimeout(500);
      try {
        const c = rawClient(port);
        c.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
        expect(await waitFor(() => c.received().includes('"ok"'), 3000)).toBe(true);
        c.socket.write(
          'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{',
        );
        const trickle = setInterval(() => c.socket.writable && c.socket.write(' '), 1500);
        const closedAfter = await Promise.race([
          c.closed,
          new Promise<number>((r) => setTimeout(() => r(-1), 5000)),
        ]);
        clearInterval(trickle);
        expect(closedAfter).toBeGreaterThan(0);
      } finally {
        t.app.server.setTimeout(IDLE_REQUEST_MS);
      }
    });

    it('spares a request the client has sent whole while its handler works', async () => {
      // argon2 takes far longer than 30 ms: the socket stays silent while the password is checked.
      t.app.server.setTimeout(30);
      try {
        const c = rawClient(port);
        const body = JSON.stringify({ userName: 'mario.rossi', password: 'wrong-password-1' });
        c.socket.write(
          'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${body.length}\r\n\r\n${body}`,
        );
        expect(await waitFor(() => c.received().includes('wrong_credentials'), 5000)).toBe(true);
        c.socket.destroy();
      } finally {
        t.app.server.setTimeout(IDLE_REQUEST_MS);
      }
    });

    it('keeps a keep-alive connection that finished its request, for the next one', async () => {
      t.app.server.setTimeout(500);
      try {
        const c = rawClient(port);
        c.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
        // Counted by status lines: the health answer names "ok" once per part it checks.
        expect(await waitFor(() => c.received().includes('HTTP/1.1 200'), 3000)).toBe(true);
        c.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
        expect(await waitFor(() => c.received().split('HTTP/1.1 200').length === 3, 3000)).toBe(true);
        c.socket.destroy();
      } finally {
        t.app.server.setTimeout(IDLE_REQUEST_MS);
      }
    });
  });

  describe('control characters', () => {
    const post = (url: string, payload: string) =>
      t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });

    it.each([
      ['NUL in a user name', '/api/auth/login', '{"userName":"mario\\u0000","password":"x"}'],
      ['NUL in a password', '/api/auth/login', '{"userName":"mario","password":"\\u0000"}'],
      ['a bell in a recovery name', '/api/auth/recovery', '{"userName":"a\\u0007b"}'],
      ['a form feed escape', '/api/auth/login', '{"userName":"a\\fb","password":"x"}'],
      ['NUL in a key', '/api/auth/login', '{"userName":"a","password":"x","\\u0000":1}'],
    ])('answers 400 for %s in JSON', async (_what, url, body) => {
      const res = await post(url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'control_character' });
    });

    it('lets tabs and line breaks through', async () => {
      const res = await post('/api/auth/login', '{"userName":"a\\tb\\u000a","password":"x\\r\\n"}');
      expect(res.statusCode).toBe(401);
    });

    it.each([
      '/api/ac%00me/101/tickets',
      '/api/acme/101/tickets?from=2026-01-01%00',
      '/api/acme/101/tickets?search=a%0Db',
      '/api/tasks/acme/k%00ey',
      '/api/auth/links/abc%1F',
      '/api/signing/acme/%7F',
    ])('answers 400 for a control character in %s', async (url) => {
      const res = await t.app.inject({ url, headers: bearer(token) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'control_character' });
    });
  });

  describe('caching', () => {
    it('marks signed-in and capability answers no-store', async () => {
      for (const url of ['/api/acme/101/tickets', '/api/Users/me', '/api/tasks/acme/nope', '/api/nope']) {
        const res = await t.app.inject({ url, headers: bearer(token) });
        expect(res.headers['cache-control'], url).toBe('no-store');
      }
    });
  });
});
