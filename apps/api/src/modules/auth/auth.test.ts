import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as passwords from '../../platform/passwords';
import { createTestApp, type TestApp } from '../../test/harness';

import { bearer, exampleDocument, seedExample, tokenFor } from '../../test/seed';

vi.mock('../../platform/passwords', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../platform/passwords')>();
  return {
    ...real,
    verifyPassword: vi.fn(real.verifyPassword),
    burnPasswordCheck: vi.fn(real.burnPasswordCheck),
  };
});

const NOW = '2026-11-20T10:00:00Z';
const PASSWORD = 'Correct-Horse-9';
let ipSeq = 0;
/** Each test speaks from its own address unless it tests the per-address limit. */
const freshIp = () => `10.1.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

describe('sign-in, sessions and the current user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: NOW });
    const doc = exampleDocument() as { users: object[] };
    for (const userName of ['shared.one', 'shared.two'])
      doc.users.push({ userName, email: 'shared@acme.example', password: PASSWORD, contacts: [] });
    await seedExample(t, doc);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(NOW);
    // Each test starts with no failed attempts on record; the throttling tests build their own.
    await t.ctx.database.db.execute(sql`delete from rate_limits`);
  });

  const login = (userName: string, password: string, ip = freshIp(), app = t.app) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { userName, password },
      remoteAddress: ip,
    });
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/Users/me', headers: bearer(token) });
  const tokenOf = async (userName: string, password = PASSWORD) => {
    const res = await login(userName, password);
    expect(res.statusCode).toBe(200);
    return res.json().token as string;
  };

  describe('login', () => {
    it('signs in by user name and answers a token valid for TOKEN_TTL_HOURS', async () => {
      const res = await login('mario.rossi', PASSWORD);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['expiresAt', 'token']);
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(body.expiresAt).toBe('2026-11-20T22:00:00.000Z');
      expect(res.headers['cache-control']).toBe('no-store');
      expect((await me(body.token)).statusCode).toBe(200);
    });

    it('signs in by e-mail, and by either in any case and with spaces around', async () => {
      for (const name of ['mario@acme.example', 'MARIO@ACME.Example', 'Mario.Rossi', '  mario.rossi ']) {
        const res = await login(name, PASSWORD);
        expect(res.statusCode, name).toBe(200);
        expect((await me(res.json().token)).json().userName).toBe('mario.rossi');
      }
    });

    it('answers a wrong password, an unknown user and an invited user alike', async () => {
      const wrong = await login('mario.rossi', 'Correct-Horse-8');
      const unknown = await login('nobody.here', PASSWORD);
      const invited = await login('nuovo.utente', PASSWORD);
      const expected = { code: 'wrong_credentials', message: 'Wrong username or password' };
      for (const res of [wrong, unknown, invited]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(expected);
      }
      // The password is case-sensitive.
      expect((await login('mario.rossi', PASSWORD.toLowerCase())).statusCode).toBe(401);
    });

    it('does the same argon2 work for an unknown user as for a wrong password', async () => {
      // Wall-clock comparisons are noise on a shared machine; count the password checks instead.
      vi.mocked(passwords.verifyPassword).mockClear();
      vi.mocked(passwords.burnPasswordCheck).mockClear();
      await login('anna.verdi', 'Wrong-password-1');
      expect(passwords.verifyPassword).toHaveBeenCalledTimes(1);
      expect(passwords.burnPasswordCheck).not.toHaveBeenCalled();
      for (const name of ['ghost.user', 'nuovo.utente']) {
        vi.mocked(passwords.verifyPassword).mockClear();
        vi.mocked(passwords.burnPasswordCheck).mockClear();
        await login(name, 'Wrong-password-1');
        expect(passwords.burnPasswordCheck, name).toHaveBeenCalledTimes(1);
      }
    });

    it('refuses an empty body with a validation error', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_error');
    });
  });

  describe('throttling', () => {
    it('after 5 failures from one address refuses that address for the account, in every process, until the window ends', async () => {
      // Failures by name and by e-mail count for the one account.
      const guesser = '198.51.100.9';
      for (let i = 0; i < 5; i++) {
        const res = await login(i % 2 ? 'anna@acme.example' : 'ANNA.VERDI', 'nope-nope-nope', guesser);
        expect(res.statusCode).toBe(401);
      }
      const blocked = await login('anna.verdi', PASSWORD, guesser);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({ code: 'too_many_attempts' });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(900);

      // A second app on the same database shares the counters.
      const other = await createTestApp({ now: NOW, database: t.ctx.database });
      try {
        const res = await login('anna.verdi', PASSWORD, guesser, other.app);
        expect(res.statusCode).toBe(429);
        other.clock.advance(15 * 60_000 + 1000);
        expect((await login('anna.verdi', PASSWORD, guesser, other.app)).statusCode).toBe(200);
      } finally {
        await other.close();
      }
    });

    it('does not lock the owner out: the right password from another address still signs in', async () => {
      for (let i = 0; i < 8; i++) await login('anna.verdi', 'nope-nope-nope', '198.51.100.10');
      expect((await login('anna.verdi', PASSWORD, '198.51.100.10')).statusCode).toBe(429);
      expect((await login('anna.verdi', PASSWORD, '203.0.113.5')).statusCode).toBe(200);
      expect((await login('anna@acme.example', PASSWORD, '203.0.113.6')).statusCode).toBe(200);
    });

    it('counts addresses of one IPv6 /64 as one', async () => {
      for (let i = 0; i < 5; i++)
        expect((await login('anna.verdi', 'nope-nope-nope', `2001:db8:1:2::${i + 1}`)).statusCode).toBe(401);
      expect((await login('anna.verdi', PASSWORD, '2001:db8:1:2:ffff::9')).statusCode).toBe(429);
      expect((await login('anna.verdi', PASSWORD, '2001:db8:1:3::1')).statusCode).toBe(200);
    });

    it('counts a shared e-mail against every account it names', async () => {
      const guesser = '198.51.100.11';
      // shared.one and shared.two (added in beforeAll) have the same e-mail.
      for (let i = 0; i < 5; i++)
        expect((await login('shared@acme.example', 'nope-nope-nope', guesser)).statusCode).toBe(401);
      expect((await login('shared.one', PASSWORD, guesser)).statusCode).toBe(429);
      expect((await login('shared.two', PASSWORD, guesser)).statusCode).toBe(429);
      // The other way round: failures by name close the e-mail too.
      const second = '198.51.100.12';
      for (let i = 0; i < 5; i++)
        expect((await login('shared.two', 'nope-nope-nope', second)).statusCode).toBe(401);
      expect((await login('shared@acme.example', PASSWORD, second)).statusCode).toBe(429);
      expect((await login('shared.one', PASSWORD, second)).statusCode).toBe(200);
    });

    it('a success clears the account counter', async () => {
      const ip = '198.51.100.13';
      const attempt = (pw: string) => login('mario.rossi', pw, ip);
      for (let i = 0; i < 4; i++) expect((await attempt('bad-password-x')).statusCode).toBe(401);
      expect((await attempt(PASSWORD)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) expect((await attempt('bad-password-x')).statusCode).toBe(401);
      expect((await attempt(PASSWORD)).statusCode).toBe(200);
    });

    it('answers 429 after 30 attempts from one address; a success neither counts nor resets it', async () => {
      const ip = '192.0.2.77';
      for (let i = 0; i < 29; i++) {
        expect((await login(`stranger${i}`, 'whatever-pass', ip)).statusCode).toBe(401);
      }
      expect((await login('mario.rossi', PASSWORD, ip)).statusCode).toBe(200);
      expect((await login('stranger-last', 'whatever-pass', ip)).statusCode).toBe(401);
      const blocked = await login('mario.rossi', PASSWORD, ip);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('too_many_attempts');
      // Another address is not affected.
      expect((await login('mario.rossi', PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('tokens', () => {
    it('refuses no token, a forged token and a malformed header', async () => {
      const none = await t.app.inject({ method: 'GET', url: '/api/Users/me' });
      expect(none.statusCode).toBe(401);
      expect(none.json().code).toBe('unauthorized');
      const forged = await me('A'.repeat(43));
      expect(forged.statusCode).toBe(401);
      expect(forged.json().code).toBe('invalid_token');
      const basic = await t.app.inject({
        method: 'GET',
        url: '/api/Users/me',
        headers: { authorization: 'Basic bWFyaW86eA==' },
      });
      expect(basic.statusCode).toBe(401);
    });

    it('expires a token after TOKEN_TTL_HOURS', async () => {
      const token = await tokenOf('mario.rossi');
      t.clock.advance(12 * 3600_000 - 1000);
      expect((await me(token)).statusCode).toBe(200);
      t.clock.advance(2000);
      const res = await me(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('invalid_token');
    });

    it('logout revokes only the token it was called with', async () => {
      const a = await tokenOf('mario.rossi');
      const b = await tokenOf('mario.rossi');
      const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(a) });
      expect(out.statusCode).toBe(204);
      expect(out.body).toBe('');
      expect((await me(a)).statusCode).toBe(401);
      expect((await me(b)).statusCode).toBe(200);
      const again = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(a) });
      expect(again.statusCode).toBe(401);
    });
  });

  describe('password change', () => {
    const change = (token: string, currentPassword: string, newPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: bearer(token),
        payload: { currentPassword, newPassword },
      });

    it('refuses a wrong current password, a short new one and no token', async () => {
      const token = await tokenOf('anna.verdi');
      const wrong = await change(token, 'not-my-password', 'A-new-password-1');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('wrong_password');
      const short = await change(token, PASSWORD, 'short-1');
      expect(short.statusCode).toBe(400);
      expect(short.json().code).toBe('password_too_short');
      const anon = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        payload: { currentPassword: PASSWORD, newPassword: 'A-new-password-1' },
      });
      expect(anon.statusCode).toBe(401);
      expect((await me(token)).statusCode).toBe(200);
    });

    it('changes the password, revokes every earlier token and answers a new one', async () => {
      const current = await tokenOf('anna.verdi');
      const elsewhere = await tokenOf('anna.verdi');
      const res = await change(current, PASSWORD, 'A-new-password-1');
      expect(res.statusCode).toBe(200);
      const fresh = res.json().token as string;
      expect(fresh).not.toBe(current);
      expect((await me(current)).statusCode).toBe(401);
      expect((await me(elsewhere)).statusCode).toBe(401);
      expect((await me(fresh)).statusCode).toBe(200);
      expect((await login('anna.verdi', PASSWORD)).statusCode).toBe(401);
      expect((await login('anna.verdi', 'A-new-password-1')).statusCode).toBe(200);
      // Put it back for the other tests.
      expect((await change(fresh, 'A-new-password-1', PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('GET /api/Users/me', () => {
    it('answers the user with every contact, its flags and its portal settings, in one query', async () => {
      const token = await tokenOf('mario.rossi');
      const before = t.ctx.database.stats.statements;
      const res = await me(token);
      // One statement for the session, one for the user with contacts and settings.
      expect(t.ctx.database.stats.statements - before).toBe(2);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      // The largest upload the server takes (MAX_UPLOAD_MB), for the forms to state before a file is chosen.
      expect(body.maxUploadBytes).toBe(t.ctx.config.MAX_UPLOAD_MB * 1024 * 1024);
      const settings = {
        webPortalKey: 'acme',
        webPortalName: 'ACME Assistenza',
        customCss: '.portal-footer { font-style: italic; }',
        disableHtmlEditor: false,
        logoUrl: expect.stringMatching(/^\/api\/files\/\d+\/logo\.png\?e=\d+&s=[\w-]+$/),
        baseColor: '#1565c0',
        footerCustomHtml: '<p><b>ACME Assistenza</b> - Via Roma 1, Milano</p>',
        enableServiceContracts: true,
        timeZone: 'Europe/Rome',
        defaultLanguage: 'it-IT',
        overviewLanding: false,
      };
      const all = {
        manageTickets: true,
        administrator: true,
        viewContactContracts: true,
        viewRecurringAdvances: true,
        viewContactActivityReports: true,
        viewContactWiki: true,
        viewEstimates: true,
        viewContactInvoices: true,
        viewContactDocuments: true,
        uploadContactDocuments: true,
      };
      expect(body).toEqual({
        id: expect.any(Number),
        userName: 'mario.rossi',
        displayName: null,
        language: null,
        maxUploadBytes: 25 * 1024 * 1024,
        contacts: [
          { contactId: 101, companyName: 'ACME Contoso Srl', ...all, portalSettings: settings },
          { contactId: 201, companyName: 'ACME Globex Spa', ...all, portalSettings: settings },
        ],
      });
    });

    it('carries each contact its own flags', async () => {
      const res = await me(await tokenOf('anna.verdi'));
      expect(res.json().contacts).toHaveLength(1);
      const c = res.json().contacts[0];
      expect(c).toMatchObject({
        contactId: 102,
        companyName: 'ACME Contoso Srl',
        manageTickets: true,
        administrator: false,
        viewContactContracts: false,
        viewRecurringAdvances: false,
        viewContactActivityReports: false,
        viewContactWiki: false,
        viewEstimates: false,
        viewContactInvoices: false,
        viewContactDocuments: false,
        uploadContactDocuments: false,
      });
    });

    it('hands out a logo URL that serves the logo', async () => {
      const res = await me(await tokenOf('mario.rossi'));
      const logoUrl = res.json().contacts[0].portalSettings.logoUrl as string;
      const logo = await t.app.inject({ method: 'GET', url: logoUrl });
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toBe('image/png');
      const portal = (exampleDocument().portals as { logo: { base64: string } }[])[0]!;
      expect(logo.rawPayload.equals(Buffer.from(portal.logo.base64, 'base64'))).toBe(true);
      // The signature binds the URL to this file.
      const tampered = logoUrl.replace(/\/api\/files\/(\d+)\//, (_, id) => `/api/files/${Number(id) + 1}/`);
      expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    });

    it('answers an empty contact list for a user who holds none', async () => {
      await t.ctx.database.db.execute(
        sql`insert into users (user_name, email) values ('lonely.user', 'lonely@example.com')`,
      );
      const res = await me(await tokenFor(t, 'lonely.user'));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: expect.any(Number),
        userName: 'lonely.user',
        displayName: null,
        language: null,
        contacts: [],
        maxUploadBytes: 25 * 1024 * 1024,
      });
    });

    it('matches the path case-insensitively', async () => {
      const token = await tokenOf('mario.rossi');
      const res = await t.app.inject({ method: 'GET', url: '/api/users/ME', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
    });
  });

  it('documents the auth routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    for (const p of [
      '/api/auth/login',
      '/api/auth/logout',
      '/api/auth/recovery',
      '/api/auth/links/{token}',
      '/api/auth/confirm',
      '/api/auth/password',
      '/api/Users/me',
    ]) {
      expect(Object.keys(doc.paths), p).toContain(p);
    }
    // The password rule is stated, not only enforced.
    const body = doc.paths['/api/auth/password'].post.requestBody.content['application/json'].schema;
    expect(body.properties.newPassword.minLength).toBe(10);
  });

  it('counts a new password in characters, as the web form does (an emoji is one)', async () => {
    const token = await tokenFor(t, 'anna.verdi');
    const change = (newPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        headers: bearer(token),
        payload: { currentPassword: PASSWORD, newPassword },
      });
    const short = await change('12345678😀'); // 9 characters, 10 UTF-16 units
    expect(short.statusCode).toBe(400);
    expect(short.json().code).toBe('password_too_short');
  });
});
