/**
 * Service levels (issue 28 item 13): the policy's routes (bounds, roles, portals) and the clock every
 * writer keeps: due times on creation, the first answer, the wait for the customer, a priority change
 * and the close, in business time across the spring DST change of Europe/Rome.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let personas: Awaited<ReturnType<typeof seedPersonas>>;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

beforeAll(async () => {
  t = await createTestApp();
  personas = await seedPersonas(t);
  staff = await seedStaffPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

const policyUrl = (portal: string) => `/api/staff/portals/${portal}/admin/sla`;
type Who = keyof typeof staff;
const call = (who: Who, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: staff[who], ...(payload && { payload }) });
const rows = async <T>(s: ReturnType<typeof sql>) =>
  ((await t.ctx.database.db.execute(s)) as unknown as { rows: T[] }).rows;

const day: [string, string][] = [
  ['09:00', '13:00'],
  ['14:00', '18:00'],
];
const policy = {
  enabled: true,
  hours: [[], day, day, day, day, day, []],
  holidays: ['2026-04-06'],
  targets: {
    low: { firstResponse: null, resolution: null },
    normal: { firstResponse: 120, resolution: 480 },
    high: { firstResponse: 60, resolution: 240 },
    urgent: { firstResponse: 30, resolution: 120 },
  },
};

interface ClockRow {
  first_response_due_at: string | null;
  first_responded_at: string | null;
  resolution_due_at: string | null;
  sla_paused_minutes: number;
  sla_next_due_at: string | null;
  sla_soon_at: string | null;
}
const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());
async function clockOf(extId: number) {
  const [r] = await rows<ClockRow>(
    sql`select t.first_response_due_at, t.first_responded_at, t.resolution_due_at, t.sla_paused_minutes,
        t.sla_next_due_at, t.sla_soon_at
      from tickets t join portals p on p.id = t.portal_id where p.key = 'acme' and t.ext_id = ${extId}`,
  );
  return {
    firstResponseDueAt: iso(r!.first_response_due_at),
    firstRespondedAt: iso(r!.first_responded_at),
    resolutionDueAt: iso(r!.resolution_due_at),
    pausedMinutes: Number(r!.sla_paused_minutes),
    nextDueAt: iso(r!.sla_next_due_at),
    soonAt: iso(r!.sla_soon_at),
  };
}

describe('the SLA policy', () => {
  it('starts disabled with the default hours, in the portal time zone; agents read it', async () => {
    const res = await call('agentA', 'GET', policyUrl('acme'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      enabled: false,
      timeZone: 'Europe/Rome',
      updatedAt: null,
      holidays: [],
    });
    expect(res.json().hours).toHaveLength(7);
  });

  it('is replaced by admins only, in their own portal', async () => {
    expect((await call('agentA', 'PUT', policyUrl('acme'), policy)).statusCode).toBe(403);
    expect((await call('adminA', 'PUT', policyUrl('beta'), policy)).statusCode).toBe(403);
    expect((await call('agentB', 'GET', policyUrl('acme'))).statusCode).toBe(403);
    const res = await call('adminA', 'PUT', policyUrl('acme'), policy);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ...policy, timeZone: 'Europe/Rome' });
    expect(res.json().updatedAt).not.toBeNull();
    expect((await call('agentA', 'GET', policyUrl('acme'))).json()).toEqual(res.json());
    // Beta's stays its own.
    expect((await call('agentB', 'GET', policyUrl('beta'))).json().enabled).toBe(false);
  });

  it.each([
    ['six days', { hours: policy.hours.slice(1) }],
    ['an interval ending before it starts', { hours: [[], [['18:00', '09:00']], [], [], [], [], []] }],
    [
      'overlapping intervals',
      {
        hours: [
          [],
          [
            ['09:00', '13:00'],
            ['12:00', '18:00'],
          ],
          [],
          [],
          [],
          [],
          [],
        ],
      },
    ],
    ['a time of 25:00', { hours: [[], [['09:00', '25:00']], [], [], [], [], []] }],
    ['a day that does not exist', { holidays: ['2026-02-30'] }],
    ['a holiday twice', { holidays: ['2026-12-25', '2026-12-25'] }],
    [
      'too many holidays',
      { holidays: Array.from({ length: 201 }, (_, i) => `2026-01-01`.replace('01-01', `01-${i}`)) },
    ],
    ['a target of 0', { targets: { ...policy.targets, high: { firstResponse: 0, resolution: 60 } } }],
    [
      'a target over a year',
      { targets: { ...policy.targets, high: { firstResponse: 600_000, resolution: 60 } } },
    ],
    ['a missing priority', { targets: { normal: policy.targets.normal } }],
  ])('refuses %s with a 400', async (_name, change) => {
    const res = await call('adminA', 'PUT', policyUrl('acme'), { ...policy, ...change });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBeTypeOf('string');
  });
});

describe('the clock of a ticket', () => {
  let ticket = 0;

  it('gets its due times on creation, in business time across the DST change', async () => {
    // Friday 27 March 2026, 17:00 in Rome (CET); the clocks go forward on Sunday.
    t.clock.set('2026-03-27T16:00:00Z');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/acme/${personas.owner.contactId}/tickets`,
      headers: personas.owner.headers,
      payload: { title: 'Server giù', taskTypeId: 1, description: '<p>Non parte</p>' },
    });
    expect(res.statusCode, res.body).toBe(201);
    ticket = res.json().id;
    expect(await clockOf(ticket)).toEqual({
      // Two business hours: Friday 17-18, Monday 9-10 CEST.
      firstResponseDueAt: '2026-03-30T08:00:00.000Z',
      firstRespondedAt: null,
      // Eight: Friday 17-18, Monday 9-13 and 14-17.
      resolutionDueAt: '2026-03-30T15:00:00.000Z',
      pausedMinutes: 0,
      nextDueAt: '2026-03-30T08:00:00.000Z',
      // Soon with one business hour left: from Friday's closing, the weekend included.
      soonAt: '2026-03-27T17:00:00.000Z',
    });
  });

  it('shows the clock in the inbox and the ticket, and in "Breaching soon" once under an hour is left', async () => {
    t.clock.set('2026-03-27T16:30:00Z');
    const before = await call('agentA', 'GET', '/api/staff/portals/acme/tickets?view=breaching');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().items.map((i: { id: number }) => i.id)).not.toContain(ticket);
    const open = (await call('agentA', 'GET', '/api/staff/portals/acme/tickets?view=open')).json();
    expect(open.items.find((i: { id: number }) => i.id === ticket).sla).toEqual({
      firstResponseDueAt: '2026-03-30T08:00:00.000Z',
      firstRespondedAt: null,
      resolutionDueAt: '2026-03-30T15:00:00.000Z',
      nextDueAt: '2026-03-30T08:00:00.000Z',
      soonAt: '2026-03-27T17:00:00.000Z',
      paused: false,
    });
    // After Friday's closing (another agent: the counts are kept per agent for a few seconds).
    t.clock.set('2026-03-27T17:30:00Z');
    const after = (await call('adminA', 'GET', '/api/staff/portals/acme/tickets?view=breaching')).json();
    expect(after.items.map((i: { id: number }) => i.id)).toContain(ticket);
    expect(after.counts.breaching).toBeGreaterThanOrEqual(1);
    const detail = (await call('adminA', 'GET', `/api/staff/portals/acme/tickets/${ticket}`)).json();
    expect(detail.sla).toMatchObject({ nextDueAt: '2026-03-30T08:00:00.000Z', paused: false });
  });

  it('meets the first response with a public answer of staff, not with a note, and pauses', async () => {
    t.clock.set('2026-03-30T07:20:00Z');
    const note = await call('agentA', 'POST', `/api/staff/portals/acme/tickets/${ticket}/comments`, {
      message: '<p>Guardo io</p>',
      internal: true,
    });
    expect(note.statusCode, note.body).toBe(201);
    expect((await clockOf(ticket)).firstRespondedAt).toBeNull();
    t.clock.set('2026-03-30T07:30:00Z');
    const reply = await call('agentA', 'POST', `/api/staff/portals/acme/tickets/${ticket}/comments`, {
      message: '<p>Può riavviare?</p>',
      internal: false,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const detail = (await call('agentA', 'GET', `/api/staff/portals/acme/tickets/${ticket}`)).json();
    expect(detail.sla.paused).toBe(true);
    expect(await clockOf(ticket)).toMatchObject({
      firstRespondedAt: '2026-03-30T07:30:00.000Z',
      resolutionDueAt: '2026-03-30T15:00:00.000Z',
      nextDueAt: '2026-03-30T15:00:00.000Z',
      // A quarter of eight hours (two) before the due time: 15:00 CEST.
      soonAt: '2026-03-30T13:00:00.000Z',
    });
  });

  it('moves the resolution by the business minutes the ticket waited for the customer', async () => {
    // The customer answers at 11:30 CEST: two business hours of waiting.
    t.clock.set('2026-03-30T09:30:00Z');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/acme/${personas.owner.contactId}/comments`,
      headers: personas.owner.headers,
      payload: { taskId: ticket, message: '<p>Fatto, non va</p>' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await clockOf(ticket)).toMatchObject({
      pausedMinutes: 120,
      // Monday 17:00 plus two business hours: Tuesday 10:00 CEST.
      resolutionDueAt: '2026-03-31T08:00:00.000Z',
      nextDueAt: '2026-03-31T08:00:00.000Z',
    });
  });

  it('follows the priority, and stops when closed', async () => {
    const urgent = await call('agentA', 'PATCH', `/api/staff/portals/acme/tickets/${ticket}`, {
      priority: 'urgent',
    });
    expect(urgent.statusCode, urgent.body).toBe(200);
    expect(await clockOf(ticket)).toMatchObject({
      firstResponseDueAt: '2026-03-27T16:30:00.000Z',
      // Two business hours plus the two of waiting: Friday 17-18, Monday 9-9:30, 11:30-12:00.
      resolutionDueAt: '2026-03-30T10:00:00.000Z',
    });
    const low = await call('agentA', 'PATCH', `/api/staff/portals/acme/tickets/${ticket}`, {
      priority: 'low',
    });
    expect(low.statusCode).toBe(200);
    expect(await clockOf(ticket)).toMatchObject({
      firstResponseDueAt: null,
      resolutionDueAt: null,
      nextDueAt: null,
    });
    await call('agentA', 'PATCH', `/api/staff/portals/acme/tickets/${ticket}`, { priority: 'normal' });
    const [closing] = await rows<{ ext_id: string }>(
      sql`select s.ext_id::text from status_steps s join portals p on p.id = s.portal_id
        where p.key = 'acme' and s.task_status = 2 order by s.ext_id limit 1`,
    );
    const closed = await call('agentA', 'PATCH', `/api/staff/portals/acme/tickets/${ticket}`, {
      stepId: Number(closing!.ext_id),
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await clockOf(ticket)).toMatchObject({
      resolutionDueAt: '2026-03-31T08:00:00.000Z',
      nextDueAt: null,
      soonAt: null,
    });
  });
});
