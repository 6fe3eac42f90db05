/**
 * The desk's reports (issue 28 item 14) on a small set of tickets of their own type, each figure
 * worked out by hand (Europe/Rome, UTC+1 in March 2026): created, solved and the backlog per day and
 * week, first response and resolution median / p90 and the share met, ratings; filters, the group
 * breakdown, the admins-only agent figures, the bounds, CSV; and when a ticket was solved (0056).
 */
import { sql } from 'drizzle-orm';
import type { RatingsReport, TimesReport, VolumeReport } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { bucketStarts } from './reports.service';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

const TYPE = 77;

interface Seed {
  ext: number;
  created: string;
  /** The instant of a close through a step change; `arrived`: inserted closed (no known instant). */
  closed?: string | 'arrived';
  group?: number;
  agent?: number;
  priority?: number;
  responded?: string;
  responseDue?: string;
  resolutionDue?: string;
  rating?: [number, string];
}

const SEEDS: Seed[] = [
  {
    ext: 9001,
    created: '2026-03-02T09:00:00Z',
    group: 1,
    agent: 1,
    responded: '2026-03-02T09:30:00Z',
    responseDue: '2026-03-02T10:00:00Z',
    closed: '2026-03-03T09:00:00Z',
    resolutionDue: '2026-03-03T12:00:00Z',
    rating: [5, '2026-03-03T10:00:00Z'],
  },
  {
    ext: 9002,
    created: '2026-03-02T10:00:00Z',
    group: 1,
    priority: 2,
    responded: '2026-03-02T11:30:00Z',
    responseDue: '2026-03-02T11:00:00Z',
    closed: '2026-03-04T10:00:00Z',
    resolutionDue: '2026-03-03T10:00:00Z',
    rating: [2, '2026-03-04T12:00:00Z'],
  },
  { ext: 9003, created: '2026-03-03T08:00:00Z', group: 2, responded: '2026-03-03T09:00:00Z' },
  {
    ext: 9004,
    created: '2026-03-09T08:00:00Z',
    group: 2,
    responded: '2026-03-09T10:00:00Z',
    responseDue: '2026-03-09T12:00:00Z',
    closed: '2026-03-10T08:00:00Z',
    rating: [4, '2026-03-10T09:00:00Z'],
  },
  { ext: 9005, created: '2026-02-20T08:00:00Z', group: 1 },
  {
    ext: 9006,
    created: '2026-02-25T08:00:00Z',
    group: 1,
    responded: '2026-02-25T09:00:00Z',
    closed: '2026-03-05T08:00:00Z',
  },
  { ext: 9007, created: '2026-03-10T08:00:00Z', closed: 'arrived' },
  { ext: 9008, created: '2026-03-20T08:00:00Z', group: 2 },
  { ext: 9009, created: '2026-02-01T08:00:00Z', group: 2, closed: '2026-02-10T08:00:00Z' },
  { ext: 9010, created: '2026-03-12T08:00:00Z', group: 1, closed: '2026-03-20T08:00:00Z' },
];

const exec = (q: ReturnType<typeof sql>) => queryRows(t.ctx.database.db, q);

