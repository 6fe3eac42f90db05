import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import type { App } from './platform/context';
import { createTestApp, type TestApp } from './test/harness';

describe('request log', () => {
  let t: TestApp;
  let app: App;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l));
        cb();
      },
    });
    app = await buildApp(t.ctx, { logger: { level: 'info', stream } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it('writes one line per request, with what and how it went', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/api/health' });
    await app.inject({ method: 'GET', url: '/api/no/such/route' });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/api/health' },
      res: { statusCode: 200 },
    });
    expect(typeof lines[0]!.responseTime).toBe('number');
    expect(lines[1]).toMatchObject({ req: { url: '/api/no/such/route' }, res: { statusCode: 404 } });
  });
});
