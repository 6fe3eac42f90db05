/**
 * The reports' daily rollup (0060) against the tickets themselves: over randomized tickets of portal
 * acme around Europe/Rome's change to summer time (2026-03-29), every report that the rollup answers
 * must equal, field for field, the one read from the tickets (REPORTS_ROLLUP=off) — after the first
 * writes (several tickets per statement), after tickets move between groups, agents, companies, types
 * and priorities, reopen, close, lose or change their ratings or are deleted, and across a change of
 * the portal's time zone. And the rows the triggers kept must be the rows a rebuild computes.
 * On PGlite, or on the PostgreSQL of TEST_DATABASE_URL.
 */
import { sql } from 'drizzle-orm';
import { addDays, wallToInstant } from '@sportello/contracts/time-zone';
import type { DeskReportQueryRead, ReportBreakdown } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../platform/context';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { timeRows, type TimeRow } from './reports.queries';
import { percentileCont, percentilesOf, rollupSlices, timeRowsRollup } from './reports.rollup';
import { bucketStarts, ratingsReport, timesReport, volumeReport } from './reports.service';
import type { StaffPortalAccess } from './staff.access';

let t: TestApp;
let portalId = 0;
const SEED = Number(process.env.REPORTS_SEED ?? 20261129);

/** mulberry32: the same tickets on every run of a seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = prng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const chance = (p: number) => rnd() < p;

const exec = <T = Record<string, unknown>>(q: ReturnType<typeof sql>) => queryRows<T>(t.ctx.database.db, q);

interface Keys {
  groups: number[];
  agents: number[];
  companies: number[];
  types: number[];
  openSteps: number[];
  closedSteps: number[];
}
let keys: Keys;
const ids = async (q: ReturnType<typeof sql>) => (await exec<{ id: number }>(q)).map((r) => Number(r.id));

/** An instant between 2026-03-20 and 2026-04-08 (UTC), often just before or after a local midnight. */
function instant(): Date {
  const day = Date.UTC(2026, 2, 20) + Math.floor(rnd() * 20) * 86_400_000;
  const nearMidnight = chance(0.3) ? 21 * 60 + Math.floor(rnd() * 240) : Math.floor(rnd() * 1440);
  return new Date(day + nearMidnight * 60_000 + Math.floor(rnd() * 60_000));
}
const later = (d: Date, maxMinutes: number) =>
  new Date(d.getTime() + Math.floor(rnd() * maxMinutes * 60_000));
const maybe = <T>(p: number, v: () => T): T | null => (chance(p) ? v() : null);

async function insertTickets(n: number, fromExt: number): Promise<void> {
  const rows = Array.from({ length: n }, (_, i) => {
    const created = instant();
    const closedArrived = chance(0.1);
    return {
      ext: fromExt + i,
      created: created.toISOString(),
      step: closedArrived ? pick(keys.closedSteps) : pick(keys.openSteps),
      group: maybe(0.8, () => pick(keys.groups)),
      agent: maybe(0.7, () => pick(keys.agents)),
      company: pick(keys.companies),
      type: pick(keys.types),
      priority: Math.floor(rnd() * 4),
      responded: maybe(0.7, () => later(created, 3000).toISOString()),
      responseDue: maybe(0.6, () => later(created, 900).toISOString()),
      resolutionDue: maybe(0.6, () => later(created, 6000).toISOString()),
      activity: later(created, 8000).toISOString(),
    };
  });
  // One statement for all of them: the triggers see several rows at once.
  await exec(sql`insert into tickets (portal_id, company_id, ext_id, title, created_on, type_id, status_step_id,
      assigned_group_id, assigned_user_id, priority, first_responded_at, first_response_due_at, resolution_due_at)
    select ${portalId}::int, r.company, r.ext, 'Rollup ' || r.ext, r.created, r.type, r.step, r."group", r.agent,
      r.priority, r.responded, r."responseDue", r."resolutionDue"
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(ext bigint, created timestamptz, step int,
      "group" int, agent int, company int, type int, priority smallint, responded timestamptz,
      "responseDue" timestamptz, "resolutionDue" timestamptz, activity timestamptz)`);
  // Tickets that arrived closed are solved at their newest activity.
  await exec(sql`update tickets t set last_activity_at = r.activity
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(ext bigint, activity timestamptz)
    where t.portal_id = ${portalId}::int and t.ext_id = r.ext and t.closed`);
}