async function seedReportTickets(): Promise<void> {
  await exec(sql`insert into ticket_types (portal_id, ext_id, name, color)
    select id, ${TYPE}, 'Report type', '#000000' from portals where key = 'acme'`);
  await exec(sql`insert into assignee_groups (portal_id, ext_id, name)
    select id, 2, 'Second line' from portals where key = 'acme'`);
  for (const s of SEEDS) {
    const step = s.closed === 'arrived' ? 3 : 1;
    await exec(sql`insert into tickets (portal_id, company_id, ext_id, title, created_on, type_id, status_step_id,
        assigned_group_id, assigned_user_id, priority, first_responded_at, first_response_due_at, resolution_due_at)
      select p.id, (select c.id from companies c where c.portal_id = p.id order by c.ext_id limit 1), ${s.ext}::bigint,
        'Report ' || ${s.ext}::text, ${s.created}::timestamptz,
        (select x.id from ticket_types x where x.portal_id = p.id and x.ext_id = ${TYPE}),
        (select x.id from status_steps x where x.portal_id = p.id and x.ext_id = ${step}),
        (select x.id from assignee_groups x where x.portal_id = p.id and x.ext_id = ${s.group ?? -1}::bigint),
        (select x.id from agents x where x.portal_id = p.id and x.ext_id = ${s.agent ?? -1}::bigint),
        ${s.priority ?? 1}::smallint, ${s.responded ?? null}::timestamptz, ${s.responseDue ?? null}::timestamptz,
        ${s.resolutionDue ?? null}::timestamptz
      from portals p where p.key = 'acme'`);
    if (s.closed && s.closed !== 'arrived') {
      const closedAt = s.closed;
      // A close as the desk makes it: a step change with the actor's instant (ticket-changes.ts).
      await t.ctx.database.db.transaction(async (tx) => {
        await queryRows(
          tx,
          sql`select set_config('sportello.actor', json_build_object('kind', 'system', 'at', ${closedAt}::text)::text, true)`,
        );
        await queryRows(
          tx,
          sql`update tickets set status_step_id = (select x.id from status_steps x
              where x.portal_id = tickets.portal_id and x.ext_id = 3)
            where ext_id = ${s.ext}::bigint and portal_id = (select id from portals where key = 'acme')`,
        );
      });
    }
    if (s.rating) {
      const [rating, at] = s.rating;
      await exec(sql`insert into ticket_ratings (ticket_id, portal_id, rating, created_at, updated_at)
        select t.id, t.portal_id, ${rating}::smallint, ${at}::timestamptz, ${at}::timestamptz
        from tickets t join portals p on p.id = t.portal_id where p.key = 'acme' and t.ext_id = ${s.ext}::bigint`);
    }
  }
}

beforeAll(async () => {
  t = await createTestApp();
  await seedPersonas(t);
  staff = await seedStaffPersonas(t);
  await seedReportTickets();
});
afterAll(async () => {
  await t?.close();
});

type Who = keyof typeof staff;
const get = (who: Who, path: string) =>
  t.app.inject({ method: 'GET', url: `/api/staff/portals/acme/reports/${path}`, headers: staff[who] });
