/**
 * Triage on the desk (issue 28 item 4): a ticket's priority, due date and tags, set through the
 * desk's PATCH; the inbox filtered by each and sorted by last activity, creation, priority or due
 * date, every order keyset-paginated; the events a back office reads carry priority, due date and tags.
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
  priority: string;
  dueAt: string | null;
  tags: { id: number; name: string }[];
  lastActivityAt: string;
  createdOn: string;
};
type Inbox = { items: Item[]; nextCursor: string | null };

const patch = (id: number, body: unknown, who = staff.agentA) =>
  t.app.inject({ method: 'PATCH', url: `${desk}/tickets/${id}`, headers: who, payload: body as object });

async function inbox(query: string): Promise<Inbox> {
  const res = await t.app.inject({ method: 'GET', url: `${desk}/tickets?${query}`, headers: staff.agentA });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Inbox;
}

/** Every page of a query, one ticket a page: the keyset walks the whole order. */
async function walk(query: string): Promise<number[]> {
  const seen: number[] = [];
  let cursor: string | null = null;
  do {
    const page: Inbox = await inbox(`${query}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    seen.push(...page.items.map((i) => i.id));
    cursor = page.nextCursor;
  } while (cursor && seen.length < 100);
  return seen;
}

const rows = async <T>(s: ReturnType<typeof sql>) =>
  (await t.ctx.database.db.execute(s)) as unknown as { rows: T[] };

describe('priority, due date and tags', () => {
  let all: number[];

  beforeAll(async () => {
    all = (await inbox('view=open&limit=100')).items.map((i) => i.id);
    expect(all.length).toBeGreaterThanOrEqual(3);
  });

  it('are set by the desk, answered on the ticket and in the inbox', async () => {
    const [a, b] = all;
    const res = await patch(a!, {
      priority: 'urgent',
      dueAt: '2030-01-02T09:00:00Z',
      tags: ['Stampante', 'VIP', 'vip'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ priority: 'urgent', dueAt: '2030-01-02T09:00:00.000Z' });
    expect(res.json().tags.map((g: { name: string }) => g.name)).toEqual(['Stampante', 'VIP']);
    // The same names (any case) are the same tags: the portal's ticket tags stay two.
    const again = await patch(b!, { priority: 'low', tags: ['stampante'] });
    expect(again.json().tags.map((g: { name: string }) => g.name)).toEqual(['Stampante']);
    const options = (
      await t.app.inject({ method: 'GET', url: `${desk}/options`, headers: staff.agentA })
    ).json();
    expect(options.ticketTags.map((g: { name: string }) => g.name)).toEqual(['Stampante', 'VIP']);
    // Removing a tag, clearing the due date.
    const cleared = await patch(a!, { dueAt: null, tags: ['VIP'] });
    expect(cleared.json()).toMatchObject({ dueAt: null, tags: [{ name: 'VIP' }] });
    await patch(a!, { dueAt: '2030-01-02T09:00:00Z', tags: ['VIP', 'Stampante'] });
    const item = (await inbox('view=open&limit=100')).items.find((i) => i.id === a)!;
    expect(item).toMatchObject({ priority: 'urgent', dueAt: '2030-01-02T09:00:00.000Z' });
  });

  it('refuses what is not a priority, a date or a tag name', async () => {
    const [a] = all;
    for (const body of [
      { priority: 'critical' },
      { dueAt: 'tomorrow' },
      { tags: [''] },
      { tags: ['x'.repeat(61)] },
      { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
    ]) {
      const res = await patch(a!, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    const bad = await t.app.inject({
      method: 'GET',
      url: `${desk}/tickets?sort=random`,
      headers: staff.agentA,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('filter the inbox', async () => {
    const [a, b] = all;
    expect((await inbox('view=open&priority=urgent')).items.map((i) => i.id)).toEqual([a]);
    expect((await inbox('view=open&priority=low')).items.map((i) => i.id)).toEqual([b]);
    const tags = (await t.app.inject({ method: 'GET', url: `${desk}/options`, headers: staff.agentA })).json()
      .ticketTags as { id: number; name: string }[];
    const printer = tags.find((g) => g.name === 'Stampante')!.id;
    expect((await inbox(`view=open&tag=${printer}`)).items.map((i) => i.id).sort()).toEqual([a, b].sort());
    expect((await inbox('view=open&due=set')).items.map((i) => i.id)).toEqual([a]);
    expect((await inbox('view=open&due=none')).items.map((i) => i.id)).not.toContain(a);
    // Overdue: a due date in the past of an open ticket.
    await patch(b!, { dueAt: '2020-05-01T00:00:00Z' });
    expect((await inbox('view=open&due=overdue')).items.map((i) => i.id)).toEqual([b]);
  });

  it('sort the inbox in each order, every page after the last one’s key', async () => {
    for (const sort of ['activity', 'created', 'priority', 'due'] as const) {
      const full = (await inbox(`view=open&sort=${sort}&limit=100`)).items;
      const walked = await walk(`view=open&sort=${sort}`);
      expect(walked, sort).toEqual(full.map((i) => i.id));
      const sorted = [...full].sort((x, y) => {
        const by = (v: Item) =>
          sort === 'activity'
            ? [v.lastActivityAt, v.id]
            : sort === 'created'
              ? [v.createdOn, v.id]
              : sort === 'priority'
                ? [['low', 'normal', 'high', 'urgent'].indexOf(v.priority), v.lastActivityAt, v.id]
                : [v.dueAt ?? '9999', v.id];
        const [p, q] = [by(x), by(y)];
        for (let i = 0; i < p.length; i++) if (p[i] !== q[i]) return p[i]! < q[i]! ? -1 : 1;
        return 0;
      });
      expect(
        full.map((i) => i.id),
        sort,
      ).toEqual((sort === 'due' ? sorted : sorted.reverse()).map((i) => i.id));
    }
    // The urgent ticket first by priority, the overdue one first by due date.
    const [a, b] = all;
    expect((await inbox('view=open&sort=priority')).items[0]!.id).toBe(a);
    expect((await inbox('view=open&sort=due')).items[0]!.id).toBe(b);
    // A cursor of one order is refused in another.
    const page = await inbox('view=open&sort=priority&limit=1');
    const res = await t.app.inject({
      method: 'GET',
      url: `${desk}/tickets?view=open&sort=due&cursor=${page.nextCursor}`,
      headers: staff.agentA,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_cursor');
  });

  it('are in the ticket the events carry', async () => {
    const [a] = all;
    const before = Number(
      (await rows<{ id: string | null }>(sql`select max(id)::text as id from events`)).rows[0]?.id ?? 0,
    );
    const steps = (
      await t.app.inject({ method: 'GET', url: `${desk}/options`, headers: staff.agentA })
    ).json().steps as { id: number; isClosing: boolean }[];
    const closing = steps.find((s) => s.isClosing)!.id;
    expect((await patch(a!, { stepId: closing })).statusCode).toBe(200);
    const events = await rows<{ type: string; data: unknown }>(
      sql`select type, data from events where id > ${before} order by id`,
    );
    const closed = events.rows.find((e) => e.type === 'ticket.closed');
    const data = (typeof closed!.data === 'string' ? JSON.parse(closed!.data) : closed!.data) as {
      ticket: { priority: string; dueAt: string | null; tags: string[] };
    };
    expect(data.ticket).toMatchObject({
      priority: 'urgent',
      dueAt: '2030-01-02T09:00:00.000Z',
      tags: ['Stampante', 'VIP'],
    });
  });
});
