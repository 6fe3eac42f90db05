/**
 * Who changed a portal's keys and webhook endpoints: every change made from the desk, with the
 * installation key or with a portal key writes one audit row (who, when, before/after, never a secret)
 * and its event in the change's transaction; a change that changes nothing writes neither; bad input
 * is a 4xx `{code, message}` that writes nothing.
 */
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { bearer } from '../../test/seed';
import { staffMember } from '../staff/staff.fixture';

let t: TestApp;
let desk: Record<string, string>;
const admin = bearer(TEST_ADMIN_KEY);
/** A public literal address: accepted without a DNS lookup; nothing is delivered in these tests. */
const TARGET = 'https://93.184.216.34/hook';

beforeAll(async () => {
  t = await createTestApp();
  await seedPersonas(t);
  desk = await staffMember(t, 'acme', 'boss@acme.example', 'admin');
});
afterAll(async () => {
  await t?.close();
});

const call = (method: InjectOptions['method'], url: string, who: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers: who, ...(payload === undefined ? {} : { payload }) });

interface AuditRow {
  action: string;
  actor_type: string;
  actor_name: string;
  api_key_id: number | null;
  staff_user_id: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  text: string;
}
const auditOf = (entity: string, id: number) =>
  queryRows<AuditRow>(
    t.ctx.database.db,
    sql`select action, actor_type, actor_name, api_key_id, staff_user_id, before, after,
        coalesce(before::text, '') || coalesce(after::text, '') as text
      from audit_log where entity = ${entity} and entity_id = ${String(id)} order by id`,
  );
const lastEventId = async () =>
  Number(
    (
      await queryRows<{ id: string | null }>(t.ctx.database.db, sql`select max(id)::text as id from events`)
    )[0]?.id ?? 0,
  );
const eventsSince = (id: number) =>
  queryRows<{
    type: string;
    source: { type: string; staffUserId?: number; apiKeyId?: number };
    text: string;
  }>(
    t.ctx.database.db,
    sql`select type, source, data::text as text from events where id > ${id}::bigint order by id`,
  );
const counts = async () =>
  (
    await queryRows<{ audits: number; events: number; endpoints: string }>(
      t.ctx.database.db,
      sql`select (select count(*)::int from audit_log) as audits, (select count(*)::int from events) as events,
        (select coalesce(string_agg(w::text, '|' order by id), '') from webhook_endpoints w) as endpoints`,
    )
  )[0]!;

describe('API keys changed with the installation key', () => {
  it('are audited under PORTAL_ADMIN_KEY and emitted, never with a secret', async () => {
    const since = await lastEventId();
    const made = await call('POST', '/api/admin/portals/acme/keys', admin, { name: 'ERP', scopes: ['read'] });
    expect(made.statusCode).toBe(201);
    const key = made.json() as { id: number; secret: string };
    const rotated = await call('POST', `/api/admin/portals/acme/keys/${key.id}/rotate`, admin, {
      graceHours: 1,
    });
    expect(rotated.statusCode).toBe(200);
    expect((await call('POST', `/api/admin/portals/acme/keys/${key.id}/revoke`, admin)).statusCode).toBe(200);
    // Revoking a revoked key changes nothing: no row.
    expect((await call('POST', `/api/admin/portals/acme/keys/${key.id}/revoke`, admin)).statusCode).toBe(200);
    const audit = await auditOf('api_key', key.id);
    expect(audit.map((a) => [a.action, a.actor_type, a.actor_name])).toEqual([
      ['created', 'admin_key', 'PORTAL_ADMIN_KEY'],
      ['rotated', 'admin_key', 'PORTAL_ADMIN_KEY'],
      ['revoked', 'admin_key', 'PORTAL_ADMIN_KEY'],
    ]);
    expect(audit[1]!.before).toMatchObject({ id: key.id, rotatedAt: null });
    expect(audit[1]!.after).toMatchObject({ id: key.id, previousValidUntil: expect.any(String) });
    const events = await eventsSince(since);
    expect(events.map((e) => [e.type, e.source.type])).toEqual([
      ['api_key.created', 'admin_key'],
      ['api_key.rotated', 'admin_key'],
      ['api_key.revoked', 'admin_key'],
    ]);
    for (const text of [...audit.map((a) => a.text), ...events.map((e) => e.text)]) {
      expect(text).not.toContain(key.secret);
      expect(text).not.toContain(rotated.json().secret);
    }
  });
});