const range = `from=2026-03-02&to=2026-03-15&type=${TYPE}`;
async function json<T>(who: Who, path: string): Promise<T> {
  const res = await get(who, path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}

describe('buckets', () => {
  it('are days, or ISO weeks cut at the ends of the range', () => {
    expect(bucketStarts('2026-03-02', '2026-03-04', 'day')).toEqual([
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
    ]);
    expect(bucketStarts('2026-03-04', '2026-03-17', 'week')).toEqual([
      '2026-03-04',
      '2026-03-09',
      '2026-03-16',
    ]);
  });
});

describe('created, solved and backlog', () => {
  it('counts per day in the portal zone, with the backlog at the end of each', async () => {
    const r = await json<VolumeReport>('agentA', `volume?${range}`);
    expect(r.range).toEqual({
      from: '2026-03-02',
      to: '2026-03-15',
      granularity: 'day',
      timeZone: 'Europe/Rome',
    });
    expect(r.buckets).toHaveLength(14);
    const row = (start: string) => r.buckets.find((b) => b.start === start);
    expect(row('2026-03-02')).toEqual({ start: '2026-03-02', created: 2, solved: 0, backlog: 4 });
    expect(row('2026-03-03')).toEqual({ start: '2026-03-03', created: 1, solved: 1, backlog: 4 });
    expect(row('2026-03-04')).toEqual({ start: '2026-03-04', created: 0, solved: 1, backlog: 3 });
    expect(row('2026-03-05')).toEqual({ start: '2026-03-05', created: 0, solved: 1, backlog: 2 });
    expect(row('2026-03-08')).toEqual({ start: '2026-03-08', created: 0, solved: 0, backlog: 2 });
    expect(row('2026-03-09')).toEqual({ start: '2026-03-09', created: 1, solved: 0, backlog: 3 });
    // 9007 arrived closed: solved at its newest activity, its creation.
    expect(row('2026-03-10')).toEqual({ start: '2026-03-10', created: 1, solved: 2, backlog: 2 });
    expect(row('2026-03-12')).toEqual({ start: '2026-03-12', created: 1, solved: 0, backlog: 3 });
    expect(row('2026-03-15')).toEqual({ start: '2026-03-15', created: 0, solved: 0, backlog: 3 });
    expect(r.totals).toEqual({ created: 6, solved: 5, backlogAtStart: 2, backlogAtEnd: 3 });
    expect(r.breakdown).toBeNull();
  });

  it('per week, filtered by priority, broken down by group', async () => {
    const w = await json<VolumeReport>('agentA', `volume?${range}&granularity=week&breakdown=group`);
    expect(w.buckets).toEqual([
      { start: '2026-03-02', created: 3, solved: 3, backlog: 2 },
      { start: '2026-03-09', created: 3, solved: 2, backlog: 3 },
    ]);
    expect(w.breakdown).toEqual({
      by: 'group',
      more: false,
      rows: [
        { key: { id: 1, name: 'ACME Helpdesk' }, created: 3, solved: 3, backlog: 2 },
        { key: { id: 2, name: 'Second line' }, created: 2, solved: 1, backlog: 1 },
        { key: { id: null, name: '' }, created: 1, solved: 1, backlog: 0 },
      ],
    });
    const high = await json<VolumeReport>('agentA', `volume?${range}&granularity=week&priority=high`);
    expect(high.totals).toEqual({ created: 1, solved: 1, backlogAtStart: 0, backlogAtEnd: 0 });
    const g2 = await json<VolumeReport>('agentA', `volume?${range}&group=2`);
    expect(g2.totals).toEqual({ created: 2, solved: 1, backlogAtStart: 0, backlogAtEnd: 1 });
  });
});

describe('first response and resolution times', () => {
  it('median, p90 and the share met, over the range and per week', async () => {
    const r = await json<TimesReport>('agentA', `times?${range}&granularity=week`);
    expect(r.totals).toEqual({
      firstResponse: { count: 4, median: 75, p90: 111, withTarget: 3, met: 2 },
      resolution: { count: 5, median: 1440, p90: 8064, withTarget: 2, met: 1 },
    });
    expect(r.buckets).toEqual([
      {
        start: '2026-03-02',
        firstResponse: { count: 3, median: 60, p90: 84, withTarget: 2, met: 1 },
        resolution: { count: 3, median: 2880, p90: 9792, withTarget: 2, met: 1 },
      },
      {
        start: '2026-03-09',
        firstResponse: { count: 1, median: 120, p90: 120, withTarget: 1, met: 1 },
        resolution: { count: 2, median: 720, p90: 1296, withTarget: 0, met: 0 },
      },
    ]);
    expect(r.targets.enabled).toBe(false);
    expect(r.targets.normal).toEqual({ firstResponse: 480, resolution: 1440 });
  });

  it('broken down by group', async () => {
    const r = await json<TimesReport>('agentA', `times?${range}&breakdown=group`);
    expect(r.breakdown?.rows.map((x) => [x.key.id, x.firstResponse.count, x.resolution.median])).toEqual([
      [1, 2, 2880],
      [2, 2, 1440],
      [null, 0, 0],
    ]);
  });
});

describe('ratings', () => {
  it('average, count and low ones, by the day they were given', async () => {
    const r = await json<RatingsReport>('agentA', `ratings?${range}&granularity=week`);
    expect(r.lowThreshold).toBe(2);
    expect(r.totals).toEqual({ count: 3, average: 3.67, low: 1 });
    expect(r.buckets).toEqual([
      { start: '2026-03-02', count: 2, average: 3.5, low: 1 },
      { start: '2026-03-09', count: 1, average: 4, low: 0 },
    ]);
    const g = await json<RatingsReport>('agentA', `ratings?${range}&breakdown=group`);
    expect(g.breakdown?.rows).toEqual([
      { key: { id: 1, name: 'ACME Helpdesk' }, count: 2, average: 3.5, low: 1 },
      { key: { id: 2, name: 'Second line' }, count: 1, average: 4, low: 0 },
    ]);
  });
});

describe('who sees what, and the bounds', () => {
  it("gives the agents' figures to admins only", async () => {
    expect((await get('agentA', `volume?${range}&breakdown=agent`)).json()).toMatchObject({
      code: 'admin_required',
    });
    expect((await get('agentA', `volume?${range}&agent=1`)).statusCode).toBe(403);
    const mine = await json<VolumeReport>('adminA', `volume?${range}&agent=1`);
    expect(mine.totals).toMatchObject({ created: 1, solved: 1 });
    const per = await json<VolumeReport>('adminA', `volume?${range}&breakdown=agent`);
    expect(per.breakdown?.rows[0]).toEqual({
      key: { id: null, name: '' },
      created: 5,
      solved: 4,
      backlog: 3,
    });
    expect(per.breakdown?.rows[1]).toEqual({
      key: { id: 1, name: 'ACME Agent Luca' },
      created: 1,
      solved: 1,
      backlog: 0,
    });
    expect((await get('agentB', `volume?${range}`)).statusCode).toBe(403);
  });

  it('refuses a range over 366 days, reversed, or not real days', async () => {
    for (const q of [
      'from=2025-01-01&to=2026-01-02',
      'from=2026-03-05&to=2026-03-01',
      'from=2026-02-30&to=2026-03-01',
      'from=2026-03-01',
      'from=2026-03-01&to=2026-03-02&granularity=month',
      'from=2026-03-01&to=2026-03-02&priority=extreme',
    ]) {
      const res = await get('adminA', `times?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json<{ code: string }>().code).toMatch(/^(validation_error|invalid_date)$/);
    }
    expect((await get('adminA', 'ratings?from=2025-01-01&to=2025-12-31')).statusCode).toBe(200);
  });
});

describe('CSV', () => {
  it('has the buckets, or the breakdown when one is asked', async () => {
    const res = await get('agentA', `volume.csv?${range}&granularity=week`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="volume-acme-2026-03-02-2026-03-15.csv"',
    );
    expect(res.body).toBe(
      '\ufeffbucket_start,created,solved,open_at_end\r\n2026-03-02,3,3,2\r\n2026-03-09,3,2,3\r\n',
    );
    const times = await get('agentA', `times.csv?${range}&granularity=week`);
    expect(times.body.split('\r\n')[1]).toBe('2026-03-02,3,60,84,2,1,3,2880,9792,2,1');
    const ratings = await get('agentA', `ratings.csv?${range}&breakdown=group`);
    expect(ratings.body).toBe(
      '\ufeffgroup_id,group,ratings,average,low\r\n1,ACME Helpdesk,2,3.5,1\r\n2,Second line,1,4,0\r\n',
    );
    expect((await get('agentA', `ratings.csv?${range}&breakdown=agent`)).statusCode).toBe(403);
  });
});

describe('when a ticket was solved (0056)', () => {
  it('is the close through the desk at its instant, cleared by a reopen', async () => {
    const closedAt = async () =>
      (
        await exec(sql`select closed_at from tickets t join portals p on p.id = t.portal_id
          where p.key = 'acme' and t.ext_id = 5003`)
      )[0] as { closed_at: string | Date | null };
    const patch = (stepId: number) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/staff/portals/acme/tickets/5003',
        headers: staff.adminA,
        payload: { stepId },
      });
    t.clock.advance(90_000);
    const now = t.clock.now().toISOString();
    expect((await patch(3)).statusCode).toBe(200);
    const at = (await closedAt()).closed_at;
    expect(at === null ? null : new Date(at).toISOString()).toBe(now);
    expect((await patch(1)).statusCode).toBe(200);
    expect((await closedAt()).closed_at).toBeNull();
  });
});
