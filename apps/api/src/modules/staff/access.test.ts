/**
 * The desk's access administration (issue 14 item 5): staff invited with role and groups through the
 * CLI's invitation, resend, role changes, removal (the removed member's token is refused at once), the
 * last admin kept, API keys whose secret is answered once and never audited, and the webhook routes
 * under the staff admin root. Every change leaves its audit row and its event.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { bearer } from '../../test/seed';
import { confirmStaffLink } from './staff.service';
import { lastEmailTo, seedStaffPersonas, STAFF_PASSWORD, staffLinkToken, staffMember } from './staff.fixture';

let t: TestApp;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

beforeAll(async () => {
  t = await createTestApp();
  await seedPersonas(t);
  staff = await seedStaffPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

const root = '/api/staff/portals/acme/admin';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: Record<string, string>, method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: who, ...(payload !== undefined && { payload: payload as object }) });

const rows = async <T>(s: ReturnType<typeof sql>) =>
  ((await t.ctx.database.db.execute(s)) as unknown as { rows: T[] }).rows;

const auditOf = (entity: string, entityId: number | string) =>
  rows<{ action: string; actor_type: string; before: unknown; after: unknown; text: string }>(
    sql`select action, actor_type, before, after, coalesce(before::text, '') || coalesce(after::text, '') as text
      from audit_log where entity = ${entity} and entity_id = ${String(entityId)} order by id`,
  );
const eventTypesSince = async (id: number) =>
  (await rows<{ type: string }>(sql`select type from events where id > ${id} order by id`)).map(
    (e) => e.type,
  );
const lastEventId = async () =>
  Number((await rows<{ id: string | null }>(sql`select max(id)::text as id from events`))[0]?.id ?? 0);

async function acmeGroupExtId(): Promise<number> {
  const [g] = await rows<{ ext_id: number }>(
    sql`select g.ext_id from assignee_groups g join portals p on p.id = g.portal_id
      where p.key = 'acme' order by g.ext_id limit 1`,
  );
  return Number(g!.ext_id);
}

describe('staff users and roles', () => {
  it('refuses agents and other portals on every access route', async () => {
    for (const [m, url] of [
      ['GET', `${root}/staff`],
      ['POST', `${root}/staff`],
      ['GET', `${root}/keys`],
      ['POST', `${root}/keys`],
      ['GET', `${root}/webhooks`],
    ] as const) {
      const r = await call(staff.agentA, m, url, m === 'POST' ? {} : undefined);
      expect(r.statusCode, `${m} ${url}`).toBe(403);
      expect(r.json().code).toBe('admin_required');
      const other = await call(staff.agentB, m, url, m === 'POST' ? {} : undefined);
      expect(other.statusCode).toBe(403);
      expect(other.json().code).toBe('not_staff_of_portal');
    }
  });

  it('invites with role and groups, e-mails the link, lists the member, audits and emits', async () => {
    const group = await acmeGroupExtId();
    const since = await lastEventId();
    const r = await call(staff.adminA, 'POST', `${root}/staff`, {
      email: 'new.agent@acme.example',
      displayName: 'New Agent',
      role: 'agent',
      groupIds: [group],
    });
    expect(r.statusCode).toBe(201);
    const { member } = r.json();
    expect(member).toMatchObject({
      email: 'new.agent@acme.example',
      displayName: 'New Agent',
      role: 'agent',
      status: 'invited',
    });
    expect(member.groupIds).toEqual([group]);
    expect(member.lastSignInAt).toBeNull();
    const mail = await lastEmailTo(t, 'new.agent@acme.example');
    expect(staffLinkToken(mail!.text)).toBeTruthy();

    const list = (await call(staff.adminA, 'GET', `${root}/staff`)).json() as { email: string }[];
    expect(list.map((m) => m.email)).toContain('new.agent@acme.example');
    const boss = (list as { email: string; lastSignInAt: string | null }[]).find(
      (m) => m.email === 'boss@acme.example',
    );
    expect(boss?.lastSignInAt).not.toBeNull();

    const audit = await auditOf('staff_member', member.id);
    expect(audit.map((a) => [a.action, a.actor_type])).toEqual([['invited', 'staff']]);
    expect(await eventTypesSince(since)).toContain('staff_member.invited');
  });

  it('a group that is not the portal’s leaves nobody invited', async () => {
    const r = await call(staff.adminA, 'POST', `${root}/staff`, {
      email: 'nobody@acme.example',
      displayName: 'Nobody',
      role: 'agent',
      groupIds: [987654],
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('unknown_reference');
    expect(await rows(sql`select 1 from staff_users where email = 'nobody@acme.example'`)).toHaveLength(0);
    expect(await lastEmailTo(t, 'nobody@acme.example')).toBeUndefined();
  });

  it('resends a new link (the old one stops working) and refuses a member who signs in', async () => {
    const [m] = await rows<{ id: number }>(
      sql`select id from staff_users where email = 'new.agent@acme.example'`,
    );
    const first = staffLinkToken((await lastEmailTo(t, 'new.agent@acme.example'))!.text);
    const r = await call(staff.adminA, 'POST', `${root}/staff/${m!.id}/resend`);
    expect(r.statusCode).toBe(200);
    const second = staffLinkToken((await lastEmailTo(t, 'new.agent@acme.example'))!.text);
    expect(second).not.toBe(first);
    const old = await t.app.inject({
      method: 'GET',
      url: `/api/staff/auth/links/${encodeURIComponent(first)}`,
    });
    expect(old.statusCode).toBe(404);
    await confirmStaffLink(t.ctx, second, STAFF_PASSWORD, STAFF_PASSWORD);
    const again = await call(staff.adminA, 'POST', `${root}/staff/${m!.id}/resend`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('staff_already_active');
  });

  it('keeps the last admin: no demotion, no removal, until another admin exists', async () => {
    const [boss] = await rows<{ id: number }>(
      sql`select id from staff_users where email = 'boss@acme.example'`,
    );
    const demote = await call(staff.adminA, 'PUT', `${root}/staff/${boss!.id}/role`, { role: 'agent' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe('last_admin');
    const remove = await call(staff.adminA, 'DELETE', `${root}/staff/${boss!.id}`);
    expect(remove.statusCode).toBe(409);
    expect(remove.json().code).toBe('last_admin');

    const second = await staffMember(t, 'acme', 'second.admin@acme.example', 'admin');
    const ok = await call(second, 'PUT', `${root}/staff/${boss!.id}/role`, { role: 'agent' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().role).toBe('agent');
    // boss is an agent now: refused at once; the second admin cannot step down either.
    expect((await call(staff.adminA, 'GET', `${root}/staff`)).statusCode).toBe(403);
    const [sec] = await rows<{ id: number }>(
      sql`select id from staff_users where email = 'second.admin@acme.example'`,
    );
    expect((await call(second, 'PUT', `${root}/staff/${sec!.id}/role`, { role: 'agent' })).json().code).toBe(
      'last_admin',
    );
    const back = await call(second, 'PUT', `${root}/staff/${boss!.id}/role`, { role: 'admin' });
    expect(back.statusCode).toBe(200);
    expect((await auditOf('staff_member', boss!.id)).map((a) => a.action)).toEqual([
      'role_changed',
      'role_changed',
    ]);
  });

  it('a removed member is refused at once; one left without portals has no account, sessions ended', async () => {
    const invite = await call(staff.adminA, 'POST', `${root}/staff`, {
      email: 'leaver@acme.example',
      displayName: 'Leaver',
      role: 'agent',
    });
    const id = invite.json().member.id as number;
    const s = await confirmStaffLink(
      t.ctx,
      staffLinkToken((await lastEmailTo(t, 'leaver@acme.example'))!.text),
      STAFF_PASSWORD,
      STAFF_PASSWORD,
    );
    const leaver = bearer(s.token);
    expect((await call(leaver, 'GET', '/api/staff/portals/acme/tickets')).statusCode).toBe(200);
    const since = await lastEventId();
    expect((await call(staff.adminA, 'DELETE', `${root}/staff/${id}`)).statusCode).toBe(204);
    expect((await call(leaver, 'GET', '/api/staff/portals/acme/tickets')).statusCode).toBe(401);
    expect((await call(leaver, 'GET', '/api/staff/me')).statusCode).toBe(401);
    const [u] = await rows<{ status: string; password_hash: string | null }>(
      sql`select status, password_hash from staff_users where id = ${id}`,
    );
    expect(u).toEqual({ status: 'invited', password_hash: null });
    expect((await auditOf('staff_member', id)).map((a) => a.action)).toEqual(['invited', 'removed']);
    expect(await eventTypesSince(since)).toContain('staff_member.removed');
    expect((await call(staff.adminA, 'DELETE', `${root}/staff/${id}`)).statusCode).toBe(404);
  });

  it("one portal's removal shuts the address out of no other portal", async () => {
    // acme's admin adds an address and removes it: it used to be disabled everywhere for good.
    const added = await call(staff.adminA, 'POST', `${root}/staff`, {
      email: 'wanted@beta.example',
      displayName: 'Wanted',
      role: 'agent',
    });
    expect(added.statusCode).toBe(201);
    const id = added.json().member.id as number;
    expect((await call(staff.adminA, 'DELETE', `${root}/staff/${id}`)).statusCode).toBe(204);
    const betaAdmin = await staffMember(t, 'beta', 'admin@beta.example', 'admin');
    const invited = await call(betaAdmin, 'POST', '/api/staff/portals/beta/admin/staff', {
      email: 'wanted@beta.example',
      displayName: 'Wanted',
      role: 'agent',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json().member).toMatchObject({ email: 'wanted@beta.example', status: 'invited' });
    // A working invitation: the link sets the password and opens beta's desk.
    const s = await confirmStaffLink(
      t.ctx,
      staffLinkToken((await lastEmailTo(t, 'wanted@beta.example'))!.text),
      STAFF_PASSWORD,
      STAFF_PASSWORD,
    );
    expect((await call(bearer(s.token), 'GET', '/api/staff/portals/beta/tickets')).statusCode).toBe(200);
  });

  it('a member of two portals removed from one keeps the other and signs in', async () => {
    const both = await staffMember(t, 'beta', 'two.portals@acme.example');
    await call(both, 'GET', '/api/staff/portals/beta/tickets');
    const inv = await call(staff.adminA, 'POST', `${root}/staff`, {
      email: 'two.portals@acme.example',
      displayName: 'Two Portals',
      role: 'agent',
    });
    // acme learns nothing of beta: not that the address signs in there, nor when it last did.
    expect(Object.keys(inv.json())).toEqual(['member']);
    expect(inv.json().member).toMatchObject({ status: 'invited', lastSignInAt: null });
    const fresh = await call(staff.adminA, 'POST', `${root}/staff`, {
      email: 'brand.new@acme.example',
      displayName: 'Brand New',
      role: 'agent',
    });
    expect(Object.keys(fresh.json())).toEqual(['member']);
    expect(fresh.json().member).toMatchObject({ status: 'invited', lastSignInAt: null });
    expect((await call(both, 'GET', '/api/staff/portals/acme/tickets')).statusCode).toBe(200);
    // Once they use acme's desk, acme sees that.
    const seen = (
      (await call(staff.adminA, 'GET', `${root}/staff`)).json() as {
        email: string;
        status: string;
        lastSignInAt: string | null;
      }[]
    ).find((m) => m.email === 'two.portals@acme.example');
    expect(seen).toMatchObject({ status: 'active', lastSignInAt: expect.stringMatching(/^\d{4}-/) });
    expect((await call(staff.adminA, 'DELETE', `${root}/staff/${inv.json().member.id}`)).statusCode).toBe(
      204,
    );
    const refused = await call(both, 'GET', '/api/staff/portals/acme/tickets');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('not_staff_of_portal');
    expect((await call(both, 'GET', '/api/staff/portals/beta/tickets')).statusCode).toBe(200);
  });
});

describe('API keys and webhooks from the desk', () => {
  it('creates a key whose secret is answered once and never audited; rotates; revokes', async () => {
    const since = await lastEventId();
    const c = await call(staff.adminA, 'POST', `${root}/keys`, { name: 'ERP', scopes: ['read', 'events'] });
    expect(c.statusCode).toBe(201);
    const key = c.json();
    expect(key.secret).toMatch(/.{20,}/);
    const works = await t.app.inject({
      method: 'GET',
      url: '/api/integration/v1/events',
      headers: bearer(key.secret),
    });
    expect(works.statusCode).toBe(200);
    const list = await call(staff.adminA, 'GET', `${root}/keys`);
    expect(list.body).not.toContain(key.secret);
    expect(list.json().find((k: { id: number }) => k.id === key.id)).toMatchObject({
      prefix: key.prefix,
      scopes: ['events', 'read'],
    });
    const rotated = await call(staff.adminA, 'POST', `${root}/keys/${key.id}/rotate`, { graceHours: 0 });
    expect(rotated.statusCode).toBe(200);
    const revoked = await call(staff.adminA, 'POST', `${root}/keys/${key.id}/revoke`);
    expect(revoked.json().revokedAt).not.toBeNull();
    const audit = await auditOf('api_key', key.id);
    expect(audit.map((a) => a.action)).toEqual(['created', 'rotated', 'revoked']);
    for (const a of audit) {
      expect(a.text).not.toContain(key.secret);
      expect(a.text).not.toContain(rotated.json().secret);
    }
    expect(await eventTypesSince(since)).toEqual(
      expect.arrayContaining(['api_key.created', 'api_key.rotated', 'api_key.revoked']),
    );
    const other = await call(staff.adminA, 'POST', `/api/staff/portals/acme/admin/keys/999999/revoke`);
    expect(other.statusCode).toBe(404);
  });

  it('serves the webhook endpoints and their delivery log under the staff admin root', async () => {
    const list = await call(staff.adminA, 'GET', `${root}/webhooks`);
    expect(list.statusCode).toBe(200);
    expect(Array.isArray(list.json())).toBe(true);
  });
});

describe('what a removed admin made (issue 29, B8)', () => {
  /** A public literal address: accepted without a DNS lookup; nothing is delivered in these tests. */
  const TARGET = 'https://93.184.216.34/hook';
  const works = async (secret: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/integration/v1/events', headers: bearer(secret) }))
      .statusCode;
  const idOf = async (email: string) =>
    Number((await rows<{ id: number }>(sql`select id from staff_users where email = ${email}`))[0]!.id);

  it('records who made each key and endpoint; removal lists, revokes, disables, audits and tells', async () => {
    const maker = await staffMember(t, 'acme', 'maker@acme.example', 'admin');
    const makerId = await idOf('maker@acme.example');
    await staffMember(t, 'acme', 'watcher@acme.example', 'admin');
    const [makerName] = await rows<{ display_name: string }>(
      sql`select display_name from staff_users where id = ${makerId}`,
    );

    // Made in the desk, through the maker's key, and with the installation key.
    const key = (await call(maker, 'POST', `${root}/keys`, { name: 'Maker ERP', scopes: ['events'] })).json();
    const hook = (await call(maker, 'POST', `${root}/webhooks`, { url: TARGET })).json();
    const byKey = await t.app.inject({
      method: 'POST',
      url: '/api/integration/v1/webhooks',
      headers: bearer(key.secret),
      payload: { url: `${TARGET}/by-key` },
    });
    expect(byKey.statusCode, byKey.body).toBe(201);
    const install = await t.app.inject({
      method: 'POST',
      url: '/api/admin/portals/acme/keys',
      headers: bearer(TEST_ADMIN_KEY),
      payload: { name: 'Installer', scopes: ['read'] },
    });
    const keys = (await call(staff.adminA, 'GET', `${root}/keys`)).json() as {
      id: number;
      createdBy: unknown;
    }[];
    expect(keys.find((k) => k.id === key.id)?.createdBy).toEqual({
      type: 'staff',
      name: makerName!.display_name,
    });
    expect(keys.find((k) => k.id === install.json().id)?.createdBy).toEqual({
      type: 'admin_key',
      name: 'PORTAL_ADMIN_KEY',
    });
    const hooks = (await call(staff.adminA, 'GET', `${root}/webhooks`)).json() as {
      id: number;
      createdBy: unknown;
    }[];
    expect(hooks.find((h) => h.id === hook.id)?.createdBy).toEqual({
      type: 'staff',
      name: makerName!.display_name,
    });
    expect(hooks.find((h) => h.id === byKey.json().id)?.createdBy).toEqual({
      type: 'api_key',
      name: 'Maker ERP',
    });

    // What the maker made and what still works: their key, their endpoint and their key's endpoint.
    const made = await call(staff.adminA, 'GET', `${root}/staff/${makerId}/made`);
    expect(made.statusCode).toBe(200);
    expect(made.json().apiKeys.map((k: { id: number }) => k.id)).toEqual([key.id]);
    expect(made.json().webhookEndpoints.map((h: { id: number }) => h.id)).toEqual([hook.id, byKey.json().id]);
    expect(made.body).not.toContain(key.secret);
    expect((await call(staff.adminA, 'GET', `${root}/staff/424242/made`)).statusCode).toBe(404);

    // A bad flag is the client's mistake; nothing changes.
    const bad = await call(staff.adminA, 'DELETE', `${root}/staff/${makerId}`, { revokeMade: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(await works(key.secret)).toBe(200);

    const since = await lastEventId();
    const removed = await call(staff.adminA, 'DELETE', `${root}/staff/${makerId}`, { revokeMade: true });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await works(key.secret)).toBe(401);
    const after = (await call(staff.adminA, 'GET', `${root}/webhooks`)).json() as {
      id: number;
      enabled: boolean;
    }[];
    for (const id of [hook.id, byKey.json().id])
      expect(after.find((h) => h.id === id)?.enabled, `endpoint ${id}`).toBe(false);
    // The installation's key is nobody's to lose.
    expect(after.length).toBeGreaterThan(1);
    expect(
      ((await call(staff.adminA, 'GET', `${root}/keys`)).json() as { id: number; revokedAt: unknown }[]).find(
        (k) => k.id === install.json().id,
      )?.revokedAt,
    ).toBeNull();

    // The removal and each retirement are audited under the admin who removed, and emitted.
    expect((await auditOf('staff_member', makerId)).map((a) => a.action)).toContain('removed');
    expect((await auditOf('api_key', key.id)).map((a) => [a.action, a.actor_type])).toEqual([
      ['created', 'staff'],
      ['revoked', 'staff'],
    ]);
    expect((await auditOf('webhook_endpoint', hook.id)).map((a) => a.action)).toEqual(['created', 'updated']);
    expect((await auditOf('webhook_endpoint', byKey.json().id)).map((a) => [a.action, a.actor_type])).toEqual(
      [
        ['created', 'api_key'],
        ['updated', 'staff'],
      ],
    );
    expect(await eventTypesSince(since)).toEqual(
      expect.arrayContaining(['staff_member.removed', 'api_key.revoked', 'webhook_endpoint.updated']),
    );

    // The other admin is told, in the portal's language; the admin who acted is not.
    const mail = await lastEmailTo(t, 'watcher@acme.example');
    expect(mail?.text).toContain('Maker ERP');
    expect(mail?.text).toContain(`${TARGET}/by-key`);
    expect(mail?.text).toContain('/acme/staff/admin/integrations');
    expect(mail?.subject).toContain('maker@acme.example');
    const boss = await lastEmailTo(t, 'boss@acme.example');
    expect(boss?.subject ?? '').not.toContain('maker@acme.example');
  });

  it('taking the admin role without revoking leaves the keys working and says so to the others', async () => {
    const keeper = await staffMember(t, 'acme', 'keeper@acme.example', 'admin');
    const keeperId = await idOf('keeper@acme.example');
    const key = (
      await call(keeper, 'POST', `${root}/keys`, { name: 'Keeper CRM', scopes: ['events'] })
    ).json();
    const demoted = await call(staff.adminA, 'PUT', `${root}/staff/${keeperId}/role`, { role: 'agent' });
    expect(demoted.statusCode).toBe(200);
    expect(await works(key.secret)).toBe(200);
    const mail = await lastEmailTo(t, 'watcher@acme.example');
    expect(mail?.subject).toContain('keeper@acme.example');
    expect(mail?.text).toContain('Keeper CRM');
    // Listed still, and revoked when the agent is removed with the flag.
    const made = (await call(staff.adminA, 'GET', `${root}/staff/${keeperId}/made`)).json();
    expect(made.apiKeys.map((k: { id: number }) => k.id)).toEqual([key.id]);
    expect(
      (await call(staff.adminA, 'DELETE', `${root}/staff/${keeperId}`, { revokeMade: true })).statusCode,
    ).toBe(204);
    expect(await works(key.secret)).toBe(401);
  });

  it('a refused removal (last admin) revokes nothing and e-mails nobody', async () => {
    const betaAdmin = await staffMember(t, 'beta', 'only.admin@beta.example', 'admin');
    const id = await idOf('only.admin@beta.example');
    const key = (
      await call(betaAdmin, 'POST', '/api/staff/portals/beta/admin/keys', {
        name: 'Solo',
        scopes: ['events'],
      })
    ).json();
    // Beta's other admins go first, so this one is the last.
    const others = await rows<{ id: number }>(
      sql`select m.staff_user_id as id from staff_memberships m join portals p on p.id = m.portal_id
        where p.key = 'beta' and m.role = 'admin' and m.staff_user_id <> ${id}`,
    );
    for (const o of others)
      expect(
        (await call(betaAdmin, 'DELETE', `/api/staff/portals/beta/admin/staff/${o.id}`)).statusCode,
      ).toBe(204);
    const [before] = await rows<{ n: number }>(sql`select count(*)::int as n from outbox`);
    const r = await call(betaAdmin, 'DELETE', `/api/staff/portals/beta/admin/staff/${id}`, {
      revokeMade: true,
    });
    expect(r.json().code).toBe('last_admin');
    expect(await works(key.secret)).toBe(200);
    const [after] = await rows<{ n: number }>(sql`select count(*)::int as n from outbox`);
    expect(Number(after!.n)).toBe(Number(before!.n));
  });
});
