/**
 * Service levels per company (issue 28 item 13): an admin sets a company's own targets for some
 * priorities, the rest staying the portal's. The routes' roles, portals and bounds; the due times of
 * the company's tickets (its targets win where it has some, the portal's elsewhere) across the spring
 * DST change of Europe/Rome; a change recomputes that company's open tickets only, through the breach
 * sweep as a policy change does; a ticket moved to another company takes that company's clock; the
 * reports' rollup counts the first response against the ticket's own due time.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { SlaSweeper } from './sla-sweeper';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let personas: Awaited<ReturnType<typeof seedPersonas>>;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
let sweeper: SlaSweeper;

const day: [string, string][] = [
  ['09:00', '13:00'],
  ['14:00', '18:00'],
];
const policy = {
  enabled: true,
  hours: [[], day, day, day, day, day, []],
  holidays: [],
  targets: {
    low: { firstResponse: null, resolution: null },
    normal: { firstResponse: 120, resolution: 480 },
    high: { firstResponse: 60, resolution: 240 },
    urgent: { firstResponse: 30, resolution: 120 },
  },
};
/** Company 10's own: a faster first answer on normal tickets, and faster urgent ones. */
const gold = { normal: { firstResponse: 30 }, urgent: { firstResponse: 15, resolution: 180 } };

/** A company of portal beta only: acme's admins must not reach it by its id. */
const BETA_ONLY = 777;

beforeAll(async () => {
  t = await createTestApp();
  personas = await seedPersonas(t);
  staff = await seedStaffPersonas(t);
  sweeper = new SlaSweeper(t.ctx, t.app.log);
  await t.ctx.database.db.execute(
    sql`insert into companies (portal_id, ext_id, company_name)
      select id, ${BETA_ONLY}, 'BETA Sola' from portals where key = 'beta'`,
  );
  const put = await call('adminA', 'PUT', '/admin/sla', policy);
  expect(put.statusCode, put.body).toBe(200);
  // The policy's own recompute of the portal's open tickets, done before the companies' start.
  await sweep();
});
afterAll(async () => {
  await t?.close();
});

type Who = keyof typeof staff;
const call = (
  who: Who,
  method: 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST',
  path: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url: `/api/staff/portals/acme${path}`,
    headers: staff[who],
    ...(payload && { payload }),
  });
const companyUrl = (id: number | string) => `/admin/sla/companies/${id}`;
const db = () => t.ctx.database.db;

interface Clock {
  firstResponseDueAt: string | null;
  resolutionDueAt: string | null;
}
const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString());
async function clockOf(ext: number): Promise<Clock & { quiet: boolean }> {
  const [r] = await queryRows<{
    first_response_due_at: string | null;
    resolution_due_at: string | null;
    sla_breached: number;
  }>(
    db(),
    sql`select t.first_response_due_at::text, t.resolution_due_at::text, t.sla_breached
      from tickets t join portals p on p.id = t.portal_id where p.key = 'acme' and t.ext_id = ${ext}`,
  );
  return {
    firstResponseDueAt: iso(r!.first_response_due_at),
    resolutionDueAt: iso(r!.resolution_due_at),
    quiet: (Number(r!.sla_breached) & 16) !== 0,
  };
}
/** Every open ticket of an acme company marked for the sweep's quiet look. */
const quietOf = async (companyExt: number) =>
  (
    await queryRows<{ ext_id: string; quiet: boolean }>(
      db(),
      sql`select t.ext_id::text, t.sla_breached & 16 <> 0 as quiet from tickets t
        join companies c on c.id = t.company_id join portals p on p.id = c.portal_id
        where p.key = 'acme' and c.ext_id = ${companyExt} and not t.closed order by t.ext_id`,
    )
  ).map((r) => ({ id: Number(r.ext_id), quiet: r.quiet === true }));
/** The sweep's passes until the queued recomputes are done and every due look taken. */
async function sweep(): Promise<void> {
  for (let pass = 0; pass < 4; pass++) await sweeper.runOnce();
  const [left] = await queryRows<{ n: number }>(
    db(),
    sql`select count(*)::int as n from sla_company_recomputes`,
  );
  expect(Number(left!.n)).toBe(0);
}

