/**
 * Time spent on tickets (issue 28 item 11): minutes logged alone or with a reply or note (in the
 * comment's transaction), sums on the ticket (total, billable), the company's hour banks beside them
 * unchanged, one `ticket.time_logged` per entry; minutes 1 to 1440.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

const desk = '/api/staff/portals/acme';
const rows = async <T>(s: ReturnType<typeof sql>) =>
  ((await t.ctx.database.db.execute(s)) as unknown as { rows: T[] }).rows;
const lastEvent = async () =>
  Number((await rows<{ id: string | null }>(sql`select max(id)::text as id from events`))[0]?.id ?? 0);
const post = (url: string, payload: object, headers = staff.agentA) =>
  t.app.inject({ method: 'POST', url: `${desk}${url}`, headers, payload });

beforeAll(async () => {
  t = await createTestApp();
  await seedPersonas(t);
  staff = await seedStaffPersonas(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('time spent', () => {
  it('logs time alone and with a comment, sums it, emits one event each', async () => {
    const ev = await lastEvent();
    const alone = await post('/tickets/5001/time', { minutes: 30, billable: true, note: 'Telefonata' });
    expect(alone.statusCode, alone.body).toBe(201);
    expect(alone.json()).toMatchObject({ minutes: 30, billable: true, note: 'Telefonata', commentId: null });
    const reply = await post('/tickets/5001/comments', {
      message: 'Fatto',
      internal: false,
      time: { minutes: 45, billable: false },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const note = await post('/tickets/5001/comments', {
      message: 'Nota',
      internal: true,
      time: { minutes: 20, billable: true },
    });
    expect(note.statusCode, note.body).toBe(201);
    // On an existing comment of the ticket, by its id in the conversation.
    const later = await post('/tickets/5001/time', { minutes: 5, billable: true, commentId: 1 });
    expect(later.statusCode, later.body).toBe(201);
    expect(later.json().commentId).toBe(1);

    const time = (
      await t.app.inject({ method: 'GET', url: `${desk}/tickets/5001/time`, headers: staff.adminA })
    ).json();
    expect(time).toMatchObject({ totalMinutes: 100, billableMinutes: 55 });
    expect(time.entries.map((e: { minutes: number; commentId: number | null }) => e.minutes)).toEqual([
      5, 20, 45, 30,
    ]);
    expect(time.entries[1].commentId).toBe(note.json().id);
    expect(time.entries[2].commentId).toBe(reply.json().id);
    expect(Array.isArray(time.hourBanks)).toBe(true);

    const events = await rows<{
      type: string;
      data: { timeEntry: { minutes: number; billable: boolean; ticketId: number; commentId: number | null } };
    }>(sql`select type, data from events where id > ${ev} and type = 'ticket.time_logged' order by id`);
    expect(
      events.map((e) => [e.data.timeEntry.ticketId, e.data.timeEntry.minutes, e.data.timeEntry.billable]),
    ).toEqual([
      [5001, 30, true],
      [5001, 45, false],
      [5001, 20, true],
      [5001, 5, true],
    ]);
  });

  it('logs time with a macro reply too, in its transaction', async () => {
    const res = await post('/tickets/5003/reply-with-actions', {
      message: 'Con macro',
      internal: true,
      actions: { priority: 'high' },
      time: { minutes: 12, billable: false },
    });
    expect(res.statusCode, res.body).toBe(201);
    const time = (
      await t.app.inject({ method: 'GET', url: `${desk}/tickets/5003/time`, headers: staff.agentA })
    ).json();
    expect(time.entries[0]).toMatchObject({ minutes: 12, billable: false, commentId: res.json().id });
  });

  it('shows the hour banks of the company without changing them', async () => {
    await t.ctx.database.db.execute(
      sql`insert into activity_contracts (portal_id, company_id, ext_id, name, start, contract_type, hours_amount)
        select t.portal_id, t.company_id, 9901, 'Monte ore 2026', '2026-01-01', 0, 10
        from tickets t join portals p on p.id = t.portal_id where p.key = 'acme' and t.ext_id = 5001`,
    );
    const banks = async () =>
      (await t.app.inject({ method: 'GET', url: `${desk}/tickets/5001/time`, headers: staff.agentA })).json()
        .hourBanks as { contractId: number; hoursMinutes: number; balanceMinutes: number }[];
    const first = (await banks()).find((b) => b.contractId === 9901);
    expect(first).toMatchObject({ hoursMinutes: 600, balanceMinutes: 600 });
    await post('/tickets/5001/time', { minutes: 60, billable: true });
    expect((await banks()).find((b) => b.contractId === 9901)).toEqual(first);
  });

  it('refuses minutes out of 1..1440, a comment of another ticket, a ticket of another portal', async () => {
    for (const minutes of [0, 1441, 1.5, -3]) {
      const res = await post('/tickets/5001/time', { minutes, billable: true });
      expect([res.statusCode, res.json().code], String(minutes)).toEqual([400, 'validation_error']);
    }
    const withTime = await post('/tickets/5001/comments', {
      message: 'x',
      internal: true,
      time: { minutes: 2000, billable: true },
    });
    expect(withTime.statusCode).toBe(400);
    const edge = await post('/tickets/5001/time', { minutes: 1440, billable: false });
    expect(edge.statusCode).toBe(201);
    const other = await post('/tickets/5003/time', { minutes: 5, billable: true, commentId: 1 });
    expect([other.statusCode, other.json().code]).toEqual([400, 'comment_not_on_ticket']);
    const missing = await post('/tickets/424242/time', { minutes: 5, billable: true });
    expect([missing.statusCode, missing.json().code]).toEqual([404, 'ticket_not_found']);
    const foreign = await post('/tickets/5001/time', { minutes: 5, billable: true }, staff.agentB);
    expect(foreign.statusCode).toBe(403);
    // A refused comment logs no time.
    const n = await rows<{ n: number }>(
      sql`select count(*)::int as n from ticket_time_entries where minutes = 2000`,
    );
    expect(n[0]!.n).toBe(0);
  });
});
