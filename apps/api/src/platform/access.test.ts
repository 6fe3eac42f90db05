import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import Fastify from 'fastify';
import {
  accessRuleOf,
  accessTable,
  guard,
  installAccessControl,
  registeredRoutes,
  type RouteKey,
} from './access';
import type { App } from './context';
import type { AppContext } from './context';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const apiRoutes = () =>
  registeredRoutes(t.app).filter((r) => /^\/api(\/|$)/i.test(r.url) && r.method !== 'HEAD');

describe('route access table', () => {
  it('sees the routes of the app', () => {
    expect(apiRoutes().length).toBeGreaterThanOrEqual(Object.keys(accessTable).length - 5);
  });

  it('has an entry for every /api route', () => {
    const missing = apiRoutes()
      .filter((r) => !accessRuleOf(r.method, r.url))
      .map((r) => `${r.method} ${r.url}`);
    expect(missing, 'add these routes to accessTable in platform/access.ts').toEqual([]);
  });

  it('names no route that does not exist', () => {
    const registered = new Set(apiRoutes().map((r) => `${r.method} ${r.url}`.toLowerCase()));
    const stale = Object.keys(accessTable).filter((k) => !registered.has(k.toLowerCase()));
    expect(stale).toEqual([]);
  });

  it('refuses a handler that passes another route key', async () => {
    const req = { method: 'GET', routeOptions: { url: '/api/:company/:contactid/invoices' } };
    await expect(
      guard(req as never, t.ctx as AppContext, 'GET /api/:company/:contactid/estimates' as RouteKey),
    ).rejects.toThrow(/called from route/);
  });

  it('answers 401 before validating input of a guarded route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/acme/not-a-number/tickets?from=garbage' });
    expect(res.statusCode).toBe(401);
  });
});

describe('OpenAPI document', () => {
  it('documents every portal route, with the bearer scheme where a token is needed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      paths: Record<
        string,
        Record<string, { security?: unknown; parameters?: { name: string }[]; responses?: object }>
      >;
    };
    const paths = Object.fromEntries(Object.entries(doc.paths).map(([p, v]) => [p.toLowerCase(), v]));
    for (const [key, rule] of Object.entries(accessTable)) {
      if (key === 'GET /api/docs') continue; // the document does not describe itself
      const [method, path] = key.split(' ') as [string, string];
      const openapiPath = path.replace(/:(\w+)/g, '{$1}').toLowerCase();
      const op = paths[openapiPath]?.[method.toLowerCase()];
      expect(op, `${key} in /api/docs`).toBeDefined();
      // Public routes may declare their own scheme (the import's admin key); guarded ones get the bearer.
      if (rule.guard !== 'public') expect(op!.security, key).toEqual([{ bearer: [] }]);
      expect(Object.keys(op!.responses ?? {}).length, key).toBeGreaterThan(0);
    }
    expect(paths['/api/settings/{company}/tags']!.get!.security).toBeUndefined();
    // Answers carry the A3 field names.
    const ac = JSON.stringify(paths['/api/{company}/{contactid}/activitycontracts']);
    expect(ac).toContain('residual_Time_String');
    expect(ac).toContain('activityLocation_Address');
  });
});

describe('a route missing from the table', () => {
  it('is refused at run time (fail closed)', async () => {
    const app = Fastify() as unknown as App;
    installAccessControl(app, t.ctx);
    app.get('/api/forgotten', async () => ({ secret: true }));
    const res = await app.inject({ method: 'GET', url: '/api/forgotten' });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('secret');
    await app.close();
  });
});
