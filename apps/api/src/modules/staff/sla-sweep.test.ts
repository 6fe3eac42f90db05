/**
 * The SLA breach sweep (issue 28 item 13) on a movable clock: "about to breach" then breached, each told
 * once (bits, one `ticket.sla_breached` event per target, bell notices to the assignee, e-mails as each
 * agent chose); a second sweep writes nothing; a paused or closed clock is not swept; a late sweep
 * tells the breach only; two sweepers at once (on PostgreSQL: two connections) tell each breach once.
 * A policy change is audited and recomputes the open clocks in the background; an imported ticket
 * gets its clock from the sweep; both mark what is already past as told without telling.
 */
import { sql } from 'drizzle-orm';
import type { StaffNotificationList, StaffOptions } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas, type PersonaAccess } from '../../test/personas';
import { exampleDocument, seedExample } from '../../test/seed';
import { SlaSweeper } from './sla-sweeper';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let owner: PersonaAccess;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
let sweeper: SlaSweeper;
let lucaAgent: number;

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

beforeAll(async () => {
  // Sessions are opened at the harness's now (November): the March clock below never expires them.
  t = await createTestApp();
  owner = (await seedPersonas(t)).owner;
  staff = await seedStaffPersonas(t);
  sweeper = new SlaSweeper(t.ctx, t.app.log);
  const put = await desk(staff.adminA, 'PUT', '/admin/sla', policy);
  expect(put.statusCode, put.body).toBe(200);
  lucaAgent = ((await desk(staff.agentA, 'GET', '/options')).json() as StaffOptions).me.agentId!;
});
afterAll(async () => {
  await t?.close();
});

type Who = Record<string, string>;
const desk = (who: Who, method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/staff/portals/acme${path}`,
    headers: who,
    ...(payload ? { payload } : {}),
  });
const db = () => t.ctx.database.db;

/** A customer's ticket at the clock's now, assigned to Luca; answers its back-office id. */
async function openTicket(title: string): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/acme/${owner.contactId}/tickets`,
    headers: owner.headers,
    payload: { title, taskTypeId: 1, description: '<p>Non va</p>' },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  const assign = await desk(staff.adminA, 'PATCH', `/tickets/${id}`, { assigneeId: lucaAgent });
  expect(assign.statusCode, assign.body).toBe(200);
  return id;
}

const stateOf = async (ext: number) =>
  (
    await queryRows<{ sla_breached: number; sla_sweep_at: string | null }>(
      db(),
      sql`select t.sla_breached, t.sla_sweep_at::text from tickets t join portals p on p.id = t.portal_id
        where p.key = 'acme' and t.ext_id = ${ext}`,
    )
  ).map((r) => ({
    breached: Number(r.sla_breached),
    sweepAt: r.sla_sweep_at === null ? null : new Date(r.sla_sweep_at).toISOString(),
  }))[0]!;
