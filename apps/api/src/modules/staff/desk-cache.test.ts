import { sql } from 'drizzle-orm';
import type { StaffSearchAnswer } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { EventSignal } from '../../platform/event-signal';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { DESK_CACHE_TTL_MS, DeskCache } from './desk-cache';
import { seedStaffPersonas } from './staff.fixture';

/** A database whose notifications the test sends; its LISTEN is in place when `ready()` is called. */
function fakeSignal(): { signal: EventSignal; fire: () => void; ready: () => Promise<void> } {
  let onNotify: () => void = () => {};
  let listening: () => void = () => {};
  const inPlace = new Promise<void>((r) => (listening = r));
  const database = {
    listen: async (_channel: string, fn: () => void, onGap?: (listening: boolean) => void) => {
      onNotify = fn;
      await inPlace;
      onGap?.(true);
      return async () => {};
    },
  } as unknown as Database;
  const ready = async () => {
    listening();
    await settle();
  };
  return { signal: new EventSignal(database, 'test'), fire: () => onNotify(), ready };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the desk cache', () => {
  it('keeps a count until a notification, and never one read across it', async () => {
    const { signal, fire, ready } = fakeSignal();
    const cache = new DeskCache(signal, 100);
    await ready();
    let reads = 0;
    const count = async () => ++reads;
    expect(await cache.get('k', count)).toBe(1);
    expect(await cache.get('k', count)).toBe(1);
    fire();
    expect(await cache.get('k', count)).toBe(2);
    // A count under way when the change commits is answered, not kept.
    let release: () => void = () => {};
    const slow = cache.get('k2', () => new Promise<number>((r) => (release = () => r(++reads))));
    fire();
    release();
    expect(await slow).toBe(3);
    expect(await cache.get('k2', count)).toBe(4);
  });

  it('forgets after its time, and keeps nothing while not listening', async () => {
    let now = 1_000;
    const { signal, ready } = fakeSignal();
    const cache = new DeskCache(signal, 100, () => now);
    let reads = 0;
    const count = async () => ++reads;
    // Until the LISTEN is in place a change could go unheard: nothing is kept.
    expect(await cache.get('k', count)).toBe(1);
    expect(await cache.get('k', count)).toBe(2);
    await ready();
    expect(await cache.get('k', count)).toBe(3);
    expect(await cache.get('k', count)).toBe(3);
    now += DESK_CACHE_TTL_MS + 1;
    expect(await cache.get('k', count)).toBe(4);
    cache.clear();
    expect(await cache.get('k', count)).toBe(5);
  });
});

describe('the inbox counts against the database', () => {
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

  const openView = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/staff/portals/acme/tickets?view=open',
      headers: staff.agentA,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { counts: Record<string, number>; items: unknown[] };
  };

  it('keeps the search as one types as it keeps the pages, and reads it again once tickets change', async () => {
    const quick = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/staff/portals/acme/search?q=Giulia',
        headers: staff.agentA,
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as StaffSearchAnswer).contacts.map((c) => c.referentName);
    };
    expect(await quick()).toEqual(['ACME Giulia Blu']);
    const acme = sql`(select id from portals where key = 'acme')`;
    // A rename no notification covers: the kept answer stands (within DESK_CACHE_TTL_MS).
    await t.ctx.database.db.execute(
      sql`update contacts set referent_name = 'ACME Giulia Verde' where portal_id = ${acme} and ext_id = 201`,
    );
    expect(await quick()).toEqual(['ACME Giulia Blu']);
    // A ticket changed (the NOTIFY): the next answer is read again, with the new name.
    await t.ctx.database.db.execute(sql`update tickets set title = title || '.' where portal_id = ${acme}`);
    const started = Date.now();
    let names = await quick();
    while (names[0] !== 'ACME Giulia Verde' && Date.now() - started < DESK_CACHE_TTL_MS / 2) {
      await new Promise((r) => setTimeout(r, 20));
      names = await quick();
    }
    expect(names).toEqual(['ACME Giulia Verde']);
  });

  it('reads the page and counts again once tickets change outside this process (the NOTIFY), well before the time bound', async () => {
    const { counts: before, items } = await openView();
    expect(before.closed).toBeGreaterThan(0);
    expect(items.length).toBeGreaterThan(0);
    expect((await openView()).counts).toEqual(before);
    // Another process (any writer of the database, not a request of this app) closes every ticket.
    await t.ctx.database.db.execute(
      sql`update tickets set closed = true where portal_id = (select id from portals where key = 'acme')`,
    );
    const started = Date.now();
    let page = await openView();
    while (page.items.length !== 0 && Date.now() - started < DESK_CACHE_TTL_MS / 2) {
      await new Promise((r) => setTimeout(r, 20));
      page = await openView();
    }
    const now = page.counts;
    expect(page.items).toEqual([]);
    expect(now.open).toBe(0);
    expect(now.closed).toBe(before.closed! + before.open!);
  });
});
