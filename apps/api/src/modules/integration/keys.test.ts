import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, ApiKeyWithSecret } from '@sportello/contracts';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { bearer } from '../../test/seed';

let t: TestApp;
const admin = bearer(TEST_ADMIN_KEY);

beforeAll(async () => {
  t = await createTestApp();
  await seedPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

async function createKey(portal: string, scopes: string[], name = 'CRM'): Promise<ApiKeyWithSecret> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/admin/portals/${portal}/keys`,
    headers: admin,
    payload: { name, scopes },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const feed = (secret: string | undefined) =>
  t.app.inject({ url: '/api/integration/v1/events', headers: secret ? bearer(secret) : {} });

describe('portal API keys', () => {
  it('shows the secret once, stores only its hash, lists the prefix', async () => {
    const key = await createKey('acme', ['events', 'read']);
    expect(key.secret).toMatch(/^spk_[\w-]{40}$/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix).toHaveLength(12);
    expect(key.scopes).toEqual(['events', 'read']);
    const list = await t.app.inject({ url: '/api/admin/portals/acme/keys', headers: admin });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(key.secret);
    expect((list.json() as ApiKey[]).map((k) => k.prefix)).toContain(key.prefix);
    const stored = await t.ctx.database.db.execute(sql`select * from api_keys where id = ${key.id}`);
    expect(JSON.stringify(stored)).not.toContain(key.secret);
  });

  it('is managed only with the installation key', async () => {
    const key = await createKey('acme', ['events', 'read', 'write']);
    for (const headers of [{}, bearer('wrong-admin-key-0123456789'), bearer(key.secret)]) {
      const res = await t.app.inject({ url: '/api/admin/portals/acme/keys', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
    const unknown = await t.app.inject({ url: '/api/admin/portals/nope/keys', headers: admin });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/admin/portals/acme/keys',
      headers: admin,
      payload: { name: 'x', scopes: ['root'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_error');
  });

  it('answers 503 when the installation has no admin key', async () => {
    const other = await createTestApp({ env: { PORTAL_ADMIN_KEY: '' } });
    try {
      const res = await other.app.inject({ url: '/api/admin/portals/acme/keys', headers: admin });
      expect(res.statusCode).toBe(503);
    } finally {
      await other.close();
    }
  });

  it('reaches only its own portal, and needs its scope', async () => {
    const acme = await createKey('acme', ['events']);
    const beta = await createKey('beta', ['events']);
    const readOnly = await createKey('acme', ['read']);
    // One event in each portal.
    await t.ctx.database.db.execute(sql`insert into events (portal_id, type, occurred_at, source, data)
      select id, 'ticket.created', now(), '{"type":"system"}', json_build_object('portal', key)
      from portals where key in ('acme', 'beta')`);
    const a = await feed(acme.secret);
    expect(a.statusCode, a.body).toBe(200);
    // (The keys' own creations are events too, api_key.created, each in its portal.)
    const tickets = (r: {
      json(): { events: { type: string; portal: string; data: { portal: string } }[] };
    }) => r.json().events.filter((e) => e.type === 'ticket.created');
    expect(tickets(a).map((e) => e.portal)).toEqual(['acme']);
    const b = await feed(beta.secret);
    expect(tickets(b).map((e) => e.data.portal)).toEqual(['beta']);
    expect(b.json().events.every((e: { portal: string }) => e.portal === 'beta')).toBe(true);
    const r = await feed(readOnly.secret);
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('missing_scope');
    expect((await feed(undefined)).statusCode).toBe(401);
    expect((await feed('spk_forgedforgedforgedforgedforgedforgedfo')).statusCode).toBe(401);
    // The installation key is not a portal key.
    expect((await feed(TEST_ADMIN_KEY)).statusCode).toBe(401);
  });

  it('rotation: the old secret works during the grace period only', async () => {
    const key = await createKey('acme', ['events']);
    const rot = await t.app.inject({
      method: 'POST',
      url: `/api/admin/portals/acme/keys/${key.id}/rotate`,
      headers: admin,
      payload: { graceHours: 1 },
    });
    expect(rot.statusCode, rot.body).toBe(200);
    const rotated = rot.json() as ApiKeyWithSecret;
    expect(rotated.secret).not.toBe(key.secret);
    expect((await feed(rotated.secret)).statusCode).toBe(200);
    expect((await feed(key.secret)).statusCode).toBe(200);
    t.clock.advance(3600_000 + 1);
    try {
      expect((await feed(key.secret)).statusCode).toBe(401);
      expect((await feed(rotated.secret)).statusCode).toBe(200);
    } finally {
      t.clock.advance(-(3600_000 + 1));
    }
    // A second rotation with no grace retires the current secret at once.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/portals/acme/keys/${key.id}/rotate`,
      headers: admin,
      payload: { graceHours: 0 },
    });
    expect((await feed(rotated.secret)).statusCode).toBe(401);
    expect((await feed((again.json() as ApiKeyWithSecret).secret)).statusCode).toBe(200);
  });

  it('revocation stops the key at once, in every secret', async () => {
    const key = await createKey('acme', ['events']);
    const rot = await t.app.inject({
      method: 'POST',
      url: `/api/admin/portals/acme/keys/${key.id}/rotate`,
      headers: admin,
    });
    // No body: the default grace period.
    expect(rot.statusCode, rot.body).toBe(200);
    expect((await feed(key.secret)).statusCode).toBe(200);
    const newer = (rot.json() as ApiKeyWithSecret).secret;
    const rev = await t.app.inject({
      method: 'POST',
      url: `/api/admin/portals/acme/keys/${key.id}/revoke`,
      headers: admin,
    });
    expect(rev.statusCode).toBe(200);
    expect(rev.json().revokedAt).not.toBeNull();
    expect((await feed(key.secret)).statusCode).toBe(401);
    expect((await feed(newer)).statusCode).toBe(401);
    // A key of another portal cannot be revoked through this one.
    const beta = await createKey('beta', ['events']);
    const cross = await t.app.inject({
      method: 'POST',
      url: `/api/admin/portals/acme/keys/${beta.id}/revoke`,
      headers: admin,
    });
    expect(cross.statusCode).toBe(404);
    expect((await feed(beta.secret)).statusCode).toBe(200);
  });

  it('records the last use at most once a minute', async () => {
    const key = await createKey('acme', ['events']);
    const lastUsed = async () => {
      const list = (
        await t.app.inject({ url: '/api/admin/portals/acme/keys', headers: admin })
      ).json() as ApiKey[];
      return list.find((k) => k.id === key.id)!.lastUsedAt;
    };
    expect(await lastUsed()).toBeNull();
    await feed(key.secret);
    const first = await lastUsed();
    expect(first).toBe(t.clock.now().toISOString());
    t.clock.advance(30_000);
    await feed(key.secret);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(31_000);
    await feed(key.secret);
    expect(await lastUsed()).toBe(t.clock.now().toISOString());
  });
});
