import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { openTestDatabase } from '../test/harness';
import { addressKey, clear, clearPrefix, hit, purgeStale, unhit } from './rate-limit';

const t0 = new Date('2026-11-20T10:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('rate-limit counters', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('allows up to the limit in a window, then refuses until the window ends', async () => {
    const { db } = database;
    for (let i = 1; i <= 3; i++) {
      const r = await hit(db, 'k:a', 3, 60, at(i));
      expect(r).toEqual({ allowed: true, count: i, retryAfterSeconds: 61 - i });
    }
    expect(await hit(db, 'k:a', 3, 60, at(10))).toEqual({ allowed: false, count: 4, retryAfterSeconds: 51 });
    expect((await hit(db, 'k:a', 3, 60, at(59.5))).allowed).toBe(false);
    // The window that started at t0+1 s ends at t0+61 s: a new one starts at 1.
    expect(await hit(db, 'k:a', 3, 60, at(61))).toEqual({ allowed: true, count: 1, retryAfterSeconds: 60 });
    // Other keys are independent.
    expect((await hit(db, 'k:b', 3, 60, at(61))).count).toBe(1);
  });

  it('counts every one of many concurrent hits exactly once', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => hit(database.db, 'k:burst', 5, 60, t0)),
    );
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it('unhit takes one back, clear forgets the key', async () => {
    const { db } = database;
    await hit(db, 'k:c', 2, 60, t0);
    await hit(db, 'k:c', 2, 60, t0);
    await unhit(db, 'k:c');
    expect((await hit(db, 'k:c', 2, 60, t0)).count).toBe(2);
    await clear(db, 'k:c');
    expect((await hit(db, 'k:c', 2, 60, t0)).count).toBe(1);
    await unhit(db, 'k:never-seen');
  });

  it('purges counters whose window started long ago', async () => {
    const { db } = database;
    await hit(db, 'k:old', 2, 60, new Date('2026-01-01T00:00:00Z'));
    await hit(db, 'k:new', 2, 60, t0);
    expect(await purgeStale(db, new Date('2026-06-01T00:00:00Z'))).toBeGreaterThanOrEqual(1);
    const r = await db.execute(sql`select key from rate_limits where key in ('k:old', 'k:new')`);
    expect((r as unknown as { rows: { key: string }[] }).rows.map((x) => x.key)).toEqual(['k:new']);
  });

  it('clears every key under a prefix, and only those', async () => {
    const { db } = database;
    for (const k of ['p:1:a', 'p:1:b', 'p:10:a', 'p_1:x']) await hit(db, k, 5, 60, at(1));
    await clearPrefix(db, 'p:1:');
    expect((await hit(db, 'p:1:a', 5, 60, at(2))).count).toBe(1);
    expect((await hit(db, 'p:10:a', 5, 60, at(2))).count).toBe(2);
    expect((await hit(db, 'p_1:x', 5, 60, at(2))).count).toBe(2);
  });
});

describe('addressKey', () => {
  it('counts IPv4 as it is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:0db8:0000:0001:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
