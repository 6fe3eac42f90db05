import { allRouteContracts, defineRoute, routeKey } from '@sportello/contracts';
import Fastify, { type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/harness';
import { installAccessControl, registeredRoutes, registerGuard } from './access';
import type { App } from './context';
import { forbidden } from './errors';
import { route } from './route';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const apiRoutes = () =>
  registeredRoutes(t.app).filter((r) => /^\/api(\/|$)/i.test(r.url) && r.method !== 'HEAD');

function bareApp(): App {
  const app = Fastify() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installAccessControl(app, t.ctx);
  return app;
}

describe('route contracts', () => {
  it('registers every /api route through a contract', () => {
    expect(apiRoutes().length).toBeGreaterThan(40);
    const without = apiRoutes()
      .filter((r) => !r.contract)
      .map((r) => `${r.method} ${r.url}`);
    expect(without, 'register these with route() and a contract from @sportello/contracts').toEqual([]);
  });

  it('registers every contract of the contracts package, and only those', () => {
    const registered = new Set(apiRoutes().map((r) => routeKey(r.contract!)));
    const listed = new Set(allRouteContracts().map(routeKey));
    expect(
      [...listed].filter((k) => !registered.has(k)),
      'contracts never registered',
    ).toEqual([]);
    expect(
      [...registered].filter((k) => !listed.has(k)),
      'add the area to apiRoutes',
    ).toEqual([]);
  });

  it('answers 401 before validating input of a guarded route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/acme/not-a-number/tickets?from=garbage' });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a contract whose params do not match its path, at registration', () => {
    const app = bareApp();
    const bad = defineRoute({
      method: 'GET',
      path: '/api/things/:id',
      params: z.object({ thing: z.string() }),
      responses: { 200: z.object({}) },
      access: { guard: 'public' },
      tags: ['test'],
      summary: 'x',
    });
    expect(() => route(app, t.ctx, bad, async () => ({}))).toThrow(/params schema/);
  });

  it('lets a module add a guard kind by registering its resolver, and refuses a kind without one', async () => {
    // A kind no module registers (every real kind, staff included, is registered when its module loads).
    const kind = 'testOnlyKind' as 'staff';
    const guarded = defineRoute({
      method: 'GET',
      path: '/api/test-guarded',
      responses: { 200: z.object({ who: z.string() }) },
      access: { guard: kind, role: 'admin' },
      tags: ['test'],
      summary: 'x',
    });
    expect(() => route(bareApp(), t.ctx, guarded, async () => ({ who: '' }))).toThrow(/no resolver/);

    const unregister = registerGuard(kind, (async (
      req: FastifyRequest,
      _ctx: unknown,
      access: { role?: string },
    ) => {
      if (req.headers['x-staff'] !== access.role) throw forbidden();
      return { name: 'Ada' };
    }) as never);
    try {
      const app = bareApp();
      route(app, t.ctx, guarded, async (_req, _reply, who) => ({
        who: (who as unknown as { name: string }).name,
      }));
      const ok = await app.inject({
        method: 'GET',
        url: '/api/test-guarded',
        headers: { 'x-staff': 'admin' },
      });
      expect(ok.json()).toEqual({ who: 'Ada' });
      const no = await app.inject({
        method: 'GET',
        url: '/api/test-guarded',
        headers: { 'x-staff': 'agent' },
      });
      expect(no.statusCode).toBe(403);
      await app.close();
    } finally {
      unregister();
    }
  });
});

describe('OpenAPI document', () => {
  it('documents every contract, with the bearer scheme where a token is needed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      paths: Record<string, Record<string, { security?: unknown; responses?: object }>>;
    };
    const paths = Object.fromEntries(Object.entries(doc.paths).map(([p, v]) => [p.toLowerCase(), v]));
    for (const c of allRouteContracts()) {
      if (c.hide) continue; // the document does not describe itself
      const openapiPath = c.path.replace(/:(\w+)/g, '{$1}').toLowerCase();
      const op = paths[openapiPath]?.[c.method.toLowerCase()];
      expect(op, `${routeKey(c)} in /api/docs`).toBeDefined();
      if (['user', 'portal', 'tenant', 'contact'].includes(c.access.guard))
        expect(op!.security, routeKey(c)).toEqual([{ bearer: [] }]);
      if (c.access.guard === 'public') expect(op!.security, routeKey(c)).toBeUndefined();
      expect(Object.keys(op!.responses ?? {}).length, routeKey(c)).toBeGreaterThan(0);
    }
    // Answers carry the A3 field names.
    const ac = JSON.stringify(paths['/api/{company}/{contactid}/activitycontracts']);
    expect(ac).toContain('residual_Time_String');
    expect(ac).toContain('activityLocation_Address');
  });
});

describe('a route registered without a contract', () => {
  it('is refused at run time (fail closed)', async () => {
    const app = bareApp();
    app.get('/api/forgotten', async () => ({ secret: true }));
    const res = await app.inject({ method: 'GET', url: '/api/forgotten' });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('secret');
    await app.close();
  });
});
