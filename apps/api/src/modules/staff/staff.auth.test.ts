import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../cli/staff';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas, type PersonaAccess } from '../../test/personas';
import { bearer } from '../../test/seed';
import { lastEmailTo, STAFF_PASSWORD, staffLinkToken, staffMember } from './staff.fixture';
import { inviteStaff } from './staff.service';

let t: TestApp;
let contact: PersonaAccess;

beforeAll(async () => {
  t = await createTestApp();
  contact = (await seedPersonas(t)).owner;
});
afterAll(async () => {
  await t?.close();
});

const login = (email: string, password: string, ip = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/staff/auth/login',
    payload: { email, password },
    remoteAddress: ip,
  });

describe('staff invitation', () => {
  it('mails a single-use link; accepting it sets the password and signs in', async () => {
    const r = await inviteStaff(t.ctx, 'ACME', 'Luca@Acme.example', 'agent');
    // The import's agent of that e-mail becomes this staff user.
    expect(r).toMatchObject({ displayName: 'ACME Agent Luca', role: 'agent', matchedAgent: true });
    const mail = await lastEmailTo(t, 'luca@acme.example');
    expect(mail?.subject).toContain('ACME');
    const token = staffLinkToken(mail!.text);
    expect(r.link).toContain(`/acme/staff/accept?token=`);
    // The token is stored hashed only.
    const raw = await t.ctx.database.db.execute(sql`select token_hash from staff_tokens`);
    expect(JSON.stringify(raw)).not.toContain(token);

    const check = await t.app.inject({ method: 'GET', url: `/api/staff/auth/links/${token}` });
    expect(check.json()).toEqual({
      purpose: 'invite',
      email: 'Luca@Acme.example',
      displayName: 'ACME Agent Luca',
      webPortalKey: 'acme',
    });
    // Before accepting, the invited user cannot sign in with any password.
    expect((await login('luca@acme.example', STAFF_PASSWORD)).statusCode).toBe(401);

    const short = await t.app.inject({
      method: 'POST',
      url: '/api/staff/auth/confirm',
      payload: { token, password: 'short', passwordRepeat: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().code).toBe('password_too_short');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/staff/auth/confirm',
      payload: { token, password: STAFF_PASSWORD, passwordRepeat: STAFF_PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: bearer(ok.json().token) });
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    expect(me.json()).toMatchObject({
      displayName: 'ACME Agent Luca',
      portals: [{ webPortalKey: 'acme', webPortalName: expect.any(String), role: 'agent' }],
    });
    // Single use.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/staff/auth/confirm',
      payload: { token, password: STAFF_PASSWORD, passwordRepeat: STAFF_PASSWORD },
    });
    expect(again.statusCode).toBe(404);
    expect((await login('LUCA@acme.example', STAFF_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses an unknown portal and a malformed e-mail, writing nothing', async () => {
    const count = async () =>
      (
        (await t.ctx.database.db.execute(sql`select count(*)::int as n from staff_users`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows[0]!.n;
    const before = await count();
    await expect(inviteStaff(t.ctx, 'nope', 'x@y.example', 'agent')).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(inviteStaff(t.ctx, 'acme', 'not an email', 'agent')).rejects.toMatchObject({
      statusCode: 400,
    });
    expect(await count()).toBe(before);
  });

  it('keeps an admin an admin when invited again as agent; adds a second portal', async () => {
    await inviteStaff(t.ctx, 'acme', 'chief@acme.example', 'admin');
    await inviteStaff(t.ctx, 'acme', 'chief@acme.example', 'agent');
    const r = await inviteStaff(t.ctx, 'beta', 'chief@acme.example', 'agent');
    expect(r.role).toBe('agent');
    const rows = await t.ctx.database.db.execute(
      sql`select p.key, m.role from staff_memberships m join portals p on p.id = m.portal_id
          join staff_users u on u.id = m.staff_user_id where u.email = 'chief@acme.example' order by p.key`,
    );
    expect((rows as unknown as { rows: unknown[] }).rows).toEqual([
      { key: 'acme', role: 'admin' },
      { key: 'beta', role: 'agent' },
    ]);
  });
});

describe('staff of several portals', () => {
  it('adds an active staff user to another portal without touching their password or sessions', async () => {
    const h = await staffMember(t, 'acme', 'both@acme.example');
    const openLinks = async () =>
      Number(
        (
          (await t.ctx.database.db.execute(
            sql`select count(*)::int as n from staff_tokens k join staff_users u on u.id = k.staff_user_id
              where u.email = 'both@acme.example' and k.used_at is null`,
          )) as unknown as { rows: { n: number }[] }
        ).rows[0]!.n,
      );
    expect(await openLinks()).toBe(0);
    const r = await inviteStaff(t.ctx, 'beta', 'both@acme.example', 'agent');
    // No password link: nobody holding the e-mail can reset the account through an invitation.
    expect(r.link).not.toContain('token=');
    expect(r.link).toContain('/beta/staff');
    expect(r.alreadyActive).toBe(true);
    expect(await openLinks()).toBe(0);
    const mail = await lastEmailTo(t, 'both@acme.example');
    expect(mail?.text).not.toMatch(/token=/);
    expect(mail?.subject).toContain('BETA');
    // The session goes on, the password still signs in, and the new portal is there.
    const me = await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: h });
    expect(me.statusCode).toBe(200);
    expect((me.json().portals as { webPortalKey: string }[]).map((p) => p.webPortalKey)).toEqual([
      'acme',
      'beta',
    ]);
    expect((await login('both@acme.example', STAFF_PASSWORD, '10.0.0.3')).statusCode).toBe(200);
  });
});

describe('staff sessions', () => {
  it('signs out: the token stops working', async () => {
    const h = await staffMember(t, 'acme', 'out@acme.example');
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: h })).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/staff/auth/logout', headers: h });
    expect(out.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: h });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('invalid_token');
  });

  it('never takes a contact token for a staff one, nor the other way round', async () => {
    const staff = await staffMember(t, 'acme', 'sep@acme.example');
    const asStaff = await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: contact.headers });
    expect(asStaff.statusCode).toBe(401);
    const asContact = await t.app.inject({ method: 'GET', url: '/api/Users/me', headers: staff });
    expect(asContact.statusCode).toBe(401);
    const tenant = await t.app.inject({ method: 'GET', url: '/api/acme/102/tickets', headers: staff });
    expect(tenant.statusCode).toBe(401);
  });

  it('ends the sessions of a disabled staff user at once', async () => {
    const h = await staffMember(t, 'acme', 'gone@acme.example');
    await t.ctx.database.db.execute(
      sql`update staff_users set status = 'disabled' where email = 'gone@acme.example'`,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: h })).statusCode).toBe(401);
    expect((await login('gone@acme.example', STAFF_PASSWORD)).statusCode).toBe(401);
  });

  it('answers a wrong password and an unknown e-mail alike, and throttles', async () => {
    await staffMember(t, 'acme', 'throttle@acme.example');
    const wrong = await login('throttle@acme.example', 'wrong-password-1', '10.0.0.9');
    const unknown = await login('nobody@acme.example', 'wrong-password-1', '10.0.0.9');
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual(unknown.json());
    for (let i = 0; i < 4; i++) await login('throttle@acme.example', 'wrong-password-1', '10.0.0.9');
    const blocked = await login('throttle@acme.example', STAFF_PASSWORD, '10.0.0.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('mails a recovery link to a member of the portal only, answering the same either way', async () => {
    await staffMember(t, 'acme', 'forgot@acme.example');
    const ask = (email: string, company: string) =>
      t.app.inject({ method: 'POST', url: '/api/staff/auth/recovery', payload: { email, company } });
    const stranger = await ask('forgot@acme.example', 'beta');
    expect(stranger.statusCode).toBe(202);
    const beforeMail = await lastEmailTo(t, 'forgot@acme.example');
    expect(beforeMail?.subject).not.toMatch(/password|Reimposta/i);
    const member = await ask('forgot@acme.example', 'acme');
    expect(member.statusCode).toBe(202);
    expect(member.json()).toEqual(stranger.json());
    const mail = await lastEmailTo(t, 'forgot@acme.example');
    const token = staffLinkToken(mail!.text);
    const check = await t.app.inject({ method: 'GET', url: `/api/staff/auth/links/${token}` });
    expect(check.json().purpose).toBe('recovery');
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/staff/auth/confirm',
      payload: { token, password: 'New-Staff-Pass-1', passwordRepeat: 'New-Staff-Pass-1' },
    });
    expect(set.statusCode).toBe(200);
    expect((await login('forgot@acme.example', 'New-Staff-Pass-1', '10.0.0.7')).statusCode).toBe(200);
  });
});

describe('npm run staff', () => {
  it('parses invite <portal> <email> [--admin]', () => {
    expect(parseArgs(['--', 'invite', 'acme', 'a@b.example'])).toEqual({
      portal: 'acme',
      email: 'a@b.example',
      role: 'agent',
    });
    expect(parseArgs(['invite', 'acme', 'a@b.example', '--admin'])?.role).toBe('admin');
    expect(parseArgs(['invite', 'acme'])).toBeUndefined();
    expect(parseArgs(['remove', 'acme', 'a@b.example'])).toBeUndefined();
    expect(parseArgs(['invite', 'acme', 'a@b.example', '--owner'])).toBeUndefined();
  });
});
