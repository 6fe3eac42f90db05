import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { bearer, exampleDocument } from '../../test/seed';
import { countRows } from './import.test-support';

describe('POST /api/admin/import', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const post = (payload: unknown, headers: Record<string, string> = bearer(TEST_ADMIN_KEY)) =>
    t.app.inject({ method: 'POST', url: '/api/admin/import', payload: payload as object, headers });

  it('refuses a request without the admin key, or with a wrong one', async () => {
    const none = await post(exampleDocument(), {});
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'unauthorized' });
    const wrong = await post(exampleDocument(), bearer('not-the-admin-key-at-all'));
    expect(wrong.statusCode).toBe(401);
    const prefix = await post(exampleDocument(), bearer(TEST_ADMIN_KEY.slice(0, -1)));
    expect(prefix.statusCode).toBe(401);
    const basic = await post(exampleDocument(), { authorization: `Basic ${TEST_ADMIN_KEY}` });
    expect(basic.statusCode).toBe(401);
    expect(await countRows(t.ctx.database, 'portals')).toBe(0);
  });

  it('answers 503 import_disabled when PORTAL_ADMIN_KEY is not set', async () => {
    const key = t.ctx.config.PORTAL_ADMIN_KEY;
    t.ctx.config.PORTAL_ADMIN_KEY = undefined;
    try {
      const res = await post(exampleDocument());
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'import_disabled' });
      const noHeader = await post(exampleDocument(), {});
      expect(noHeader.statusCode).toBe(503);
    } finally {
      t.ctx.config.PORTAL_ADMIN_KEY = key;
    }
  });

  it('imports the example and answers the counts', async () => {
    const res = await post(exampleDocument());
    expect(res.statusCode).toBe(200);
    expect(res.json().imported).toMatchObject({
      portals: 1,
      users: 3,
      tickets: 5,
      companies: 2,
      contacts: 5,
    });
    const again = await post(exampleDocument());
    expect(again.statusCode).toBe(200);
    expect(await countRows(t.ctx.database, 'tickets')).toBe(5);
  });

  it('answers 400 with every problem and its path, and changes nothing', async () => {
    const doc = exampleDocument() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    doc.portals[0].companies[1].tickets[0].taskTypeId = 7;
    doc.portals[0].companies[0].tickets[0].colour = 'red';
    doc.portals[0].companies[0].tickets[1].title = 'Cambiato';
    const res = await post(doc);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('import_invalid');
    expect(body.message).toBe('The import document has 2 problems');
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: 'portals[0].companies[1].tickets[0].taskTypeId', message: 'unknown ticket type 7' },
        { path: 'portals[0].companies[0].tickets[0].colour', message: 'unknown field "colour"' },
      ]),
    );
    const rows = await t.ctx.database.withConnection((sql) =>
      sql.query<{ title: string }>(`select title from tickets where ext_id = 5002`),
    );
    expect(rows.rows[0]?.title).toBe('ACME Rete lenta');
  });

  it('rejects a body that is not JSON or not a document', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/import',
      payload: '{"formatVersion": 1,',
      headers: { ...bearer(TEST_ADMIN_KEY), 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    const arr = await post([]);
    expect(arr.statusCode).toBe(400);
    expect(arr.json().code).toBe('import_invalid');
  });

  it('refuses path file references over HTTP', async () => {
    const doc = exampleDocument() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    doc.portals[0].logo = { name: 'logo.png', path: '/etc/passwd' };
    const res = await post(doc);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        path: 'portals[0].logo.path',
        message: 'a file path is allowed only from the command line; send base64',
      },
    ]);
  });

  it('is described in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    const op = res.json().paths['/api/admin/import']?.post;
    expect(op).toBeTruthy();
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '503']));
  });
});