describe('webhook endpoints', () => {
  it('each change from any root is audited under its actor and emitted; a no-op writes nothing', async () => {
    const roots = [
      { root: '/api/admin/portals/acme', who: admin, actor: 'admin_key' },
      { root: '/api/staff/portals/acme/admin', who: desk, actor: 'staff' },
    ];
    const eventsKey = (
      await call('POST', '/api/admin/portals/acme/keys', admin, { name: 'CRM', scopes: ['events'] })
    ).json() as { id: number; secret: string };
    roots.push({ root: '/api/integration/v1', who: bearer(eventsKey.secret), actor: 'api_key' });

    for (const { root, who, actor } of roots) {
      const since = await lastEventId();
      const made = await call('POST', `${root}/webhooks`, who, {
        url: TARGET,
        eventTypes: ['ticket.created'],
      });
      expect(made.statusCode, made.body).toBe(201);
      const ep = made.json() as { id: number; secret: string };
      const patch = { url: `${TARGET}/v2`, eventTypes: ['ticket.closed', 'ticket.created'], enabled: false };
      expect((await call('PATCH', `${root}/webhooks/${ep.id}`, who, patch)).statusCode).toBe(200);
      // The same values again: nothing changes, nothing is written.
      const still = await counts();
      expect((await call('PATCH', `${root}/webhooks/${ep.id}`, who, patch)).statusCode).toBe(200);
      expect(await counts()).toEqual(still);
      const rotated = await call('POST', `${root}/webhooks/${ep.id}/rotate`, who);
      expect(rotated.statusCode, rotated.body).toBe(200);
      const replayed = await call('POST', `${root}/webhooks/${ep.id}/replay`, who, {});
      expect(replayed.statusCode).toBe(200);
      expect((await call('DELETE', `${root}/webhooks/${ep.id}`, who)).statusCode).toBe(204);

      const audit = await auditOf('webhook_endpoint', ep.id);
      expect(
        audit.map((a) => a.action),
        root,
      ).toEqual(['created', 'updated', 'rotated', 'replayed', 'deleted']);
      expect(new Set(audit.map((a) => a.actor_type))).toEqual(new Set([actor]));
      if (actor === 'api_key') expect(audit[0]!.api_key_id).toBe(eventsKey.id);
      if (actor === 'staff') expect(audit[0]!.actor_name).toBe('boss@acme.example');
      const [created, updated, rot, replay, deleted] = audit;
      expect(created!.before).toBeNull();
      expect(created!.after).toMatchObject({ id: ep.id, url: TARGET, eventTypes: ['ticket.created'] });
      expect(updated!.before).toMatchObject({ url: TARGET, enabled: true });
      expect(updated!.after).toMatchObject({ url: `${TARGET}/v2`, enabled: false });
      expect(rot!.before).toMatchObject({ rotatedAt: null, previousValidUntil: null });
      expect(rot!.after).toMatchObject({
        rotatedAt: expect.any(String),
        previousValidUntil: expect.any(String),
      });
      expect(replay!.after).toMatchObject({ id: ep.id, replay: { after: null, queued: expect.any(Number) } });
      expect(deleted!.after).toBeNull();
      const events = await eventsSince(since);
      const mine = events.filter((e) => e.type.startsWith('webhook_endpoint.'));
      expect(mine.map((e) => e.type)).toEqual([
        'webhook_endpoint.created',
        'webhook_endpoint.updated',
        'webhook_endpoint.rotated',
        'webhook_endpoint.replayed',
        'webhook_endpoint.deleted',
      ]);
      expect(new Set(mine.map((e) => e.source.type))).toEqual(new Set([actor]));
      for (const text of [...audit.map((a) => a.text), ...events.map((e) => e.text)]) {
        expect(text).not.toContain(ep.secret);
        expect(text).not.toContain(rotated.json().secret);
        expect(text).not.toMatch(/whsec_|sealed\.v1/);
      }
    }

    // The desk's audit log lists them, and filters by the installation key.
    const log = await call(
      'GET',
      '/api/staff/portals/acme/admin/audit-log?entity=webhook_endpoint&actorType=admin_key',
      desk,
    );
    expect(log.statusCode, log.body).toBe(200);
    const items = log.json().items as { actor: { type: string; id: number | null; name: string } }[];
    expect(items).toHaveLength(5);
    expect(items[0]!.actor).toEqual({ type: 'admin_key', id: null, name: 'PORTAL_ADMIN_KEY' });
  });

  it('refuses bad input with a 4xx {code, message} and writes nothing', async () => {
    const ep = (await call('POST', '/api/admin/portals/acme/webhooks', admin, { url: TARGET })).json() as {
      id: number;
    };
    const before = await counts();
    const root = '/api/staff/portals/acme/admin';
    for (const [method, url, payload, status, code] of [
      ['POST', `${root}/webhooks`, { url: 'ftp://example.com/x' }, 400, 'validation_error'],
      ['POST', `${root}/webhooks`, { url: 'http://10.0.0.8/x' }, 400, 'webhook_target_refused'],
      ['PATCH', `${root}/webhooks/${ep.id}`, { url: 'http://127.0.0.1/x' }, 400, 'webhook_target_refused'],
      ['PATCH', `${root}/webhooks/${ep.id}`, { eventTypes: ['no.such'] }, 400, 'validation_error'],
      ['PATCH', `${root}/webhooks/${ep.id}`, { secret: 'whsec_mine' }, 400, 'validation_error'],
      ['POST', `${root}/webhooks/${ep.id}/rotate`, { overlapHours: -1 }, 400, 'validation_error'],
      ['POST', `${root}/webhooks/${ep.id}/rotate`, { overlapHours: 1000 }, 400, 'validation_error'],
      ['POST', `${root}/webhooks/${ep.id}/rotate`, { secret: 'whsec_mine' }, 400, 'validation_error'],
      ['POST', `${root}/webhooks/${ep.id}/replay`, { after: 'yesterday' }, 400, 'validation_error'],
      ['POST', `${root}/webhooks/424242/rotate`, {}, 404, 'webhook_not_found'],
      ['POST', `${root}/webhooks/424242/replay`, {}, 404, 'webhook_not_found'],
      ['DELETE', `${root}/webhooks/424242`, undefined, 404, 'webhook_not_found'],
      ['POST', '/api/admin/portals/nope/webhooks/1/rotate', {}, 404, 'portal_not_found'],
    ] as const) {
      const res = await call(method, url, url.startsWith('/api/admin') ? admin : desk, payload);
      expect([res.statusCode, res.json().code], `${method} ${url}`).toEqual([status, code]);
      expect(typeof res.json().message).toBe('string');
    }
    expect(await counts()).toEqual(before);
  });

  it("is another portal's business: a beta admin never reaches acme's endpoints", async () => {
    const ep = (await call('POST', '/api/admin/portals/acme/webhooks', admin, { url: TARGET })).json() as {
      id: number;
    };
    const beta = await staffMember(t, 'beta', 'boss@beta.example', 'admin');
    const before = await counts();
    const res = await call('POST', `/api/staff/portals/beta/admin/webhooks/${ep.id}/rotate`, beta, {});
    expect([res.statusCode, res.json().code]).toEqual([404, 'webhook_not_found']);
    expect(await counts()).toEqual(before);
  });
});