/** Closes (or reopens) tickets the way the desk does: a step change, at the actor's instant. */
async function moveSteps(exts: number[], closing: boolean, at: Date): Promise<void> {
  if (exts.length === 0) return;
  await t.ctx.database.db.transaction(async (tx) => {
    await queryRows(
      tx,
      sql`select set_config('sportello.actor', json_build_object('kind', 'system', 'at', ${at.toISOString()}::text)::text, true)`,
    );
    await queryRows(
      tx,
      sql`update tickets set status_step_id = ${closing ? pick(keys.closedSteps) : pick(keys.openSteps)}::int
        where portal_id = ${portalId}::int and ext_id = any(${sql.param(exts)}::bigint[])`,
    );
  });
}

async function allTickets(): Promise<{ id: number; ext: number; closed: boolean; created: string }[]> {
  const rows = await exec<{ id: number; ext: number | string; closed: boolean; created: string }>(
    sql`select id, ext_id as ext, closed, created_on::text as created from tickets
      where portal_id = ${portalId}::int and ext_id >= 70000 order by ext_id`,
  );
  return rows.map((r) => ({ id: Number(r.id), ext: Number(r.ext), closed: r.closed, created: r.created }));
}

async function rate(tickets: { id: number; created: string }[]): Promise<void> {
  const rows = tickets.map((x) => ({
    id: x.id,
    rating: 1 + Math.floor(rnd() * 5),
    at: later(new Date(x.created), 10_000).toISOString(),
  }));
  await exec(sql`insert into ticket_ratings (ticket_id, portal_id, rating, created_at, updated_at)
    select r.id, ${portalId}::int, r.rating, r.at, r.at
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(id int, rating smallint, at timestamptz)
    on conflict (ticket_id) do update set rating = excluded.rating, updated_at = excluded.updated_at`);
}

// --- the comparison

const access = async (): Promise<StaffPortalAccess> => {
  const [p] = await exec<{ tz: string }>(
    sql`select time_zone as tz from portals where id = ${portalId}::int`,
  );
  return { portal: { portalId, role: 'admin', timeZone: p!.tz } } as unknown as StaffPortalAccess;
};

function rawCtx(): AppContext {
  return { ...t.ctx, config: { ...t.ctx.config, REPORTS_ROLLUP: 'off' } } as AppContext;
}

async function extOf(table: string, id: number): Promise<number> {
  const [r] = await exec<{ ext: number | string }>(
    sql`select ext_id as ext from ${sql.raw(table)} where id = ${id}::int`,
  );
  return Number(r!.ext);
}

/** The queries the rollup answers: each filter alone, each breakdown alone or with its own filter. */
async function queries(): Promise<DeskReportQueryRead[]> {
  const ranges = [
    { from: '2026-03-22', to: '2026-04-05', granularity: 'day' as const },
    { from: '2026-03-01', to: '2026-04-30', granularity: 'week' as const },
    { from: '2026-03-29', to: '2026-03-29', granularity: 'day' as const },
    { from: '2026-03-25', to: '2026-04-02', granularity: 'week' as const },
  ];
  const group = await extOf('assignee_groups', pick(keys.groups));
  const agent = await extOf('agents', pick(keys.agents));
  const company = await extOf('companies', pick(keys.companies));
  const type = await extOf('ticket_types', pick(keys.types));
  const filters: Partial<DeskReportQueryRead>[] = [
    {},
    { group },
    { agent },
    { company },
    { type },
    { priority: 'high' },
    { group: 999_999 },
  ];
  const breakdowns: (ReportBreakdown | undefined)[] = [undefined, 'agent', 'group', 'company', 'type'];
  const out: DeskReportQueryRead[] = [];
  for (const r of ranges)
    for (const f of filters)
      for (const breakdown of breakdowns) {
        const q = { ...r, ...f, breakdown } as DeskReportQueryRead;
        const named = Object.keys(f).filter((k) => k !== 'priority' || f.priority);
        if (breakdown && named.length > 0 && named[0] !== breakdown) continue;
        out.push(q);
      }
  return out;
}

