import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '@sportello/contracts';
import { createTestApp, openTestDatabase, type TestApp } from '../test/harness';
import { bearer, seedExample, tokenFor } from '../test/seed';

/** Inputs that used to answer 500: each is the client's mistake and must be a 4xx `{code, message}`. */
describe('bad input answers 4xx', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    await seedExample(t);
    headers = bearer(await tokenFor(t, 'mario.rossi'));
  });
  afterAll(() => t.close());

  describe('integer ids beyond the database integer', () => {
    it.each([2_147_483_648, 9_007_199_254_740_991, 0, -1])('refuses attachment id %d', async (id) => {
      const ticket = await t.app.inject({
        method: 'POST',
        url: '/api/acme/101/tickets',
        headers,
        payload: { title: 'x', description: 'y', taskTypeId: 1, attachments: [id] },
      });
      expect(ticket.statusCode).toBe(400);
      expect(ticket.json().code).toBe('validation_error');
      const comment = await t.app.inject({
        method: 'POST',
        url: '/api/acme/101/comments',
        headers,
        payload: { taskId: 5001, message: 'y', commentType: 0, attachments: [id] },
      });
      expect(comment.statusCode).toBe(400);
      expect(comment.json().code).toBe('validation_error');
    });
  });

  describe('dates out of range', () => {
    it.each([
      'tickets?from=0100-01-01',
      'tickets?to=9999-12-31',
      'tickets?from=1000-01-01',
      'tickets/all?from=0100-01-01',
      'invoices?from=0100-01-01',
      'estimates?to=9999-12-31',
      'activities/activityreports?from=0100-01-01',
      'activitycontracts?from=0100-01-01',
    ])('answers 400 invalid_date for %s', async (path) => {
      const res = await t.app.inject({ url: `/api/acme/101/${path}`, headers });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('invalid_date');
    });

    it('still reads the years around now', async () => {
      const res = await t.app.inject({ url: '/api/acme/101/tickets?from=1900-01-01&to=2199-12-31', headers });
      expect(res.statusCode).toBe(200);
    });
  });

  describe("the framework's own refusals", () => {
    // Fastify answers these before any route runs; its codes (FST_ERR_…) are not ours and must not reach a client.
    it.each([
      ['a body type no route reads', 'application/xml', '<a/>', 415],
      ['a JSON route sent text', 'text/plain', 'hello', 400],
      ['an empty JSON body', 'application/json', '', 400],
      ['broken JSON', 'application/json', '{"title": ', 400],
      ['a JSON body that is a bare string', 'application/json', '"x"', 400],
    ])('answers a typed code for %s', async (_what, contentType, payload, status) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/acme/101/comments',
        headers: { ...headers, 'content-type': contentType },
        payload,
      });
      expect(res.statusCode, res.body).toBe(status);
      const body = res.json<{ code: string; message: string }>();
      expect(isErrorCode(body.code), body.code).toBe(true);
      expect(body.message).toBeTruthy();
    });
  });

  describe("the router's own refusals", () => {
    it.each([
      [
        'a path parameter over 200 characters',
        `/api/acme/101/tickets/${'1'.repeat(201)}`,
        414,
        'uri_too_long',
      ],
      ['bad percent-encoding', '/api/acme/101/tickets/%E0%A4%A', 400, 'bad_url'],
    ])('answers %s with our code and headers', async (_what, url, status, code) => {
      const res = await t.app.inject({ url, headers });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toEqual({ code, message: expect.any(String) });
      expect(isErrorCode(code)).toBe(true);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });

  describe('malformed multipart', () => {
    const upload = (contentType: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/acme/101/documents/upload',
        headers: { ...headers, 'content-type': contentType },
        payload,
      });

    it('answers 400 for a multipart body without a boundary', async () => {
      const res = await upload('multipart/form-data', 'abc');
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('bad_multipart');
    });

    it('answers 400 for a multipart body without its closing boundary', async () => {
      const res = await upload(
        'multipart/form-data; boundary=XX',
        '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n' +
          'Content-Type: text/plain\r\n\r\nhello',
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('bad_multipart');
    });

    it('answers 400 for a body that never starts a part', async () => {
      const res = await upload('multipart/form-data; boundary=XX', 'garbage');
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('bad_multipart');
    });
  });
});

describe('health during a database outage', () => {
  it('answers 503, and 200 again once the database answers', async () => {
    const database = await openTestDatabase();
    const t = await createTestApp({ database });
    try {
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      const execute = database.db.execute.bind(database.db);
      database.db.execute = (() =>
        Promise.reject(new Error('connection refused'))) as unknown as typeof execute;
      const down = await t.app.inject({ url: '/api/health' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ code: 'database_unavailable', message: 'The database does not answer' });
      database.db.execute = execute;
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await t.close();
      await database.close();
    }
  });
});