async function openTicket(who: 'owner' | 'otherCompany', title: string): Promise<number> {
  const p = personas[who];
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/acme/${p.contactId}/tickets`,
    headers: p.headers,
    payload: { title, taskTypeId: 1, description: '<p>Non va</p>' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

describe('the targets of a company', () => {
  it('are set, listed and removed by admins only, in their own portal', async () => {
    expect((await call('agentA', 'GET', '/admin/sla/companies')).statusCode).toBe(403);
    expect((await call('agentA', 'PUT', companyUrl(20), { targets: gold })).statusCode).toBe(403);
    expect((await call('agentB', 'GET', '/admin/sla/companies')).statusCode).toBe(403);
    const empty = await call('adminA', 'GET', '/admin/sla/companies');
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({ items: [] });

    const put = await call('adminA', 'PUT', companyUrl(20), { targets: { high: { resolution: 90 } } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      company: { id: 20, name: 'ACME Globex Spa' },
      targets: { high: { resolution: 90 } },
    });
    const list = (await call('adminA', 'GET', '/admin/sla/companies')).json();
    expect(list.items).toEqual([put.json()]);
    // Acme's admin cannot name beta's own company, nor one that no portal has.
    for (const id of [BETA_ONLY, 999_999]) {
      const res = await call('adminA', 'PUT', companyUrl(id), { targets: gold });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', message: expect.any(String) });
      expect((await call('adminA', 'DELETE', companyUrl(id))).statusCode).toBe(404);
    }
    const removed = await call('adminA', 'DELETE', companyUrl(20));
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await call('adminA', 'DELETE', companyUrl(20))).statusCode).toBe(404);
    expect((await call('adminA', 'GET', '/admin/sla/companies')).json()).toEqual({ items: [] });
    await sweep();
  });

  it.each([
    ['no target', { targets: {} }],
    ['a priority with no target only', { targets: { urgent: {} } }],
    ['a negative target', { targets: { urgent: { firstResponse: -30 } } }],
    ['a target of 0', { targets: { urgent: { firstResponse: 0 } } }],
    ['a target over a year', { targets: { urgent: { resolution: 600_000 } } }],
    ['a huge number', { targets: { urgent: { resolution: 1e300 } } }],
    ['a fraction of a minute', { targets: { urgent: { resolution: 30.5 } } }],
    ['minutes as text', { targets: { urgent: { resolution: '30' } } }],
    ['a null target', { targets: { urgent: { resolution: null } } }],
    ['an unknown priority', { targets: { critical: { resolution: 30 } } }],
    ['an unknown target', { targets: { urgent: { reply: 30 } } }],
    ['a field beside the targets', { targets: gold, company: 20 }],
    ['a NUL byte in a key', { targets: { 'urgent\u0000': { resolution: 30 } } }],
  ])('refuses %s with a 400', async (_name, body) => {
    const res = await call('adminA', 'PUT', companyUrl(10), body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it.each([['-1'], ['1.5'], ['abc'], ['10%00'], ['99999999999999999999']])(
    'refuses the company id %s with a 400',
    async (id) => {
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await call(
          'adminA',
          method,
          companyUrl(id),
          method === 'PUT' ? { targets: gold } : undefined,
        );
        expect(res.statusCode, `${method} ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }
    },
  );
});