async function expectSameReports(): Promise<void> {
  const a = await access();
  const raw = rawCtx();
  const qs = await queries();
  let compared = 0;
  expect(t.ctx.config.REPORTS_ROLLUP).toBe('on');
  const wide = await timesReport(t.ctx, a, qs[0]!);
  expect(wide.totals.firstResponse.count).toBeGreaterThan(20);
  expect(wide.totals.resolution.count).toBeGreaterThan(20);
  for (const q of qs) {
    const filter = {
      portalId,
      groupExt: q.group,
      agentExt: q.agent,
      companyExt: q.company,
      typeExt: q.type,
      priority: q.priority === undefined ? undefined : 2,
    };
    expect(rollupSlices(filter, q.breakdown), JSON.stringify(q)).not.toBeNull();
    for (const report of [volumeReport, timesReport, ratingsReport]) {
      const fromRollup = await report(t.ctx, a, q);
      const fromTickets = await report(raw, a, q);
      expect(fromRollup, `${report.name} ${JSON.stringify(q)}`).toEqual(fromTickets);
      compared++;
    }
    // The durations' percentiles before the reports round them: the very float8 of percentile_cont.
    const slice = rollupSlices(filter, q.breakdown)!;
    const starts = bucketStarts(q.from, q.to, q.granularity);
    const bounds = [...starts, addDays(q.to, 1)].map((d) => wallToInstant(d, '00:00', a.portal.timeZone));
    const rolled = await timeRowsRollup(
      t.ctx.database.db,
      portalId,
      slice.keyed ?? slice.buckets,
      q.from,
      q.to,
      starts,
      slice.keyed !== null,
    );
    const order = (rows: TimeRow[]) =>
      [...rows].sort((x, y) => `${x.k}:${x.g}:${x.total}`.localeCompare(`${y.k}:${y.g}:${y.total}`));
    expect(order(rolled.buckets)).toEqual(
      order(await timeRows(t.ctx.database.db, filter, bounds[0]!, bounds[bounds.length - 1]!, { bounds })),
    );
    if (q.breakdown)
      expect(order(rolled.keyed)).toEqual(
        order(
          await timeRows(t.ctx.database.db, filter, bounds[0]!, bounds[bounds.length - 1]!, {
            key: q.breakdown,
          }),
        ),
      );
  }
  expect(compared).toBeGreaterThan(100);
}

/** The rows the triggers kept, as a rebuild of the portal computes them (the durations sorted). */
async function expectRollupAsRebuilt(): Promise<void> {
  const snapshot = () =>
    exec<{ row: string }>(sql`select concat_ws('|', dim, key, day, created, solved, resolution_with_target,
        resolution_met, resolution_minutes, responded, response_with_target, response_met, response_minutes,
        rated_1, rated_2, rated_3, rated_4, rated_5) as row
      from ticket_report_days where portal_id = ${portalId}::int
        and (created, solved, responded, rated_1 + rated_2 + rated_3 + rated_4 + rated_5) <> (0, 0, 0, 0)
      order by 1`);
  const kept = await snapshot();
  await exec(sql`select ticket_report_rebuild(${portalId}::int)`);
  expect(kept.map((r) => r.row)).toEqual((await snapshot()).map((r) => r.row));
}