const eventsOf = async (ext: number) =>
  (
    await queryRows<{ data: unknown }>(
      db(),
      sql`select data from events where type = 'ticket.sla_breached' and (data->'ticket'->>'id')::bigint = ${ext}
        order by id`,
    )
  ).map(
    (r) =>
      (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as {
        sla: { target: string; dueAt: string; priority: string };
        ticket: Record<string, unknown>;
      },
  );
const noticesOf = async (ext: number) =>
  queryRows<{ kind: string; email: string }>(
    db(),
    sql`select n.kind, u.email from staff_notifications n join tickets t on t.id = n.ticket_id
      join staff_users u on u.id = n.staff_user_id
      where t.ext_id = ${ext} and n.kind like 'sla_%' order by n.id`,
  );
const slaMailsTo = async (to: string) =>
  (
    await queryRows<{ subject: string }>(
      db(),
      sql`select payload->>'subject' as subject from outbox where channel = 'email'
        and lower(payload->>'to') = ${to} and payload->>'subject' like '%tempo di%' order by id`,
    )
  ).map((r) => r.subject);

describe('the breach sweep', () => {
  let ticket = 0;

  it('tells nothing before the "soon" instant', async () => {
    // Monday 23 March 2026, 10:00 in Rome (CET): first response due 12:00, soon from 11:00.
    t.clock.set('2026-03-23T09:00:00Z');
    ticket = await openTicket('Stampante ferma');
    expect(await stateOf(ticket)).toEqual({ breached: 0, sweepAt: '2026-03-23T10:00:00.000Z' });
    t.clock.set('2026-03-23T09:59:00Z');
    await sweeper.runOnce();
    expect(await noticesOf(ticket)).toEqual([]);
  });

  it('tells the assignee once that the first response is about to breach', async () => {
    t.clock.set('2026-03-23T10:05:00Z');
    expect(await sweeper.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await noticesOf(ticket)).toEqual([{ kind: 'sla_soon', email: 'luca@acme.example' }]);
    expect(await eventsOf(ticket)).toEqual([]);
    // Next: the first response's due time.
    expect(await stateOf(ticket)).toEqual({ breached: 4, sweepAt: '2026-03-23T11:00:00.000Z' });
    expect(await slaMailsTo('luca@acme.example')).toEqual([
      // The portal speaks Italian; the due time is its wall clock, named.
      expect.stringContaining(
        'sta per superare il tempo di prima risposta (scadenza 23/03/2026 12:00, Europe/Rome): Stampante ferma',
      ),
    ]);
    await sweeper.runOnce();
    expect(await noticesOf(ticket)).toHaveLength(1);
  });

  it('tells the breach once: one event, one notice, the e-mail as the agent chose', async () => {
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/me/preferences',
      headers: staff.agentA,
      payload: { emailSla: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().emailSla).toBe(false);
    t.clock.set('2026-03-23T11:00:00Z');
    await sweeper.runOnce();
    expect(await noticesOf(ticket)).toEqual([
      { kind: 'sla_soon', email: 'luca@acme.example' },
      { kind: 'sla_breach', email: 'luca@acme.example' },
    ]);
    const events = await eventsOf(ticket);
    expect(events).toHaveLength(1);
    expect(events[0]!.sla).toEqual({
      target: 'first_response',
      dueAt: '2026-03-23T11:00:00.000Z',
      priority: 'normal',
    });
    expect(events[0]!.ticket).toMatchObject({ id: ticket, assignedUserId: expect.any(Number) });
    // The switch is off: the bell only.
    expect(await slaMailsTo('luca@acme.example')).toHaveLength(1);
    // Told: the resolution's "soon" is next: 17:00 CET, two business hours before its due time
    // (Tuesday 10:00).
    expect(await stateOf(ticket)).toEqual({ breached: 5, sweepAt: '2026-03-23T16:00:00.000Z' });
    // A second sweep, and one after the lease of a claim that died: nothing more.
    await sweeper.runOnce();
    await db().execute(
      sql`update tickets set sla_sweep_at = ${'2026-03-23T10:00:00Z'}::timestamptz where ext_id = ${ticket}`,
    );
    await sweeper.runOnce();
    expect(await noticesOf(ticket)).toHaveLength(2);
    expect(await eventsOf(ticket)).toHaveLength(1);
    expect(await stateOf(ticket)).toEqual({ breached: 5, sweepAt: '2026-03-23T16:00:00.000Z' });
    // The bell shows it.
    const bell = (await desk(staff.agentA, 'GET', '/notifications')).json() as StaffNotificationList;
    expect(bell.items.map((n) => [n.kind, n.ticketId])).toEqual(
      expect.arrayContaining([
        ['sla_breach', ticket],
        ['sla_soon', ticket],
      ]),
    );
    expect(bell.items.find((n) => n.kind === 'sla_breach')!.actor).toBe('');
    // Each names its target and that target's due time.
    for (const kind of ['sla_breach', 'sla_soon'])
      expect(bell.items.find((n) => n.kind === kind && n.ticketId === ticket)!.sla, kind).toEqual({
        target: 'first_response',
        dueAt: '2026-03-23T11:00:00.000Z',
      });
    // The other kinds name none.
    expect(bell.items.filter((n) => !n.kind.startsWith('sla_')).map((n) => n.sla)).toEqual(
      bell.items.filter((n) => !n.kind.startsWith('sla_')).map(() => null),
    );
  });

  it('does not sweep the resolution while the ticket waits for the customer', async () => {
    t.clock.set('2026-03-23T12:00:00Z');
    const reply = await desk(staff.agentA, 'POST', `/tickets/${ticket}/comments`, {
      message: '<p>Può riavviare?</p>',
      internal: false,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(await stateOf(ticket)).toEqual({ breached: 5, sweepAt: null });
    t.clock.set('2026-03-24T16:00:00Z');
    expect(await sweeper.runOnce()).toBe(0);
    expect(await noticesOf(ticket)).toHaveLength(2);
  });

  it('tells a breach found late as a breach only, and never again once closed', async () => {
    // The customer answers on Tuesday 17:00 CET: the resolution runs again (three business hours
    // were used before the wait: due Wednesday 13:00), and the sweep looks only on Thursday.
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/acme/${owner.contactId}/comments`,
      headers: owner.headers,
      payload: { taskId: ticket, message: '<p>Non va ancora</p>' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await stateOf(ticket)).toEqual({ breached: 5, sweepAt: '2026-03-25T10:00:00.000Z' });
    t.clock.set('2026-03-26T08:00:00Z');
    await sweeper.runOnce();
    expect((await noticesOf(ticket)).map((n) => n.kind)).toEqual(['sla_soon', 'sla_breach', 'sla_breach']);
    expect((await eventsOf(ticket)).map((e) => e.sla.target)).toEqual(['first_response', 'resolution']);
    expect(await stateOf(ticket)).toEqual({ breached: 15, sweepAt: null });
    // The late breach names the resolution and its due time: Wednesday 13:00 CET.
    const bell = (await desk(staff.agentA, 'GET', '/notifications')).json() as StaffNotificationList;
    expect(bell.items.find((n) => n.kind === 'sla_breach' && n.ticketId === ticket)!.sla).toEqual({
      target: 'resolution',
      dueAt: '2026-03-25T12:00:00.000Z',
    });
  });

  it('leaves a closed ticket alone', async () => {
    t.clock.set('2026-03-25T08:00:00Z');
    const closedOne = await openTicket('Chiuso subito');
    const [closing] = await queryRows<{ ext_id: string }>(
      db(),
      sql`select s.ext_id::text from status_steps s join portals p on p.id = s.portal_id
        where p.key = 'acme' and s.task_status = 2 order by s.ext_id limit 1`,
    );
    const closed = await desk(staff.agentA, 'PATCH', `/tickets/${closedOne}`, {
      stepId: Number(closing!.ext_id),
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await stateOf(closedOne)).toEqual({ breached: 0, sweepAt: null });
    t.clock.set('2026-03-27T08:00:00Z');
    await sweeper.runOnce();
    expect(await noticesOf(closedOne)).toEqual([]);
  });

  it('tells each breach once with two sweepers at once', async () => {
    t.clock.set('2026-03-26T08:00:00Z');
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await openTicket(`Guasto ${i}`));
    t.clock.set('2026-03-27T16:00:00Z');
    const other = new SlaSweeper(t.ctx, t.app.log, { batchSize: 5 });
    const mine = new SlaSweeper(t.ctx, t.app.log, { batchSize: 5 });
    // Each claims a batch at a time: together they take every due ticket, never the same one twice.
    for (let pass = 0; pass < 4; pass++) await Promise.all([other.runOnce(), mine.runOnce()]);
    for (const id of ids) {
      expect((await eventsOf(id)).map((e) => e.sla.target)).toEqual(['first_response', 'resolution']);
      expect((await noticesOf(id)).map((n) => n.kind)).toEqual(['sla_breach', 'sla_breach']);
    }
  });
});

describe('the inbox by SLA due', () => {
  it('lists open tickets soonest due first, clockless last, page after page', async () => {
    const seen: { id: number; due: string | null }[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const q: string = `/tickets?view=open&sort=sla&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await desk(staff.agentA, 'GET', q);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as {
        items: { id: number; sla: { nextDueAt: string | null } | null }[];
        nextCursor: string | null;
      };
      seen.push(...body.items.map((i) => ({ id: i.id, due: i.sla?.nextDueAt ?? null })));
      cursor = body.nextCursor;
      if (cursor === null) break;
    }
    expect(new Set(seen.map((s) => s.id)).size).toBe(seen.length);
    const key = (s: { id: number; due: string | null }) => [s.due ?? '9999', String(s.id).padStart(12, '0')];
    const sorted = [...seen].sort((a, b) => (key(a).join() < key(b).join() ? -1 : 1));
    expect(seen).toEqual(sorted);
    expect(seen.filter((s) => s.due !== null).length).toBeGreaterThan(3);
    expect(seen.at(-1)!.due).toBeNull();
  });
});

describe('clocks the sweep computes', () => {
  it('gives an imported open ticket its clock, marking what is past told without telling', async () => {
    t.clock.set('2026-03-27T16:00:00Z');
    const doc = exampleDocument() as { portals: { companies: { tickets: Record<string, unknown>[] }[] }[] };
    const imported = {
      ...doc.portals[0]!.companies[0]!.tickets[0]!,
      id: 7001,
      title: 'Dal gestionale',
      ticketNumber: '2026/7001',
      internalAnnualProgressive: 7001,
      createdOn: '2026-03-20T08:00:00.000Z',
      statusStepId: 1,
      comments: [],
    };
    doc.portals[0]!.companies[0]!.tickets.push(imported);
    await seedExample(t, doc);
    expect(await stateOf(7001)).toEqual({ breached: 16, sweepAt: '2026-03-20T08:00:00.000Z' });
    await sweeper.runOnce();
    // Both targets were over a week ago: told, to nobody.
    expect(await stateOf(7001)).toEqual({ breached: 15, sweepAt: null });
    expect(await noticesOf(7001)).toEqual([]);
    expect(await eventsOf(7001)).toEqual([]);
    const [clock] = await queryRows<{ due: string | null }>(
      db(),
      sql`select first_response_due_at::text as due from tickets where ext_id = 7001`,
    );
    expect(clock!.due).not.toBeNull();
    // The same document again: the ticket has its clock and is not marked again.
    await seedExample(t, doc);
    expect(await stateOf(7001)).toEqual({ breached: 15, sweepAt: null });
  });

  it('audits a policy change and recomputes open clocks in the background', async () => {
    t.clock.set('2026-03-27T16:00:00Z');
    // Friday 17:00 CET: two business hours to the first answer, Monday 10:00 CEST.
    const fresh = await openTicket('Nuovo a fine giornata');
    expect(await stateOf(fresh)).toEqual({ breached: 0, sweepAt: '2026-03-27T17:00:00.000Z' });
    const audits = async () =>
      queryRows<{ action: string; before: unknown; after: unknown }>(
        db(),
        sql`select action, before, after from audit_log where entity = 'sla_policy' order by id`,
      );
    expect((await audits()).map((a) => a.action)).toEqual(['created']);
    const tighter = {
      ...policy,
      targets: { ...policy.targets, normal: { firstResponse: 30, resolution: 480 } },
    };
    const put = await desk(staff.adminA, 'PUT', '/admin/sla', tighter);
    expect(put.statusCode, put.body).toBe(200);
    const log = await audits();
    expect(log.map((a) => a.action)).toEqual(['created', 'updated']);
    const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
    expect(json(log[1]!.before).targets.normal).toEqual({ firstResponse: 120, resolution: 480 });
    expect(json(log[1]!.after).targets.normal).toEqual({ firstResponse: 30, resolution: 480 });
    // Saving the same policy again changes nothing and audits nothing.
    expect((await desk(staff.adminA, 'PUT', '/admin/sla', tighter)).statusCode).toBe(200);
    expect(await audits()).toHaveLength(2);

    // The request only queued it; the sweep marks and recomputes, in batches (of 3 here).
    const small = new SlaSweeper(t.ctx, t.app.log, { recomputeBatch: 3 });
    for (let pass = 0; pass < 3; pass++) await small.markForRecompute();
    // A change of a marked ticket before the sweep's look keeps the look due (it is owed).
    await new SlaSweeper(t.ctx, t.app.log, { recomputeBatch: 10_000 }).markForRecompute();
    const created = '2026-03-27T16:00:00.000Z';
    expect(await stateOf(fresh)).toEqual({ breached: 16, sweepAt: created });
    const high = await desk(staff.agentA, 'PATCH', `/tickets/${fresh}`, { priority: 'high' });
    expect(high.statusCode, high.body).toBe(200);
    expect(await stateOf(fresh)).toEqual({ breached: 16, sweepAt: created });
    await desk(staff.agentA, 'PATCH', `/tickets/${fresh}`, { priority: 'normal' });
    for (let pass = 0; pass < 12; pass++) await small.runOnce();
    const [pending] = await queryRows<{ recompute_after: string | null }>(
      db(),
      sql`select s.recompute_after::text from sla_policies s join portals p on p.id = s.portal_id
        where p.key = 'acme'`,
    );
    expect(pending!.recompute_after).toBeNull();
    // Thirty minutes from 17:00 CET; "soon" from the start: marked told, not told.
    expect(await stateOf(fresh)).toEqual({ breached: 4, sweepAt: '2026-03-27T16:30:00.000Z' });
    expect(await noticesOf(fresh)).toEqual([]);
    // What passes after the recompute is told as usual.
    t.clock.set('2026-03-27T16:31:00Z');
    await sweeper.runOnce();
    expect((await noticesOf(fresh)).map((n) => n.kind)).toEqual(['sla_breach']);
    expect((await eventsOf(fresh)).map((e) => e.sla.target)).toEqual(['first_response']);
  });
});
