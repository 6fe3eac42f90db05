/**
 * The inbox's bulk action (issue 28 item 7): one change of many tickets, each in its own transaction
 * with its own event; a ticket that changed meanwhile or is not the portal's is reported, not changed,
 * and the others are done.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { seedStaffPersonas } from './staff.fixture';

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

const desk = '/api/staff/portals/acme';
type Item = {
  id: number;
  lastActivityAt: string;
  priority: string;
  closed: boolean;
  tags: { name: string }[];
};
const get = async <T>(url: string) =>
  (await t.app.inject({ method: 'GET', url, headers: staff.agentA })).json() as T;
const bulk = (payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `${desk}/tickets/bulk`,
    headers: staff.agentA,
    payload: payload as object,
  });
const rows = async <T>(s: ReturnType<typeof sql>) =>
  ((await t.ctx.database.db.execute(s)) as unknown as { rows: T[] }).rows;
const lastEvent = async () =>
  Number((await rows<{ id: string | null }>(sql`select max(id)::text as id from events`))[0]?.id ?? 0);

describe('bulk actions', () => {
  it('change each ticket on its own: one event each, and say which failed and why', async () => {
    const open = (await get<{ items: Item[] }>(`${desk}/tickets?view=open&limit=100`)).items;
    const [a, b, c] = open;
    // Another agent answers on b after our list was read: b changed meanwhile.
    await t.app.inject({
      method: 'POST',
      url: `${desk}/tickets/${b!.id}/comments`,
      headers: staff.adminA,
      payload: { message: 'Intanto rispondo io', internal: false },
    });
    const since = await lastEvent();
    const res = await bulk({
      tickets: [
        { id: a!.id, seen: a!.lastActivityAt },
        { id: b!.id, seen: b!.lastActivityAt },
        { id: c!.id, seen: c!.lastActivityAt },
        { id: 987654 },
      ],
      change: { priority: 'high', addTags: ['Massivo'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      done: 2,
      failed: 2,
      results: [
        { id: a!.id, ok: true },
        { id: b!.id, ok: false, code: 'changed_meanwhile', message: expect.any(String) },
        { id: c!.id, ok: true },
        { id: 987654, ok: false, code: 'ticket_not_found', message: expect.any(String) },
      ],
    });
    const after = (await get<{ items: Item[] }>(`${desk}/tickets?view=open&limit=100`)).items;
    const byId = new Map(after.map((i) => [i.id, i]));
    expect(byId.get(a!.id)).toMatchObject({ priority: 'high', tags: [{ name: 'Massivo' }] });
    expect(byId.get(c!.id)).toMatchObject({ priority: 'high', tags: [{ name: 'Massivo' }] });
    expect(byId.get(b!.id)?.priority).toBe(b!.priority);
    const events = await rows<{ type: string; ticket: string }>(
      sql`select type, data->'ticket'->>'id' as ticket from events where id > ${since} order by id`,
    );
    expect(events).toEqual([
      { type: 'ticket.updated', ticket: String(a!.id) },
      { type: 'ticket.updated', ticket: String(c!.id) },
    ]);

    // Close and remove the tag: each closed ticket is its own ticket.closed.
    const closeSince = await lastEvent();
    const closed = await bulk({
      tickets: [{ id: a!.id }, { id: c!.id }],
      change: { close: true, removeTags: ['massivo'] },
    });
    expect(closed.json()).toMatchObject({ done: 2, failed: 0 });
    const closedEvents = await rows<{ type: string }>(
      sql`select type from events where id > ${closeSince} order by id`,
    );
    expect(closedEvents.map((e) => e.type)).toEqual(['ticket.closed', 'ticket.closed']);
    const ticket = await get<Item>(`${desk}/tickets/${a!.id}`);
    expect(ticket).toMatchObject({ closed: true, tags: [] });
  });

  it('refuses an empty change, an unknown agent per ticket, and more than a page of tickets', async () => {
    expect((await bulk({ tickets: [{ id: 5001 }], change: {} })).json().code).toBe('nothing_to_change');
    const bad = await bulk({ tickets: [{ id: 5001 }], change: { assigneeId: 424242 } });
    expect(bad.json()).toMatchObject({ done: 0, failed: 1, results: [{ code: 'unknown_reference' }] });
    const many = await bulk({
      tickets: Array.from({ length: 101 }, (_, i) => ({ id: i + 1 })),
      change: { priority: 'low' },
    });
    expect(many.statusCode).toBe(400);
  });
});
