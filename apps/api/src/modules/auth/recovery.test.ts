import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { bearer, exampleDocument, seedExample } from '../../test/seed';
import { linkTokenMailedTo } from './auth-fixture';
import { insertUserToken } from './auth.queries';

const NOW = '2026-11-20T10:00:00Z';
let ipSeq = 0;
const freshIp = () => `10.2.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

describe('recovery and invitation links', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: NOW, env: { PUBLIC_URL: 'https://portal.example.com/' } });
    await seedExample(t);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(NOW);
    await t.ctx.database.db.execute(sql`delete from rate_limits`);
  });

  const post = (url: string, payload: object, ip = freshIp()) =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress: ip });
  const recover = (userName: string, company?: string, ip?: string) =>
    post('/api/auth/recovery', company ? { userName, company } : { userName }, ip);
  const check = (token: string) => t.app.inject({ method: 'GET', url: `/api/auth/links/${token}` });
  const confirm = (token: string, password: string, passwordRepeat = password) =>
    post('/api/auth/confirm', { token, password, passwordRepeat });
  const login = (userName: string, password: string) => post('/api/auth/login', { userName, password });
  const outboxCount = async () => {
    const r = await t.ctx.database.db.execute(sql`select count(*)::int as n from outbox`);
    return Number((r as unknown as { rows: { n: number }[] }).rows[0]!.n);
  };
  const userId = async (name: string) => {
    const r = await t.ctx.database.db.execute(sql`select id from users where user_name = ${name}`);
    return Number((r as unknown as { rows: { id: number }[] }).rows[0]!.id);
  };

  describe('recovery', () => {
    it('answers the same for an unknown user and mails nothing', async () => {
      const before = await outboxCount();
      const res = await recover('nobody.at.all', 'acme');
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ status: 'sent' });
      expect(await outboxCount()).toBe(before);
    });

    it('mails a working single-use link to a known user, named by e-mail in any case', async () => {
      const before = await outboxCount();
      const res = await recover('MARIO@acme.example', 'ACME');
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ status: 'sent' });
      expect(await outboxCount()).toBe(before + 1);

      const r = await t.ctx.database.db.execute(sql`select payload from outbox order by id desc limit 1`);
      const mail = (r as unknown as { rows: { payload: { to: string; subject: string; text: string } }[] })
        .rows[0]!.payload;
      expect(mail.to).toBe('mario@acme.example');
      // The portal speaks Italian by default.
      expect(mail.subject).toBe('Reimposta la tua password');
      expect(mail.text).toMatch(/https:\/\/portal\.example\.com\/confirm\?token=[\w-]+&company=acme\n/);

      const token = await linkTokenMailedTo(t, 'mario@acme.example');
      expect((await check(token)).json()).toEqual({ purpose: 'recovery', userName: 'mario.rossi' });

      const old = (await login('mario.rossi', 'Correct-Horse-9')).json().token as string;
      const done = await confirm(token, 'Brand-new-pass-1');
      expect(done.statusCode).toBe(200);
      expect(Object.keys(done.json()).sort()).toEqual(['expiresAt', 'token']);
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/Users/me',
        headers: bearer(done.json().token),
      });
      expect(me.json().userName).toBe('mario.rossi');
      // Sessions opened before the reset end with it.
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/Users/me', headers: bearer(old) })).statusCode,
      ).toBe(401);
      expect((await login('mario.rossi', 'Correct-Horse-9')).statusCode).toBe(401);
      expect((await login('mario.rossi', 'Brand-new-pass-1')).statusCode).toBe(200);

      // Single use.
      const again = await confirm(token, 'Another-pass-22');
      expect(again.statusCode).toBe(404);
      expect(again.json().code).toBe('link_invalid');
      expect((await check(token)).statusCode).toBe(404);
      expect((await login('mario.rossi', 'Brand-new-pass-1')).statusCode).toBe(200);
    });

    it('leaves the company out of the link when none (or an unknown one) is given', async () => {
      await recover('anna.verdi', 'no-such-portal');
      const r = await t.ctx.database.db.execute(sql`select payload from outbox order by id desc limit 1`);
      const mail = (r as unknown as { rows: { payload: { text: string } }[] }).rows[0]!.payload;
      expect(mail.text).toMatch(/\/confirm\?token=[\w-]+\n/);
      expect(mail.text).not.toContain('company=');
    });

    const lastMail = async () => {
      const r = await t.ctx.database.db.execute(sql`select payload from outbox order by id desc limit 1`);
      return (
        r as unknown as { rows: { payload: { to: string; subject: string; text: string; html: string } }[] }
      ).rows[0]!.payload;
    };

    it('writes the e-mail in the language of the screen it was asked from', async () => {
      for (const [language, subject] of [
        ['en-EN', 'Reset your password'],
        ['es-ES', 'Restablece tu contraseña'],
        ['it-IT', 'Reimposta la tua password'],
      ]) {
        expect(
          (await post('/api/auth/recovery', { userName: 'anna.verdi', company: 'acme', language }))
            .statusCode,
        ).toBe(202);
        expect((await lastMail()).subject).toBe(subject);
      }
      // Without one, the language of the user's portal.
      await recover('anna.verdi');
      expect((await lastMail()).subject).toBe('Reimposta la tua password');
      expect((await post('/api/auth/recovery', { userName: 'anna.verdi', language: 'xx' })).statusCode).toBe(
        400,
      );
    });

    it('wears the branding of a named portal only if the user belongs to it', async () => {
      const acme = (exampleDocument() as { portals: object[] }).portals[0]!;
      const beta = JSON.parse(JSON.stringify(acme).replaceAll('ACME', 'BETA Truffa')) as Record<
        string,
        unknown
      >;
      beta.webPortalKey = 'beta';
      await seedExample(t, { formatVersion: 1, portals: [beta], users: [] });
      await recover('anna.verdi', 'beta');
      const foreign = await lastMail();
      expect(foreign.to).toBe('anna@acme.example');
      expect(`${foreign.subject} ${foreign.text} ${foreign.html}`).not.toContain('BETA');
      expect(foreign.text).not.toContain('company=');
      await recover('anna.verdi', 'ACME');
      const own = await lastMail();
      expect(own.text).toContain('ACME Assistenza');
      expect(own.text).toContain('company=acme');
    });

    it("is not silenced by another portal's account of the same e-mail", async () => {
      // beta (made by the test above) gives one of its users the address of acme's Anna.
      await seedExample(t, {
        formatVersion: 1,
        portals: [],
        users: [
          {
            userName: 'beta.omonima',
            email: 'ANNA@acme.example',
            contacts: [{ webPortalKey: 'beta', contactId: 102 }],
          },
        ],
      });
      const before = await outboxCount();
      await recover('anna@acme.example', 'acme');
      expect(await outboxCount()).toBe(before + 1);
      const mail = await lastMail();
      expect(mail.to).toBe('anna@acme.example');
      expect(mail.text).toContain('company=acme');
      const token = /token=([\w-]+)/.exec(mail.text)![1]!;
      expect((await check(token)).json()).toMatchObject({ purpose: 'recovery', userName: 'anna.verdi' });
      // Asked without a portal, each account of the address gets its own link.
      await recover('anna@acme.example');
      expect(await outboxCount()).toBe(before + 3);
    });

    it('expires the link after one hour', async () => {
      await recover('anna.verdi');
      const token = await linkTokenMailedTo(t, 'anna@acme.example');
      t.clock.advance(3600_000 - 1000);
      expect((await check(token)).statusCode).toBe(200);
      t.clock.advance(2000);
      const res = await check(token);
      expect(res.statusCode).toBe(410);
      expect(res.json().code).toBe('link_expired');
      const c = await confirm(token, 'Brand-new-pass-1');
      expect(c.statusCode).toBe(410);
      expect((await login('anna.verdi', 'Correct-Horse-9')).statusCode).toBe(200);
    });

    it('a new request retires the previous link', async () => {
      await recover('anna.verdi');
      const first = await linkTokenMailedTo(t, 'anna@acme.example');
      await recover('anna.verdi');
      const second = await linkTokenMailedTo(t, 'anna@acme.example');
      expect(second).not.toBe(first);
      expect((await check(first)).statusCode).toBe(404);
      expect((await check(second)).statusCode).toBe(200);
    });

    it('throttles per name and per address, whether the user exists or not', async () => {
      for (const name of ['anna.verdi', 'ghost.person']) {
        for (let i = 0; i < 3; i++) expect((await recover(name)).statusCode).toBe(202);
        const res = await recover(name);
        expect(res.statusCode).toBe(429);
        expect(res.json().code).toBe('too_many_attempts');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      const ip = '192.0.2.10';
      for (let i = 0; i < 10; i++) expect((await recover(`someone${i}`, undefined, ip)).statusCode).toBe(202);
      expect((await recover('someone-else', undefined, ip)).statusCode).toBe(429);
    });

    it('rolls back the link when the e-mail cannot be queued', async () => {
      // The token and its e-mail are one transaction: an outbox failure leaves no usable link.
      await t.ctx.database.db.execute(
        sql`alter table outbox add constraint no_mail check (channel <> 'email') not valid`,
      );
      try {
        const before = await t.ctx.database.db.execute(sql`select count(*)::int as n from user_tokens`);
        const res = await recover('anna.verdi');
        expect(res.statusCode).toBe(500);
        const after = await t.ctx.database.db.execute(sql`select count(*)::int as n from user_tokens`);
        expect((after as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(
          (before as unknown as { rows: { n: number }[] }).rows[0]!.n,
        );
      } finally {
        await t.ctx.database.db.execute(sql`alter table outbox drop constraint no_mail`);
      }
    });
  });

  describe('invitation', () => {
    it('checks, refuses bad passwords, confirms once and signs the user in', async () => {
      expect((await login('nuovo.utente', 'Whatever-pass-1')).json().code).toBe('wrong_credentials');
      const token = await linkTokenMailedTo(t, 'nuovo@acme.example');
      expect((await check(token)).json()).toEqual({ purpose: 'invite', userName: 'nuovo.utente' });

      const differ = await confirm(token, 'Nuovo-password-1', 'Nuovo-password-2');
      expect(differ.statusCode).toBe(400);
      expect(differ.json()).toMatchObject({
        code: 'passwords_differ',
        message: 'Please check the entered passwords',
      });
      const short = await confirm(token, 'Short-1');
      expect(short.statusCode).toBe(400);
      expect(short.json().code).toBe('password_too_short');
      // Ten characters are enough.
      const ok = await confirm(token, 'Exactly-10');
      expect(ok.statusCode).toBe(200);
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/Users/me',
        headers: bearer(ok.json().token),
      });
      expect(me.json()).toMatchObject({ userName: 'nuovo.utente', contacts: [{ contactId: 104 }] });
      expect((await login('nuovo.utente', 'Exactly-10')).statusCode).toBe(200);

      const second = await confirm(token, 'Second-password-1');
      expect(second.statusCode).toBe(404);
      expect(second.json().code).toBe('link_invalid');
      expect((await login('nuovo.utente', 'Exactly-10')).statusCode).toBe(200);
    });

    it('is valid for 7 days', async () => {
      const token = await insertUserToken(
        t.ctx.database.db,
        await userId('anna.verdi'),
        'invite',
        t.clock.now(),
        7 * 24 * 3600_000,
      );
      t.clock.advance(7 * 24 * 3600_000 - 60_000);
      expect((await check(token)).statusCode).toBe(200);
      t.clock.advance(120_000);
      expect((await check(token)).statusCode).toBe(410);
      const res = await confirm(token, 'Some-new-password');
      expect(res.statusCode).toBe(410);
      expect(res.json().code).toBe('link_expired');
    });

    it('refuses unknown links', async () => {
      const res = await check('not-a-real-token-at-all');
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('link_invalid');
      expect((await confirm('not-a-real-token-at-all', 'Some-new-password')).statusCode).toBe(404);
    });
  });
});
