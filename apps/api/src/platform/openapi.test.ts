import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import { allRouteContracts, isBinaryAnswer, routeKey, statusesOf } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { defineRoute } from '@sportello/contracts';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { installAccessControl } from './access';
import type { App } from './context';
import { ONE_FILE_RULE, openApiPath } from './openapi';
import { recordUndocumentedAnswers, route } from './route';

type Op = {
  responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: { properties: Record<string, { format?: string }> } }> };
};
let t: TestApp;
let doc: { paths: Record<string, Record<string, Op>> };
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
});
afterAll(async () => {
  await t?.close();
});

const op = (method: string, path: string) => doc.paths[openApiPath(path)]![method.toLowerCase()]!;

describe('the OpenAPI document', () => {
  it('is valid for an OpenAPI validator (every $ref resolves)', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
  });

  it('documents every answer each contract can give: its own and the common errors of its shape', () => {
    for (const c of allRouteContracts()) {
      if (c.hide) continue;
      const documented = Object.keys(op(c.method, c.path).responses).map(Number).sort();
      expect(documented, routeKey(c)).toEqual(statusesOf(c));
    }
    // A guarded body route: 401/403 (guard), 400/413/415 (body), 414 (path params), 500/503.
    expect(Object.keys(op('POST', '/api/:company/:contactid/tickets').responses)).toEqual(
      expect.arrayContaining(['400', '401', '403', '413', '414', '415', '500', '503']),
    );
  });

  it('documents logout as 204 without a body, uploads as multipart and files as bytes', () => {
    expect(op('POST', '/api/auth/logout').responses['204']!.content).toBeUndefined();
    const upload = op('POST', '/api/:company/:contactid/documents/upload/contact').requestBody!;
    expect(upload.content['multipart/form-data']!.schema.properties.file!.format).toBe('binary');
    const file = op('GET', '/api/files/:id/:name').responses;
    expect(Object.keys(file['200']!.content!)).toEqual(['*/*']);
    expect(Object.keys(file)).toEqual(expect.arrayContaining(['400', '403', '404', '410']));
  });

  it('documents the real media type of every answer that is not JSON (issue 29, A7b)', () => {
    const types = (method: string, path: string, status = '200') =>
      Object.keys(op(method, path).responses[status]!.content!);
    expect(types('GET', '/api/staff/portals/:company/admin/audit-log.csv')).toEqual(['text/csv']);
    expect(types('GET', '/api/settings/:company/manifest.webmanifest')).toEqual([
      'application/manifest+json',
    ]);
    // A stored file goes out as its own type (a forced download as application/octet-stream).
    expect(types('GET', '/api/files/:id/:name', '206')).toEqual(['*/*']);
    expect(types('GET', '/api/integration/v1/files/:id')).toEqual(['*/*']);
    expect(
      types('GET', '/api/staff/portals/:company/admin/signature-requests/:documentkey/signed.pdf'),
    ).toEqual(['application/pdf']);
    // Nothing else claims JSON for an answer the server sends otherwise: each non-JSON route is named.
    for (const c of allRouteContracts()) {
      if (c.hide) continue;
      for (const [status, a] of Object.entries(op(c.method, c.path).responses)) {
        if (Number(status) >= 300 || !a.content) continue;
        const [type] = Object.keys(a.content);
        expect(
          type === 'application/json' || c.answerType || isBinaryAnswer(c.responses[Number(status)]),
        ).toBeTruthy();
      }
    }
  });

  it('states the one-file-per-upload rule on every upload route', () => {
    const uploads = allRouteContracts().filter((c) => c.bodyKind === 'multipart' && !c.hide);
    expect(uploads.length).toBeGreaterThan(3);
    for (const c of uploads) {
      const body = op(c.method, c.path).requestBody as {
        description?: string;
        content: Record<string, { schema: { additionalProperties?: boolean; required?: string[] } }>;
      };
      expect(body.description, routeKey(c)).toBe(ONE_FILE_RULE);
      expect(body.description).toContain('one_file_only');
      const form = body.content['multipart/form-data']!.schema;
      expect(form.required).toEqual(['file']);
      expect(form.additionalProperties).toBe(false);
    }
  });
});

describe('answers outside the contracts', () => {
  it('records a status a contract does not document (the harness fails such a test file)', async () => {
    const app = Fastify() as unknown as App;
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installAccessControl(app, t.ctx);
    const teapot = defineRoute({
      method: 'GET',
      path: '/api/teapot',
      responses: { 200: z.object({}) },
      access: { guard: 'public' },
      tags: ['test'],
      summary: 'x',
    });
    route(app, t.ctx, teapot, async (_req, reply) =>
      reply.code(418).send({ code: 'conflict', message: 'x' }),
    );
    // Installed after the routes, as the harness does.
    const seen = recordUndocumentedAnswers(app);
    await app.inject({ method: 'GET', url: '/api/teapot' });
    await app.inject({ method: 'GET', url: '/api/teapot' });
    expect(seen).toEqual(['GET /api/teapot → 418']);
    await app.close();
  });

  it('answers 404 JSON, not the static files, for an unknown path under /api', async () => {
    const dir = join(t.dataDir, 'web');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    const web = await createTestApp({ env: { WEB_DIST: dir } });
    try {
      for (const url of ['/api/nothing-here', '/api/.env', '/api/index.html', '/api/..%2findex.html']) {
        const res = await web.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json().code, url).toBe('not_found');
      }
      // It used to reach the static files and answer their 403 (fst_static_forbidden_path).
      const nul = await web.app.inject({ method: 'GET', url: '/api/a%00b' });
      expect(nul.statusCode).toBe(400);
      expect(typeof nul.json().code).toBe('string');
    } finally {
      await web.close();
    }
  });
});