describe("the clock of a company's tickets", () => {
  let gilded = 0;
  let plain = 0;

  it('takes the company targets where it has some, the portal targets elsewhere', async () => {
    // Friday 27 March 2026, 17:00 in Rome (CET); the clocks go forward on Sunday.
    t.clock.set('2026-03-27T16:00:00Z');
    gilded = await openTicket('owner', 'Cliente Gold');
    plain = await openTicket('otherCompany', 'Cliente normale');
    const portal = {
      // Two business hours: Friday 17-18, Monday 9-10 CEST; eight: Friday 17-18, Monday 9-13, 14-17.
      firstResponseDueAt: '2026-03-30T08:00:00.000Z',
      resolutionDueAt: '2026-03-30T15:00:00.000Z',
      quiet: false,
    };
    expect(await clockOf(gilded)).toEqual(portal);
    expect(await clockOf(plain)).toEqual(portal);

    const put = await call('adminA', 'PUT', companyUrl(10), { targets: gold });
    expect(put.statusCode, put.body).toBe(200);
    // Keys in a fixed order, whatever order they came in.
    expect(put.json().targets).toEqual(gold);
    // The request only queued the recompute: the clocks stand until the sweep.
    expect(await clockOf(gilded)).toEqual(portal);
    // A new ticket of the company gets its targets at once.
    const fresh = await openTicket('owner', 'Cliente Gold, nuovo');
    expect(await clockOf(fresh)).toEqual({
      firstResponseDueAt: '2026-03-27T16:30:00.000Z',
      resolutionDueAt: '2026-03-30T15:00:00.000Z',
      quiet: false,
    });

    // The sweep's first step marks that company's open tickets for a look, and no other's.
    await sweeper.markForRecompute();
    expect((await quietOf(10)).every((r) => r.quiet)).toBe(true);
    expect((await quietOf(10)).map((r) => r.id)).toContain(gilded);
    expect((await quietOf(20)).some((r) => r.quiet)).toBe(false);
    await sweep();
    // Thirty minutes to the first answer (its own), the portal's eight hours to the resolution.
    expect(await clockOf(gilded)).toEqual({
      firstResponseDueAt: '2026-03-27T16:30:00.000Z',
      resolutionDueAt: '2026-03-30T15:00:00.000Z',
      quiet: false,
    });
    expect(await clockOf(plain)).toEqual(portal);
  });

  it('follows the priority within the company targets, across the DST change', async () => {
    const urgent = await call('agentA', 'PATCH', `/tickets/${gilded}`, { priority: 'urgent' });
    expect(urgent.statusCode, urgent.body).toBe(200);
    expect(await clockOf(gilded)).toMatchObject({
      firstResponseDueAt: '2026-03-27T16:15:00.000Z',
      // Three business hours: Friday 17-18, Monday 9-11 CEST.
      resolutionDueAt: '2026-03-30T09:00:00.000Z',
    });
    // High: the company has nothing of its own, the portal's one and four hours.
    await call('agentA', 'PATCH', `/tickets/${gilded}`, { priority: 'high' });
    expect(await clockOf(gilded)).toMatchObject({
      firstResponseDueAt: '2026-03-27T17:00:00.000Z',
      resolutionDueAt: '2026-03-30T10:00:00.000Z',
    });
    await call('agentA', 'PATCH', `/tickets/${gilded}`, { priority: 'urgent' });
  });

  it("takes the other company's clock when moved, and its own back", async () => {
    const move = (companyId: number, creatorContactId: number) =>
      call('adminA', 'PATCH', `/admin/tickets/${gilded}`, { companyId, creatorContactId });
    const moved = await move(20, 201);
    expect(moved.statusCode, moved.body).toBe(200);
    // The portal's urgent targets: thirty minutes, two hours (Friday 17-18, Monday 9-10 CEST).
    expect(await clockOf(gilded)).toMatchObject({
      firstResponseDueAt: '2026-03-27T16:30:00.000Z',
      resolutionDueAt: '2026-03-30T08:00:00.000Z',
    });
    const back = await move(10, 102);
    expect(back.statusCode, back.body).toBe(200);
    expect(await clockOf(gilded)).toMatchObject({
      firstResponseDueAt: '2026-03-27T16:15:00.000Z',
      resolutionDueAt: '2026-03-30T09:00:00.000Z',
    });
  });

  it("counts the first response in the reports against the ticket's own due time", async () => {
    const rollup = async () =>
      (
        await queryRows<{ with_target: number; met: number }>(
          db(),
          sql`select coalesce(sum(d.response_with_target), 0)::int as with_target,
              coalesce(sum(d.response_met), 0)::int as met
            from ticket_report_days d join companies c on c.id = d.key and d.dim = 3
            join portals p on p.id = c.portal_id where p.key = 'acme' and c.ext_id = 10`,
        )
      )[0]!;
    const before = await rollup();
    // 17:20 CET: within the portal's thirty minutes, past the company's fifteen.
    t.clock.set('2026-03-27T16:20:00Z');
    const reply = await call('agentA', 'POST', `/tickets/${gilded}/comments`, {
      message: '<p>Ci guardo</p>',
      internal: false,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const after = await rollup();
    expect(Number(after.with_target) - Number(before.with_target)).toBe(1);
    expect(Number(after.met) - Number(before.met)).toBe(0);
  });

  it('gives the portal targets back when removed, again in the background, and audits each change', async () => {
    // Another ticket of the company, still waiting for its first answer.
    expect(await clockOf(plain)).toMatchObject({ firstResponseDueAt: '2026-03-30T08:00:00.000Z' });
    const other = await openTicket('owner', 'Cliente Gold, altro');
    expect((await clockOf(other)).firstResponseDueAt).toBe('2026-03-27T16:50:00.000Z');
    const same = await call('adminA', 'PUT', companyUrl(10), {
      targets: { urgent: { resolution: 180, firstResponse: 15 }, normal: { firstResponse: 30 } },
    });
    expect(same.statusCode, same.body).toBe(200);
    // The same targets again: no change, nothing queued.
    const [queued] = await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from sla_company_recomputes`,
    );
    expect(Number(queued!.n)).toBe(0);

    expect((await call('adminA', 'DELETE', companyUrl(10))).statusCode).toBe(204);
    expect((await clockOf(other)).firstResponseDueAt).toBe('2026-03-27T16:50:00.000Z');
    await sweep();
    // Two business hours from 17:20 CET: Friday 17:20-18, Monday 9-10:20 CEST.
    expect((await clockOf(other)).firstResponseDueAt).toBe('2026-03-30T08:20:00.000Z');
    expect(await clockOf(plain)).toMatchObject({ firstResponseDueAt: '2026-03-30T08:00:00.000Z' });

    const audits = await queryRows<{ entity_id: string; action: string; before: unknown; after: unknown }>(
      db(),
      sql`select entity_id, action, before, after from audit_log where entity = 'sla_company' order by id`,
    );
    const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
    expect(audits.map((a) => [a.entity_id, a.action])).toEqual([
      ['20', 'created'],
      ['20', 'deleted'],
      ['10', 'created'],
      ['10', 'deleted'],
    ]);
    expect(json(audits[2]!.after)).toEqual(gold);
    expect(json(audits[3]!.before)).toEqual(gold);
  });
});
