/**
 * The inputs an OpenAPI fuzzer found answering 500 (issue 29 items 3, 4, 5 and 12f): each is now a 4xx
 * from the contract, before any query. The boundary walk (boundary-walk.test.ts) covers every route;
 * these name the cases found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createKey, entityHelpers, entityWorld, V1 } from '../test/entity-kit';
import { TEST_ADMIN_KEY, type TestApp } from '../test/harness';

let t: TestApp;
let write = '';
let events = '';
let admin: Record<string, string>;

beforeAll(async () => {
  ({ t, write, admin } = await entityWorld());
  events = (await createKey(t, 'acme', 'feed', ['events'])).secret;
});
afterAll(async () => {
  await t?.close();
});
const { call, count } = entityHelpers(() => t);

const refused = (status: number, body: string) => {
  expect(status, body).toBeGreaterThanOrEqual(400);
  expect(status, body).toBeLessThan(500);
  expect(JSON.parse(body)).toEqual(expect.objectContaining({ code: expect.any(String) }));
};

describe('ids beyond an integer column', () => {
  const big = 2_147_483_648;
  it.each([
    ['GET', `${V1}/files/${big}`, 'key'],
    ['PATCH', `${V1}/webhooks/${big}`, 'key'],
    ['DELETE', `${V1}/webhooks/${big}`, 'key'],
    ['GET', `${V1}/webhooks/${big}/attempts`, 'key'],
    ['POST', `${V1}/webhooks/${big}/replay`, 'key'],
    ['POST', `${V1}/webhooks/${big}/rotate`, 'key'],
    ['POST', `/api/admin/portals/acme/keys/${big}/rotate`, 'adminKey'],
    ['POST', `/api/admin/portals/acme/keys/${big}/revoke`, 'adminKey'],
    ['POST', `${ADMIN}/keys/${big}/revoke`, 'staff'],
    ['GET', `${ADMIN}/signature-requests?cursor=${big}`, 'staff'],
    ['GET', `${ADMIN}/signature-requests?cursor=99999999999999999999`, 'staff'],
    ['GET', `${ADMIN}/content/companies/10/items?kind=invoice&cursor=99999999999999999999`, 'staff'],
    ['GET', `${ADMIN}/audit-log?cursor=99999999999999999999`, 'staff'],
  ] as const)('%s %s is refused', async (method, url, who) => {
    const caller = who === 'key' ? write : who === 'adminKey' ? TEST_ADMIN_KEY : admin;
    const res = await call(method, url, caller, method === 'GET' || method === 'DELETE' ? undefined : {});
    refused(res.statusCode, res.body);
  });
});

describe('feed cursors the database cannot read', () => {
  it.each(['01990-1', '99999999999999999999-1', '0-99999999999999999999', '1-2-3', '-1', '0-'])(
    'after=%s is a 400 on the feed and on replay',
    async (after) => {
      const feed = await call('GET', `${V1}/events?after=${encodeURIComponent(after)}`, events);
      expect(feed.statusCode, feed.body).toBe(400);
      const replay = await call('POST', `${ADMIN}/webhooks/1/replay`, admin, { after });
      expect(replay.statusCode, replay.body).toBe(400);
    },
  );

  it('still reads from the start and from the largest cursor', async () => {
    expect((await call('GET', `${V1}/events?after=0-0`, events)).statusCode).toBe(200);
    const top = await call('GET', `${V1}/events?after=18446744073709551615-9223372036854775807`, events);
    expect(top.statusCode, top.body).toBe(200);
    expect(top.json().events).toEqual([]);
  });
});

describe('audit-log dates', () => {
  it.each([
    '2026-01-01T00:00:00-20:00',
    '0000-01-01T00:00:00Z',
    '+275760-09-13T00:00:00Z',
    '2026-02-30T00:00:00Z',
  ])('from=%s is a 400, as JSON and as CSV', async (from) => {
    const q = `from=${encodeURIComponent(from)}`;
    refused(
      ...(await call('GET', `${ADMIN}/audit-log?${q}`, admin).then((r) => [r.statusCode, r.body] as const)),
    );
    const csv = await call('GET', `${ADMIN}/audit-log.csv?${q}`, admin);
    refused(csv.statusCode, csv.body);
  });

  it('reads offsets PostgreSQL holds', async () => {
    const res = await call(
      'GET',
      `${ADMIN}/audit-log?from=${encodeURIComponent('2026-01-01T00:00:00+14:00')}`,
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('dates outside what a column holds', () => {
  it.each(['0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '0001-01-01', '10000-01-01'])(
    'a comment dated %s is refused and nothing is written',
    async (creationDate) => {
      const before = await count('ticket_comments');
      const res = await call('POST', `${V1}/tickets/5001/comments`, write, {
        message: 'x',
        senderAgentId: 1,
        creationDate,
      });
      refused(res.statusCode, res.body);
      expect(await count('ticket_comments')).toBe(before);
    },
  );

  it.each(['0001-01-01', '0000-01-01', '9999-99-99'])(
    'a ticket created on %s is refused',
    async (createdOn) => {
      const before = await count('tickets');
      const res = await call('POST', `${V1}/tickets`, write, {
        companyId: 10,
        title: 'Vecchio',
        taskTypeId: 1,
        statusStepId: 1,
        createdOn,
      });
      refused(res.statusCode, res.body);
      expect(await count('tickets')).toBe(before);
    },
  );

  it('accepts the years in between, 9999-12-31 included', async () => {
    const res = await call('POST', `${V1}/tickets`, write, {
      companyId: 10,
      title: 'Per sempre',
      taskTypeId: 1,
      statusStepId: 1,
      createdOn: '9999-12-31',
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
