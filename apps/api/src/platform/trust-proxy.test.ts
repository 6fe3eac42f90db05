import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { seedExample } from '../test/seed';

/**
 * Behind a proxy, a client can put anything in X-Forwarded-For; the proxy appends the address it saw.
 * Rotating the forged part must not give a client a new address for the login, recovery and booking
 * limits.
 */
describe('TRUST_PROXY', () => {
  const rows = async (t: TestApp, prefix: string) =>
    (
      (await t.ctx.database.db.execute(
        sql`select key from rate_limits where key like ${`${prefix}%`} order by key`,
      )) as unknown as { rows: { key: string }[] }
    ).rows.map((r) => r.key);

  describe('as a hop count', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { TRUST_PROXY: '1' } });
      await seedExample(t);
    });
    afterAll(() => t.close());

    const viaProxy = (client: string, i: number) => ({
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': `198.18.${i >> 8}.${i & 255}, ${client}` },
    });

    it('keeps the login limit per address whatever the client forges', async () => {
      const client = '203.0.113.50';
      for (let i = 0; i < 30; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { userName: `nobody${i}`, password: 'whatever-pass' },
          ...viaProxy(client, i),
        });
        expect(res.statusCode).toBe(401);
      }
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { userName: 'nobody-else', password: 'whatever-pass' },
        ...viaProxy(client, 99),
      });
      expect(res.statusCode).toBe(429);
      expect(await rows(t, 'login:ip:')).toEqual([`login:ip:${client}`]);
    });

    it('keeps the recovery limit per address', async () => {
      const client = '203.0.113.51';
      const ask = (i: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/recovery',
          payload: { userName: `somebody${i}` },
          ...viaProxy(client, i),
        });
      for (let i = 0; i < 10; i++) expect((await ask(i)).statusCode).toBe(202);
      expect((await ask(10)).statusCode).toBe(429);
    });

    it('keeps the booking limit per address', async () => {
      const client = '203.0.113.52';
      await t.ctx.database.db.execute(
        sql`insert into rate_limits (key, count, window_start)
            values (${`appointments:book:${client}`}, 20, ${t.clock.now().toISOString()}::timestamptz)`,
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/appointments/acme/acme-sopralluogo-5e6f7a8b',
        payload: {
          start: '2026-11-30T08:00:00.000Z',
          durationMinutes: 60,
          firstName: 'Mario',
          lastName: 'Rossi',
          phone: '+39 333 1234567',
          email: 'xff@example.com',
        },
        ...viaProxy(client, 7),
      });
      expect(res.statusCode).toBe(429);
    });
  });

  describe('as proxy addresses', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' } });
    });
    afterAll(() => t.close());

    const attempt = (remoteAddress: string, xff: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { userName: 'nobody', password: 'whatever-pass' },
        remoteAddress,
        headers: { 'x-forwarded-for': xff },
      });

    it('takes the first address no trusted proxy added, and ignores the header from anyone else', async () => {
      await attempt('10.1.2.3', '1.1.1.1, 203.0.113.60, 192.0.2.1');
      expect(await rows(t, 'login:ip:')).toEqual(['login:ip:203.0.113.60']);
      await t.ctx.database.db.execute(sql`delete from rate_limits`);
      await attempt('198.51.100.1', '203.0.113.61');
      expect(await rows(t, 'login:ip:')).toEqual(['login:ip:198.51.100.1']);
    });
  });
});
