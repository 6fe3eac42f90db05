import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestApp, type TestApp } from '../test/harness';
import type { App } from './context';
import { redactedUrl } from './log-redact';

describe('request log lines', () => {
  let t: TestApp;
  let app: App;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    // The server's own logger settings (default level), writing where the test can read.
    app = await buildApp(t.ctx, { logger: { level: 'info', stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });

  it('never contain a link token, document or event key, file signature or credential', async () => {
    const secrets = [
      'LINKTOKEN0123456789abcdef',
      'DOCKEYsign0123456789',
      'EVENTKEY0123456789ab',
      'CANCELKEY0123456789a',
      'TASKKEY0123456789abc',
      'FILESIGNATURE0123456789',
      'BEARERTOKEN0123456789',
      'IDEMPOTENCY0123456789',
    ];
    const [link, doc, event, cancel, task, sig, bearer, idem] = secrets;
    const headers = { authorization: `Bearer ${bearer}`, 'idempotency-key': idem! };
    for (const url of [
      `/api/auth/links/${link}`,
      `/api/signing/acme/${doc}`,
      `/api/signing/acme/${doc}/otp`,
      `/api/appointments/acme/${event}/slots?from=2026-11-20`,
      `/api/appointments/acme/cancellation/${cancel}`,
      `/api/tasks/acme/${task}`,
      `/api/files/1/x.pdf?e=1999999999&s=${sig}`,
      `/api/FILES/1/x.pdf/?S=${sig}&e=1`,
      // The web app's pages of those links, answered outside the API's routes (the page or its frame).
      `/acme/documents/${doc}`,
      `/acme/Documents/${doc}/confirm?x=1`,
      `/appointments/acme/${event}`,
      `/appointments/acme/cancellation/${cancel}/`,
      `/tasks/acme/${task}`,
    ])
      await app.inject({ method: url.includes('/otp') ? 'POST' : 'GET', url, headers });
    const log = lines.join('');
    // The one access line per request carries the request (app.ts, OneLinePerRequest).
    expect(log).toContain('request completed');
    expect(log).toContain('/api/signing/acme/[redacted]/otp');
    expect(log).toContain('/acme/Documents/[redacted]/confirm?x=1');
    expect(log).toContain('/appointments/acme/cancellation/[redacted]/');
    for (const s of secrets) expect(log, s).not.toContain(s);
  });

  it('keeps what is not secret', () => {
    expect(redactedUrl('/demo/12/tickets?page=2', undefined)).toBe('/demo/12/tickets?page=2');
    expect(redactedUrl('/demo/login', undefined)).toBe('/demo/login');
    expect(redactedUrl('/api/acme/101/tickets?page=2', '/api/:company/:contactid/tickets')).toBe(
      '/api/acme/101/tickets?page=2',
    );
    expect(redactedUrl('/api/files/7/a.pdf?e=5&s=abc', '/api/files/:id/:name')).toBe(
      '/api/files/7/a.pdf?e=5&s=%5Bredacted%5D',
    );
  });
});