beforeAll(async () => {
  t = await createTestApp();
  await seedPersonas(t);
  const [p] = await exec<{ id: number }>(sql`select id from portals where key = 'acme'`);
  portalId = Number(p!.id);
  await exec(sql`insert into assignee_groups (portal_id, ext_id, name)
    select ${portalId}::int, k, 'Rollup group ' || k from generate_series(71, 73) k`);
  await exec(sql`insert into agents (portal_id, ext_id, display_name, first_name, last_name, email)
    select ${portalId}::int, k, 'Rollup agent ' || k, 'Agent', 'No. ' || k, 'rollup' || k || '@example.com'
    from generate_series(71, 73) k`);
  keys = {
    groups: await ids(sql`select id from assignee_groups where portal_id = ${portalId}::int`),
    agents: await ids(sql`select id from agents where portal_id = ${portalId}::int`),
    companies: await ids(sql`select id from companies where portal_id = ${portalId}::int`),
    types: await ids(sql`select id from ticket_types where portal_id = ${portalId}::int`),
    openSteps: await ids(
      sql`select id from status_steps where portal_id = ${portalId}::int and task_status <> 2`,
    ),
    closedSteps: await ids(
      sql`select id from status_steps where portal_id = ${portalId}::int and task_status = 2`,
    ),
  };
  await exec(sql`update portals set time_zone = 'Europe/Rome' where id = ${portalId}::int`);
  await insertTickets(160, 70000);
  await insertTickets(1, 70160);
  const all = await allTickets();
  const open = all.filter((x) => !x.closed);
  for (let i = 0; i < open.length; i += 9) {
    const batch = open.slice(i, i + 1 + Math.floor(rnd() * 4)).map((x) => x.ext);
    await moveSteps(batch, true, later(new Date(open[i]!.created), 9000));
  }
  await rate((await allTickets()).filter((x) => x.closed && chance(0.6)));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the reports from the daily rollup (0060)', () => {
  it('are the reports from the tickets, around a change to summer time', async () => {
    await expectSameReports();
    await expectRollupAsRebuilt();
  }, 300_000);

  it('stay so while tickets move, reopen, close, are rated again or deleted', async () => {
    const all = await allTickets();
    const moved = all.filter(() => chance(0.4));
    const rows = moved.map((x) => ({
      id: x.id,
      group: maybe(0.8, () => pick(keys.groups)),
      agent: maybe(0.7, () => pick(keys.agents)),
      company: pick(keys.companies),
      type: pick(keys.types),
      priority: Math.floor(rnd() * 4),
      responded: maybe(0.5, () => later(new Date(x.created), 2000).toISOString()),
    }));
    await exec(sql`update tickets t set assigned_group_id = r."group", assigned_user_id = r.agent,
        company_id = r.company, type_id = r.type, priority = r.priority,
        first_responded_at = coalesce(t.first_responded_at, r.responded)
      from json_to_recordset(${JSON.stringify(rows)}::json) as r(id int, "group" int, agent int, company int,
        type int, priority smallint, responded timestamptz)
      where t.id = r.id`);
    const closed = all.filter((x) => x.closed);
    await moveSteps(
      closed.filter(() => chance(0.2)).map((x) => x.ext),
      false,
      new Date('2026-04-09T10:00:00Z'),
    );
    await moveSteps(
      all.filter((x) => !x.closed && chance(0.3)).map((x) => x.ext),
      true,
      new Date('2026-03-29T00:30:00Z'),
    );
    await rate(all.filter(() => chance(0.2)));
    await exec(sql`delete from ticket_ratings where portal_id = ${portalId}::int
      and ticket_id = any(${sql.param(all.filter(() => chance(0.1)).map((x) => x.id))}::int[])`);
    await exec(sql`delete from tickets
      where id = any(${sql.param(all.filter(() => chance(0.05)).map((x) => x.id))}::int[])`);
    await insertTickets(40, 70200);
    await expectSameReports();
    await expectRollupAsRebuilt();
  }, 300_000);

  it('follow a change of the portal time zone', async () => {
    await exec(sql`update portals set time_zone = 'America/New_York' where id = ${portalId}::int`);
    await expectSameReports();
    await exec(sql`update portals set time_zone = 'Europe/Rome' where id = ${portalId}::int`);
    await expectSameReports();
    await expectRollupAsRebuilt();
  }, 300_000);

  it('select the percentiles that sorting gives, duplicates and all', () => {
    for (let round = 0; round < 300; round++) {
      const n = 1 + Math.floor(rnd() * 400);
      const spread = chance(0.5) ? 5 : 100_000;
      const values = Float64Array.from(
        { length: n },
        () => Math.floor(rnd() * spread) / (chance(0.5) ? 7 : 1),
      );
      const sorted = Float64Array.from(values).sort();
      expect(percentilesOf(values, [0.5, 0.9])).toEqual([
        percentileCont(sorted, 0.5),
        percentileCont(sorted, 0.9),
      ]);
    }
    expect(percentilesOf(new Float64Array(0), [0.5, 0.9])).toEqual([null, null]);
  });

  it('leave two dimensions at once to the tickets', () => {
    expect(rollupSlices({ portalId: 1, groupExt: 1, agentExt: 2 }, undefined)).toBeNull();
    expect(rollupSlices({ portalId: 1, groupExt: 1 }, 'agent')).toBeNull();
    expect(rollupSlices({ portalId: 1, priority: 1 }, 'type')).toBeNull();
    expect(rollupSlices({ portalId: 1, typeExt: 1 }, 'type')).not.toBeNull();
  });
});
