import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { accountRoutes, routeKey } from '@sportello/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { bearer, exampleDocument, seedExample } from '../../test/seed';
import { linkTokenMailedTo } from './auth-fixture';

const NOW = '2026-11-20T10:00:00Z';
const PASSWORD = 'Correct-Horse-9';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
let ipSeq = 0;
const freshIp = () => `10.7.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

type Rows<T> = { rows: T[] };

describe('account: profile, sessions, two-factor sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: NOW, env: { PUBLIC_URL: 'https://portal.example.com' } });
    const doc = exampleDocument() as { users: object[] };
    // One user per area of this file, so the tests do not see each other's factors and sessions.
    for (const userName of ['pat.profile', 'sam.sessions', 'tina.totp', 'rita.remember', 'ezio.email'])
      doc.users.push({ userName, email: `${userName}@acme.example`, password: PASSWORD, contacts: [] });
    await seedExample(t, doc);
    // The import hashes a dozen passwords (argon2): on a shared, loaded machine that outlasts a minute.
  }, 180_000);
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(NOW);
    await t.ctx.database.db.execute(sql`delete from rate_limits`);
  });

  const inject = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    token?: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      remoteAddress: freshIp(),
      ...(token ? { headers: bearer(token) } : {}),
      ...(payload ? { payload } : {}),
    });
  const login = (
    userName: string,
    opts: { remember?: boolean; ua?: string; ip?: string; password?: string } = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: {
        userName,
        password: opts.password ?? PASSWORD,
        ...(opts.remember ? { remember: true } : {}),
      },
      remoteAddress: opts.ip ?? freshIp(),
      headers: opts.ua ? { 'user-agent': opts.ua } : {},
    });
  const tokenOf = async (userName: string, opts: Parameters<typeof login>[1] = {}) => {
    const res = await login(userName, opts);
    expect(res.statusCode).toBe(200);
    return res.json().token as string;
  };
  const me = (token: string) => inject('GET', '/api/Users/me', token);
  const expectError = (res: { statusCode: number; json(): unknown }, status: number, code: string) => {
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(expect.objectContaining({ code, message: expect.any(String) }));
  };
  const lastMailTo = async (to: string) => {
    const r = (await t.ctx.database.db.execute(
      sql`select payload from outbox where lower(payload->>'to') = lower(${to}) order by id desc limit 1`,
    )) as unknown as Rows<{ payload: { subject: string; text: string } }>;
    return r.rows[0]?.payload;
  };

  describe('every account route', () => {
    it('is refused without a session and with a forged one, whatever the body', async () => {
      for (const c of Object.values(accountRoutes)) {
        if (c.access.guard === 'public') continue;
        const url = c.path.replace(/:[a-z]+/g, '00000000-0000-4000-8000-000000000000');
        const none = await t.app.inject({ method: c.method, url, payload: {} });
        expectError(none, 401, 'unauthorized');
        const forged = await t.app.inject({
          method: c.method,
          url,
          headers: bearer('forged-token'),
          payload: {},
        });
        expect(forged.statusCode, routeKey(c)).toBe(401);
      }
    });
  });

  describe('profile', () => {
    it('shows and changes the display name and the language, which /Users/me carries', async () => {
      const token = await tokenOf('pat.profile');
      const before = await inject('GET', '/api/account', token);
      expect(before.json()).toEqual({
        userName: 'pat.profile',
        displayName: null,
        email: 'pat.profile@acme.example',
        pendingEmail: null,
        language: null,
        twoFactor: { totp: false, passkeys: [], recoveryCodesLeft: 0 },
      });
      const res = await inject('PATCH', '/api/account', token, {
        displayName: '  Pat Rossi ',
        language: 'es-ES',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ displayName: 'Pat Rossi', language: 'es-ES' });
      expect((await me(token)).json()).toMatchObject({ displayName: 'Pat Rossi', language: 'es-ES' });
      // Leaving a field out keeps it; null or blank clears it.
      expect((await inject('PATCH', '/api/account', token, { language: null })).json()).toMatchObject({
        displayName: 'Pat Rossi',
        language: null,
      });
      expect(
        (await inject('PATCH', '/api/account', token, { displayName: '  ' })).json().displayName,
      ).toBeNull();
    });

    it('answers bad input with 400 {code, message} and changes nothing', async () => {
      const token = await tokenOf('pat.profile');
      for (const body of [
        { language: 'fr-FR' },
        { displayName: '<b>x</b>' },
        { displayName: 'x'.repeat(81) },
        { displayName: 42 },
      ]) {
        const res = await inject('PATCH', '/api/account', token, body);
        expectError(res, 400, 'validation_error');
      }
      expect((await inject('GET', '/api/account', token)).json().displayName).toBeNull();
    });

    it('writes the recovery e-mail in the language the user chose', async () => {
      const token = await tokenOf('pat.profile');
      await inject('PATCH', '/api/account', token, { language: 'en-EN' });
      const res = await inject('POST', '/api/auth/recovery', undefined, {
        userName: 'pat.profile',
        language: 'it-IT',
      });
      expect(res.statusCode).toBe(202);
      expect((await lastMailTo('pat.profile@acme.example'))?.subject).toBe('Reset your password');
      await inject('PATCH', '/api/account', token, { language: null });
    });
  });

  describe('e-mail change', () => {
    const confirmTokenMailedTo = async (to: string) => {
      const mail = await lastMailTo(to);
      const m = /\/confirm-email\?token=([\w%-]+)/.exec(mail?.text ?? '');
      if (!m) throw new Error(`no confirm-email link to ${to}`);
      return decodeURIComponent(m[1]!);
    };

    it('mails a link to the new address, tells the old one, and changes only once confirmed', async () => {
      const token = await tokenOf('ezio.email');
      const res = await inject('POST', '/api/account/email', token, {
        email: 'ezio@new.example',
        password: PASSWORD,
      });
      expect(res.statusCode).toBe(202);
      const notice = await lastMailTo('ezio.email@acme.example');
      expect(notice?.subject).toBe('Richiesta di cambio dell’indirizzo e-mail');
      expect(notice?.text).toContain('ezio@new.example');
      // The old address gets no link: only the new one can make the change.
      expect(notice?.text).not.toMatch(/token=/);
      const profile = (await inject('GET', '/api/account', token)).json();
      expect(profile).toMatchObject({ email: 'ezio.email@acme.example', pendingEmail: 'ezio@new.example' });

      const link = await confirmTokenMailedTo('ezio@new.example');
      // An e-mail link is not a password link.
      const misuse = await inject('POST', '/api/auth/confirm', undefined, {
        token: link,
        password: 'Another-pass-1',
        passwordRepeat: 'Another-pass-1',
      });
      expectError(misuse, 404, 'link_invalid');
      expectError(await inject('GET', `/api/auth/links/${link}`), 404, 'link_invalid');

      const done = await inject('POST', '/api/account/email/confirm', undefined, { token: link });
      expect(done.statusCode).toBe(200);
      expect(done.json()).toEqual({ email: 'ezio@new.example' });
      expect((await inject('GET', '/api/account', token)).json()).toMatchObject({
        email: 'ezio@new.example',
        pendingEmail: null,
      });
      expectError(
        await inject('POST', '/api/account/email/confirm', undefined, { token: link }),
        404,
        'link_invalid',
      );
      // The new address signs in.
      expect((await login('ezio@new.example')).statusCode).toBe(200);
    });

    it('refuses a wrong password, the same address and a malformed one; an old link expires', async () => {
      const token = await tokenOf('ezio.email');
      const current = (await inject('GET', '/api/account', token)).json().email as string;
      expectError(
        await inject('POST', '/api/account/email', token, {
          email: 'x@y.example',
          password: 'wrong-password',
        }),
        400,
        'wrong_password',
      );
      expectError(
        await inject('POST', '/api/account/email', token, {
          email: current.toUpperCase(),
          password: PASSWORD,
        }),
        400,
        'email_unchanged',
      );
      for (const email of ['not-an-email', '', 'a@b', 'x'.repeat(330) + '@e.com'])
        expectError(
          await inject('POST', '/api/account/email', token, { email, password: PASSWORD }),
          400,
          'validation_error',
        );

      await inject('POST', '/api/account/email', token, { email: 'late@new.example', password: PASSWORD });
      const link = await confirmTokenMailedTo('late@new.example');
      t.clock.set('2026-11-21T10:00:01Z');
      expectError(
        await inject('POST', '/api/account/email/confirm', undefined, { token: link }),
        410,
        'link_expired',
      );
      expectError(
        await inject('POST', '/api/account/email/confirm', undefined, { token: 'nope' }),
        404,
        'link_invalid',
      );
    });
  });

  describe('sessions', () => {
    it('lists live sessions with browser, system and address; ends one, and only the owner can', async () => {
      await t.ctx.database.db.execute(
        sql`update sessions set revoked_at = now() where user_id = (select id from users where user_name = 'sam.sessions')`,
      );
      const desk = await tokenOf('sam.sessions', { ua: CHROME_WINDOWS, ip: '192.0.2.10' });
      const phone = await tokenOf('sam.sessions', { ua: SAFARI_IPHONE, ip: '198.51.100.7', remember: true });
      const list = (await inject('GET', '/api/account/sessions', desk)).json() as Array<
        Record<string, unknown>
      >;
      expect(list).toHaveLength(2);
      const mine = list.find((s) => s.current)!;
      const other = list.find((s) => !s.current)!;
      expect(mine).toMatchObject({
        browser: 'Chrome',
        os: 'Windows',
        device: 'desktop',
        address: '192.0.2.10',
        remember: false,
      });
      expect(other).toMatchObject({
        browser: 'Safari',
        os: 'iOS',
        device: 'mobile',
        address: '198.51.100.7',
        remember: true,
      });
      expect(other.id).toMatch(/^[0-9a-f-]{36}$/);

      // Someone else cannot end it: not found, and it lives on.
      const stranger = await tokenOf('pat.profile');
      expectError(
        await inject('DELETE', `/api/account/sessions/${other.id as string}`, stranger),
        404,
        'not_found',
      );
      expect((await me(phone)).statusCode).toBe(200);
      expectError(await inject('DELETE', '/api/account/sessions/not-a-uuid', desk), 400, 'validation_error');

      expect((await inject('DELETE', `/api/account/sessions/${other.id as string}`, desk)).statusCode).toBe(
        204,
      );
      expectError(await me(phone), 401, 'invalid_token');
      expect((await me(desk)).statusCode).toBe(200);
      expectError(
        await inject('DELETE', `/api/account/sessions/${other.id as string}`, desk),
        404,
        'not_found',
      );
    });

    it('signs out everywhere, this session too', async () => {
      const a = await tokenOf('sam.sessions');
      const b = await tokenOf('sam.sessions', { remember: true });
      const other = await tokenOf('pat.profile');
      expect((await inject('POST', '/api/account/sessions/end-all', a)).statusCode).toBe(204);
      expectError(await me(a), 401, 'invalid_token');
      expectError(await me(b), 401, 'invalid_token');
      expect((await me(other)).statusCode).toBe(200);
    });

    it('moves "last seen" when the app loads, not on every request', async () => {
      const token = await tokenOf('sam.sessions');
      const seen = async () =>
        (
          (await inject('GET', '/api/account/sessions', token)).json() as Array<{
            current: boolean;
            lastSeenAt: string;
          }>
        ).find((s) => s.current)!.lastSeenAt;
      expect(await seen()).toBe('2026-11-20T10:00:00.000Z');
      t.clock.set('2026-11-20T10:02:00Z');
      await me(token);
      expect(await seen()).toBe('2026-11-20T10:00:00.000Z');
      t.clock.set('2026-11-20T10:30:00Z');
      await me(token);
      expect(await seen()).toBe('2026-11-20T10:30:00.000Z');
    });

    it('ends the other sessions on a password change, keeping "remember me" for the new one', async () => {
      const other = await tokenOf('rita.remember');
      const current = await tokenOf('rita.remember', { remember: true });
      const res = await inject('POST', '/api/auth/password', current, {
        currentPassword: PASSWORD,
        newPassword: 'Rita-new-password-1',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().expiresAt).toBe('2026-12-20T10:00:00.000Z');
      expectError(await me(other), 401, 'invalid_token');
      expectError(await me(current), 401, 'invalid_token');
      expect((await me(res.json().token)).statusCode).toBe(200);
      await inject('POST', '/api/auth/password', res.json().token, {
        currentPassword: 'Rita-new-password-1',
        newPassword: PASSWORD,
      });
    });
  });

  describe('remember me', () => {
    it('keeps a remembered session 30 days, an ordinary one TOKEN_TTL_HOURS', async () => {
      const plain = await login('rita.remember');
      const kept = await login('rita.remember', { remember: true });
      expect(plain.json().expiresAt).toBe('2026-11-20T22:00:00.000Z');
      expect(kept.json().expiresAt).toBe('2026-12-20T10:00:00.000Z');
      t.clock.set('2026-11-20T22:00:01Z');
      expectError(await me(plain.json().token), 401, 'invalid_token');
      expect((await me(kept.json().token)).statusCode).toBe(200);
      t.clock.set('2026-12-20T10:00:01Z');
      expectError(await me(kept.json().token), 401, 'invalid_token');
    });

    it('refuses a remember that is not a boolean', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { userName: 'rita.remember', password: PASSWORD, remember: 'yes' },
      });
      expectError(res, 400, 'validation_error');
    });
  });

  describe('two-factor sign-in with an authenticator app', () => {
    const epoch = () => Math.floor(t.clock.now().getTime() / 1000);
    const codeAt = (secret: string, at = epoch()) => generate({ secret, epoch: at });
    let secret = '';
    let recoveryCodes: string[] = [];

    const secondFactor = (payload: object, ip?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login/second-factor',
        payload,
        remoteAddress: ip ?? freshIp(),
      });

    it('adds no factor with a session alone: the password (or a code) opens the enrolment, for minutes', async () => {
      const token = await tokenOf('tina.totp');
      // A borrowed browser: no proof, or a wrong one, opens nothing.
      expectError(await inject('POST', '/api/account/totp/setup', token), 400, 'validation_error');
      expectError(await inject('POST', '/api/account/totp/setup', token, {}), 400, 'validation_error');
      expectError(
        await inject('POST', '/api/account/totp/setup', token, { password: 'nope' }),
        400,
        'wrong_password',
      );
      expectError(
        await inject('POST', '/api/account/passkeys/options', token, { password: 'nope' }),
        400,
        'wrong_password',
      );
      const pending = (await t.ctx.database.db.execute(
        sql`select totp_pending_secret as s from users where user_name = 'tina.totp'`,
      )) as unknown as Rows<{ s: string | null }>;
      expect(pending.rows[0]!.s).toBeNull();
      // With the password: a secret, which its code confirms within five minutes only.
      const setup = await inject('POST', '/api/account/totp/setup', token, { password: PASSWORD });
      expect(setup.statusCode).toBe(200);
      t.clock.advance(5 * 60_000 + 1000);
      const late = generate({ secret: setup.json().secret, epoch: epoch() });
      expectError(
        await inject('POST', '/api/account/totp', token, { code: await late }),
        409,
        'no_pending_enrolment',
      );
    });

    it('enrols: a secret to scan, stored encrypted, turned on by its first code with 10 recovery codes', async () => {
      const token = await tokenOf('tina.totp');
      const setup = await inject('POST', '/api/account/totp/setup', token, { password: PASSWORD });
      expect(setup.statusCode).toBe(200);
      secret = setup.json().secret;
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      expect(setup.json().uri).toMatch(/^otpauth:\/\/totp\/.+secret=/);
      const stored = (await t.ctx.database.db.execute(
        sql`select totp_pending_secret as s from users where user_name = 'tina.totp'`,
      )) as unknown as Rows<{ s: string }>;
      expect(stored.rows[0]!.s).not.toContain(secret);
      expect(stored.rows[0]!.s).toMatch(/^v1\./);

      expectError(await inject('POST', '/api/account/totp', token, { code: '000000' }), 400, 'wrong_code');
      expectError(await inject('POST', '/api/account/totp', token, { code: 'abc' }), 400, 'validation_error');
      // Not on yet: the password alone still signs in.
      expect(Object.keys((await login('tina.totp')).json())).toContain('token');

      const on = await inject('POST', '/api/account/totp', token, { code: await codeAt(secret) });
      expect(on.statusCode).toBe(200);
      recoveryCodes = on.json().recoveryCodes;
      expect(recoveryCodes).toHaveLength(10);
      // The owner is told, in their mailbox, without any secret.
      const told = await lastMailTo('tina.totp@acme.example');
      expect(told?.subject).toBe('Accesso in due passaggi modificato');
      expect(told?.text).toContain('è stata attivata un’app di autenticazione');
      expect(told?.text).not.toContain(secret);
      expect(new Set(recoveryCodes).size).toBe(10);
      expect((await inject('GET', '/api/account', token)).json().twoFactor).toEqual({
        totp: true,
        passkeys: [],
        recoveryCodesLeft: 10,
      });
      // Only hashes are kept.
      const codes = (await t.ctx.database.db.execute(
        sql`select code_hash from user_recovery_codes`,
      )) as unknown as Rows<{ code_hash: string }>;
      expect(codes.rows.map((r) => r.code_hash).join()).not.toContain(recoveryCodes[0]!.replace('-', ''));
      expectError(
        await inject('POST', '/api/account/totp', token, { code: await codeAt(secret) }),
        409,
        'no_pending_enrolment',
      );
      // A session alone cannot move the factor to another app: it must be turned off first.
      expectError(
        await inject('POST', '/api/account/totp/setup', token, { password: PASSWORD }),
        409,
        'conflict',
      );
    });

    it('asks for the second factor after the password and signs in with a computed code, once', async () => {
      t.clock.set('2026-11-20T10:05:00Z');
      const first = await login('tina.totp', { remember: true });
      expect(first.statusCode).toBe(200);
      expect(Object.keys(first.json())).toEqual(['secondFactor']);
      const { ticket, methods } = first.json().secondFactor;
      expect(methods).toEqual(['totp', 'recovery']);
      expectError(await secondFactor({ ticket, code: '123456' }), 401, 'wrong_code');
      const code = await codeAt(secret);
      const ok = await secondFactor({ ticket, code });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().expiresAt).toBe('2026-12-20T10:05:00.000Z');
      expect((await me(ok.json().token)).statusCode).toBe(200);
      // The ticket is spent, and the code too (a replay on a fresh ticket fails).
      expectError(await secondFactor({ ticket, code }), 401, 'challenge_expired');
      const again = (await login('tina.totp')).json().secondFactor.ticket;
      expectError(await secondFactor({ ticket: again, code }), 401, 'wrong_code');
    });

    it('takes each recovery code once', async () => {
      const ticket = (await login('tina.totp')).json().secondFactor.ticket;
      const ok = await secondFactor({ ticket, code: ` ${recoveryCodes[0]!.toUpperCase()} ` });
      expect(ok.statusCode).toBe(200);
      const ticket2 = (await login('tina.totp')).json().secondFactor.ticket;
      expectError(await secondFactor({ ticket: ticket2, code: recoveryCodes[0]! }), 401, 'wrong_code');
      expect(
        (await secondFactor({ ticket: ticket2, code: recoveryCodes[1]!.replace('-', '') })).statusCode,
      ).toBe(200);
      const token = ok.json().token as string;
      expect((await inject('GET', '/api/account', token)).json().twoFactor.recoveryCodesLeft).toBe(8);
    });

    it('limits guesses like the password, refuses an old ticket and bad input', async () => {
      const ip = '203.0.113.9';
      const ticket = (await login('tina.totp', { ip })).json().secondFactor.ticket;
      for (let i = 0; i < 5; i++)
        expectError(await secondFactor({ ticket, code: '000000' }, ip), 401, 'wrong_code');
      const sixth = await secondFactor({ ticket, code: await codeAt(secret) }, ip);
      expectError(sixth, 429, 'too_many_attempts');
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);

      // Across addresses too: 20 wrong codes for one account close it for 15 minutes, wherever from.
      await t.ctx.database.db.execute(sql`delete from rate_limits`);
      for (let i = 0; i < 20; i++) {
        const from = `198.18.0.${i + 1}`;
        const tk = (await login('tina.totp', { ip: from })).json().secondFactor.ticket;
        expectError(await secondFactor({ ticket: tk, code: '000000' }, from), 401, 'wrong_code');
      }
      const spread = (await login('tina.totp', { ip: '198.18.1.1' })).json().secondFactor.ticket;
      expectError(
        await secondFactor({ ticket: spread, code: await codeAt(secret) }, '198.18.1.1'),
        429,
        'too_many_attempts',
      );
      await t.ctx.database.db.execute(sql`delete from rate_limits`);

      const late = (await login('tina.totp')).json().secondFactor.ticket;
      t.clock.set('2026-11-20T10:05:01Z');
      expectError(await secondFactor({ ticket: late, code: await codeAt(secret) }), 401, 'challenge_expired');
      expectError(await secondFactor({ ticket: 'forged', code: '123456' }), 401, 'challenge_expired');
      for (const body of [
        { ticket: late },
        { ticket: late, code: '1', passkey: {} },
        { code: '123456' },
        { ticket: 5, code: 'x' },
      ])
        expectError(await secondFactor(body), 400, 'validation_error');
    });

    it('does not let a recovery link get past the second factor', async () => {
      t.clock.set('2026-11-20T10:20:00Z');
      await inject('POST', '/api/auth/recovery', undefined, { userName: 'tina.totp' });
      const link = await linkTokenMailedTo(t, 'tina.totp@acme.example');
      const res = await inject('POST', '/api/auth/confirm', undefined, {
        token: link,
        password: PASSWORD,
        passwordRepeat: PASSWORD,
      });
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json())).toEqual(['secondFactor']);
      const ok = await secondFactor({ ticket: res.json().secondFactor.ticket, code: await codeAt(secret) });
      expect(ok.statusCode).toBe(200);
    });

    it('renews recovery codes and turns the app off only with the password or a code', async () => {
      t.clock.set('2026-11-20T11:00:00Z');
      const ticket = (await login('tina.totp')).json().secondFactor.ticket;
      const token = (await secondFactor({ ticket, code: recoveryCodes[2]! })).json().token as string;

      expectError(await inject('POST', '/api/account/recovery-codes', token, {}), 400, 'validation_error');
      expectError(
        await inject('POST', '/api/account/recovery-codes', token, { password: 'nope' }),
        400,
        'wrong_password',
      );
      const renewed = await inject('POST', '/api/account/recovery-codes', token, { password: PASSWORD });
      expect(renewed.statusCode).toBe(200);
      expect(renewed.json().recoveryCodes).toHaveLength(10);
      const fresh = renewed.json().recoveryCodes as string[];
      // The old set is gone.
      const t2 = (await login('tina.totp')).json().secondFactor.ticket;
      expectError(await secondFactor({ ticket: t2, code: recoveryCodes[3]! }), 401, 'wrong_code');

      expectError(
        await inject('POST', '/api/account/totp/disable', token, { password: 'nope' }),
        400,
        'wrong_password',
      );
      expectError(
        await inject('POST', '/api/account/totp/disable', token, { code: '000000' }),
        400,
        'wrong_code',
      );
      expect((await inject('POST', '/api/account/totp/disable', token, { code: fresh[0]! })).statusCode).toBe(
        204,
      );
      expect((await lastMailTo('tina.totp@acme.example'))?.text).toContain(
        'è stata disattivata l’app di autenticazione',
      );
      expect((await inject('GET', '/api/account', token)).json().twoFactor).toEqual({
        totp: false,
        passkeys: [],
        recoveryCodesLeft: 0,
      });
      expect(Object.keys((await login('tina.totp')).json())).toContain('token');
      expectError(
        await inject('POST', '/api/account/recovery-codes', token, { password: PASSWORD }),
        409,
        'two_factor_off',
      );
    });
  });

  describe('passkeys (the browser part is the journey e2e/account.e2e.ts)', () => {
    it('registers only an answer to its own options, and refuses a garbled one', async () => {
      const token = await tokenOf('pat.profile');
      const response = {
        id: 'abc',
        rawId: 'abc',
        type: 'public-key',
        response: {},
        clientExtensionResults: {},
      };
      expectError(
        await inject('POST', '/api/account/passkeys', token, { name: 'Key', response }),
        409,
        'no_pending_enrolment',
      );
      expectError(await inject('POST', '/api/account/passkeys/options', token, {}), 400, 'validation_error');
      const options = await inject('POST', '/api/account/passkeys/options', token, { password: PASSWORD });
      expect(options.statusCode).toBe(200);
      expect(options.json()).toMatchObject({
        rp: { id: 'portal.example.com' },
        user: { name: 'pat.profile' },
      });
      expect(options.json().challenge).toMatch(/^[\w-]{20,}$/);
      expectError(
        await inject('POST', '/api/account/passkeys', token, { name: 'Key', response }),
        400,
        'wrong_code',
      );
      expectError(
        await inject('POST', '/api/account/passkeys', token, { name: '', response }),
        400,
        'validation_error',
      );
      expectError(
        await inject('POST', '/api/account/passkeys/00000000-0000-4000-8000-000000000000/remove', token, {
          password: PASSWORD,
        }),
        404,
        'not_found',
      );
    });

    it('tells the owner when a passkey is removed, naming it', async () => {
      const token = await tokenOf('pat.profile');
      await t.ctx.database.db.execute(sql`
        insert into user_passkeys (user_id, credential_id, public_key, name)
        select id, 'cred-gone', 'AQID', 'Vecchia chiave' from users where user_name = 'pat.profile'`);
      const id = (await inject('GET', '/api/account', token)).json().twoFactor.passkeys[0].id as string;
      // The only factor: its proof is the password.
      const gone = await inject('POST', `/api/account/passkeys/${id}/remove`, token, { password: PASSWORD });
      expect(gone.statusCode).toBe(204);
      const told = await lastMailTo('pat.profile@acme.example');
      expect(told?.text).toContain('è stata rimossa la passkey «Vecchia chiave»');
    });

    it('asks an account with a passkey for it after the password, and offers options for its ticket', async () => {
      await t.ctx.database.db.execute(sql`
        insert into user_passkeys (user_id, credential_id, public_key, name)
        select id, 'cred-pat', 'AQID', 'Desk key' from users where user_name = 'pat.profile'`);
      const first = await login('pat.profile');
      expect(first.json().secondFactor.methods).toEqual(['passkey', 'recovery']);
      const options = await inject('POST', '/api/auth/login/passkey-options', undefined, {
        ticket: first.json().secondFactor.ticket,
      });
      expect(options.statusCode).toBe(200);
      expect(options.json()).toMatchObject({
        rpId: 'portal.example.com',
        allowCredentials: [{ id: 'cred-pat' }],
      });
      // A made-up answer is a wrong one, not a fault.
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login/second-factor',
        payload: { ticket: first.json().secondFactor.ticket, passkey: { id: 'cred-pat', response: {} } },
      });
      expectError(res, 401, 'wrong_code');
      await t.ctx.database.db.execute(sql`delete from user_passkeys where credential_id = 'cred-pat'`);
    });

    it('offers no passkey sign-in to an account without one', async () => {
      expectError(
        await inject('POST', '/api/auth/login/passkey-options', undefined, { ticket: 'forged' }),
        401,
        'challenge_expired',
      );
    });
  });
});
