/**
 * Merging a duplicate ticket into another (issue 28 item 8): the conversation, attachments and time
 * entries move in time order, followers join, the source closes with notes on both, the customers are
 * e-mailed in their language, `ticket.merged` for both; every customer write on the merged source is
 * refused (409 naming the target); undone by an admin within a day, exactly; refusals are 4xx.
 * Runs on PostgreSQL too (TEST_DATABASE_URL), where the concurrent merges of one pair must not deadlock.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
let people: Awaited<ReturnType<typeof seedPersonas>>;

const desk = '/api/staff/portals/acme';
const rows = async <T>(s: ReturnType<typeof sql>) =>
  ((await t.ctx.database.db.execute(s)) as unknown as { rows: T[] }).rows;
const lastEvent = async () =>
  Number((await rows<{ id: string | null }>(sql`select max(id)::text as id from events`))[0]?.id ?? 0);
const lastOutbox = async () =>
  Number((await rows<{ id: string | null }>(sql`select max(id)::text as id from outbox`))[0]?.id ?? 0);
const inject = (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload && { payload }) });
const merge = (source: number, target: number, headers = staff.agentA) =>
  inject('POST', `${desk}/tickets/${source}/merge`, headers, { targetId: target });
const undo = (source: number, headers = staff.adminA) =>
  inject('POST', `${desk}/tickets/${source}/merge/undo`, headers);

type Detail = {
  comments: {
    id: number;
    creationDate: string;
    internal: boolean;
    author: { name: string };
    attachments: { name: string }[];
  }[];
  attachments: { name: string }[];
  closed: boolean;
  timeline: { kind: string; from: { id: number | null } | null; to: { id: number | null } | null }[];
};
type Time = {
  totalMinutes: number;
  billableMinutes: number;
  entryCount: number;
  entries: { minutes: number; commentId: number | null }[];
};
const timeOf = async (id: number) => {
  const res = await inject('GET', `${desk}/tickets/${id}/time`, staff.agentA);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Time;
};
const detail = async (id: number) => {
  const res = await inject('GET', `${desk}/tickets/${id}`, staff.agentA);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Detail;
};
const followersOf = async (extId: number) =>
  (
    await rows<{ user_name: string }>(
      sql`select u.user_name from ticket_followers f join tickets t on t.id = f.ticket_id
        join portals p on p.id = t.portal_id join users u on u.id = f.user_id
        where p.key = 'acme' and t.ext_id = ${extId} order by u.user_name`,
    )
  ).map((r) => r.user_name);

beforeAll(async () => {
  t = await createTestApp();
  people = await seedPersonas(t);
  staff = await seedStaffPersonas(t);
  // The customers' languages: mario (creator of 5001) Spanish, the colleague none (the portal's, Italian).
  await t.ctx.database.db.execute(sql`update users set language = 'es-ES' where user_name = 'mario.rossi'`);
  await t.ctx.database.db.execute(sql`update users set language = 'en-EN' where user_name = 'anna.verdi'`);
  // The colleague follows the duplicate.
  await t.ctx.database.db.execute(
    sql`insert into ticket_followers (ticket_id, user_id, created_at)
      select t.id, u.id, now() from tickets t join portals p on p.id = t.portal_id, users u
      where p.key = 'acme' and t.ext_id = 5001 and u.user_name = 'colleague.user'`,
  );
  // A ticket of the other portal only (the persona portals share their ids).
  await t.ctx.database.db.execute(
    sql`update tickets set ext_id = 7777 where ext_id = 5004 and portal_id <> (select id from portals where key = 'acme')`,
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('merging tickets', () => {
  it('moves the conversation in time order, joins followers, closes the source, mails and emits', async () => {
    // The target has its own conversation, written now (after the source's, dated in October).
    t.clock.set('2026-11-20T10:00:00Z');
    await inject('POST', `${desk}/tickets/5003/comments`, staff.agentA, {
      message: 'Risposta sul 5003',
      internal: false,
    });
    t.clock.set('2026-10-13T12:00:00Z');
    // A note on the source between its two comments (10-13 and 10-14).
    await inject('POST', `${desk}/tickets/5001/comments`, staff.adminA, {
      message: 'Nota interna',
      internal: true,
    });
    t.clock.set('2026-11-20T11:00:00Z');
    const before = await detail(5001);
    // Time spent on the source: alone, and on its first comment.
    const logged = [
      { minutes: 30, billable: true },
      { minutes: 15, billable: false, commentId: before.comments[0]!.id },
    ];
    for (const body of logged)
      expect((await inject('POST', `${desk}/tickets/5001/time`, staff.agentA, body)).statusCode).toBe(201);
    // What the merge dialog says will move with the conversation.
    expect(await timeOf(5001)).toMatchObject({ totalMinutes: 45, entryCount: 2 });
    expect(before.comments.map((c) => c.creationDate)).toEqual([
      '2026-10-13T00:00:00.000Z',
      '2026-10-13T12:00:00.000Z',
      '2026-10-14T00:00:00.000Z',
    ]);
    const ev = await lastEvent();
    const mail = await lastOutbox();

    const res = await merge(5001, 5003);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      source: { id: 5001 },
      target: { id: 5003 },
      moved: { comments: 3, attachments: 2, timeEntries: 2, followers: 2 },
      undoUntil: '2026-11-21T11:00:00.000Z',
    });
    // The time went with the conversation: the target's sums count it, the one on a reply keeps it.
    expect(await timeOf(5003)).toMatchObject({ totalMinutes: 45, billableMinutes: 30, entryCount: 2 });
    expect((await timeOf(5003)).entries.map((e) => [e.minutes, e.commentId])).toEqual([
      [15, before.comments[0]!.id],
      [30, null],
    ]);
    expect(await timeOf(5001)).toMatchObject({ totalMinutes: 0, entryCount: 0, entries: [] });

    const target = await detail(5003);
    // Every comment in date order, with its author, date and visibility; the attachments with theirs.
    expect(target.comments.map((c) => [c.creationDate, c.internal])).toEqual([
      ['2026-10-13T00:00:00.000Z', false],
      ['2026-10-13T12:00:00.000Z', true],
      ['2026-10-14T00:00:00.000Z', false],
      ['2026-11-20T10:00:00.000Z', false],
    ]);
    expect(target.comments.map((c) => c.author.name)).toEqual(
      before.comments.map((c) => c.author.name).concat(target.comments[3]!.author.name),
    );
    expect(target.comments[0]!.attachments.map((a) => a.name).sort()).toEqual([
      'schermata.png',
      'verbale-di-intervento-lungo.pdf',
    ]);
    expect(target.timeline.at(-1)).toMatchObject({ kind: 'merged_from', from: { id: 5001 } });
    const source = await detail(5001);
    expect(source.comments).toEqual([]);
    expect(source.attachments).toEqual([]);
    expect(source.closed).toBe(true);
    expect(source.timeline.map((e) => e.kind).slice(-2)).toEqual(['closed', 'merged_into']);
    // Only the target's rows hold the files now.
    const files = await rows<{ ext_id: string }>(
      sql`select t.ext_id::text from ticket_attachments a join tickets t on t.id = a.ticket_id
        where a.name in ('schermata.png', 'verbale-di-intervento-lungo.pdf') and t.portal_id = (select id from portals where key = 'acme')`,
    );
    expect(files.map((f) => f.ext_id)).toEqual(['5003', '5003']);

    // Followers: the source's follower and the source's customer follow the target.
    expect(await followersOf(5003)).toEqual(['colleague.user', 'mario.rossi']);

    // The customers of the source are told, each in their language; the target's own creator is not.
    const mails = await rows<{ to: string; subject: string; text: string }>(
      sql`select payload->>'to' as to, payload->>'subject' as subject, payload->>'text' as text
        from outbox where id > ${mail} and channel = 'email' order by payload->>'to'`,
    );
    expect(mails.map((m) => m.to)).toEqual(['mario@acme.example', 'nuovo2@acme.example']);
    expect(mails[0]!.subject).toMatch(/El ticket 2026\/0012 se ha unido al ticket 2026\/0014/);
    expect(mails[0]!.text).toContain('/acme/101/tickets/5003');
    expect(mails[1]!.subject).toMatch(/Il ticket 2026\/0012 è stato unito al ticket 2026\/0014/);
    expect(mails[1]!.text).toContain('/acme/104/tickets/5003');

    // Events: the source's close, and ticket.merged for both tickets.
    const events = await rows<{
      type: string;
      data: {
        merge?: {
          role: string;
          sourceTicketId: number;
          targetTicketId: number;
          commentIds: number[];
          timeEntryIds: number[];
        };
        ticket: { id: number };
      };
    }>(sql`select type, data from events where id > ${ev} order by id`);
    expect(events.map((e) => [e.type, e.data.ticket.id])).toEqual([
      ['ticket.closed', 5001],
      ['ticket.merged', 5001],
      ['ticket.merged', 5003],
    ]);
    expect(events[1]!.data.merge).toMatchObject({
      role: 'source',
      sourceTicketId: 5001,
      targetTicketId: 5003,
    });
    expect(events[1]!.data.merge!.commentIds).toHaveLength(3);
    expect(events[1]!.data.merge!.timeEntryIds).toHaveLength(2);
    const audit = await rows<{ action: string; entity_id: string }>(
      sql`select action, entity_id from audit_log where entity = 'ticket' and action = 'merged'`,
    );
    expect(audit).toEqual([{ action: 'merged', entity_id: '5001' }]);

    // The desk's state of both tickets.
    const state = (await inject('GET', `${desk}/tickets/5001/merge`, staff.adminA)).json();
    expect(state).toMatchObject({ mergedInto: { ticket: { id: 5003 }, canUndo: true }, mergedFrom: [] });
    const agentState = (await inject('GET', `${desk}/tickets/5001/merge`, staff.agentA)).json();
    expect(agentState.mergedInto.canUndo).toBe(false);
    const targetState = (await inject('GET', `${desk}/tickets/5003/merge`, staff.agentA)).json();
    expect(targetState).toMatchObject({ mergedInto: null, mergedFrom: [{ ticket: { id: 5001 } }] });

    // The customer side of the source says where it went, and links when the contact may open it.
    const a = people.admin;
    const seen = await inject('GET', `/api/${a.company}/${a.contactId}/tickets/5001`, a.headers);
    expect(seen.json().mergedInto).toEqual({ id: 5003, ticketNumber: '2026/0014', reachable: true });
    // A reply to the merged ticket belongs to the one it went into: refused, nothing written or reopened.
    const comments = await rows<{ n: number }>(sql`select count(*)::int as n from ticket_comments`);
    const reply = await inject('POST', `/api/${a.company}/${a.contactId}/comments`, a.headers, {
      taskId: 5001,
      message: '<p>Any news?</p>',
      commentType: 0,
      attachments: [],
    });
    expect(reply.statusCode, reply.body).toBe(409);
    expect(reply.json()).toMatchObject({
      code: 'ticket_merged',
      message: expect.stringContaining('2026/0014'),
    });
    expect(await rows<{ n: number }>(sql`select count(*)::int as n from ticket_comments`)).toEqual(comments);
    expect((await detail(5001)).closed).toBe(true);
  });

  it('refuses every customer write on the merged source, naming the target; reading it stays', async () => {
    const a = people.admin;
    const base = `/api/${a.company}/${a.contactId}/tickets/5001`;
    const before = {
      followers: await followersOf(5001),
      ratings: await rows<{ n: number }>(sql`select count(*)::int as n from ticket_ratings`),
      events: await lastEvent(),
    };
    const writes: [string, 'POST' | 'PUT', string, object | undefined][] = [
      ['reopen', 'POST', `${base}/reopen`, undefined],
      ['close', 'POST', `${base}/close`, undefined],
      ['rating', 'PUT', `${base}/rating`, { rating: 5, comment: 'Ottimo' }],
      ['followers', 'PUT', `${base}/followers`, { webUserIds: [] }],
    ];
    for (const [what, method, url, payload] of writes) {
      const res = await t.app.inject({ method, url, headers: a.headers, ...(payload && { payload }) });
      expect([what, res.statusCode], res.body).toEqual([what, 409]);
      expect(res.json(), what).toMatchObject({
        code: 'ticket_merged',
        message: expect.stringContaining('2026/0014'),
      });
    }
    expect((await detail(5001)).closed).toBe(true);
    expect(await followersOf(5001)).toEqual(before.followers);
    expect(await rows<{ n: number }>(sql`select count(*)::int as n from ticket_ratings`)).toEqual(
      before.ratings,
    );
    expect(await lastEvent()).toBe(before.events);
    // Its page, its followers and its read mark are the customer's still.
    expect((await t.app.inject({ method: 'GET', url: base, headers: a.headers })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `${base}/followers`, headers: a.headers })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `${base}/read`, headers: a.headers })).statusCode).toBe(
      204,
    );
    // The target takes them: its followers are set there.
    const there = await t.app.inject({
      method: 'PUT',
      url: `/api/${a.company}/${a.contactId}/tickets/5003/followers`,
      headers: a.headers,
      payload: { webUserIds: [] },
    });
    expect(there.statusCode, there.body).toBe(200);
  });

  it('refuses merges into itself, of or into a merged ticket, across companies and portals', async () => {
    const code = async (r: Promise<{ statusCode: number; json: () => { code: string } }>) => {
      const res = await r;
      return [res.statusCode, res.json().code];
    };
    expect(await code(merge(5002, 5002))).toEqual([400, 'merge_into_itself']);
    expect(await code(merge(5002, 5001))).toEqual([409, 'ticket_merged']);
    expect(await code(merge(5001, 5002))).toEqual([409, 'ticket_merged']);
    expect(await code(merge(5002, 6001))).toEqual([409, 'merge_other_company']);
    expect(await code(merge(5002, 7777))).toEqual([404, 'ticket_not_found']);
    expect(await code(merge(5002, 5003, staff.agentB))).toEqual([403, 'not_staff_of_portal']);
    expect(await code(inject('POST', `${desk}/tickets/5002/merge`, staff.agentA, { targetId: -1 }))).toEqual([
      400,
      'validation_error',
    ]);
  });

  it('is undone by a portal admin only, exactly, within a day', async () => {
    const agent = await undo(5001, staff.agentA);
    expect([agent.statusCode, agent.json().code]).toEqual([403, 'admin_required']);
    const ev = await lastEvent();
    const res = await undo(5001);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      moved: { comments: 3, attachments: 2, timeEntries: 2, followers: 2 },
      undoneAt: expect.any(String),
    });
    // The time entries are back on the source, the target's own (none) stay.
    expect(await timeOf(5001)).toMatchObject({ totalMinutes: 45, billableMinutes: 30 });
    expect(await timeOf(5003)).toMatchObject({ totalMinutes: 0, entries: [] });
    const source = await detail(5001);
    expect(source.comments.map((c) => c.creationDate)).toEqual([
      '2026-10-13T00:00:00.000Z',
      '2026-10-13T12:00:00.000Z',
      '2026-10-14T00:00:00.000Z',
    ]);
    expect(source.comments[0]!.attachments).toHaveLength(2);
    expect(source.closed).toBe(false);
    const target = await detail(5003);
    expect(target.comments.map((c) => c.creationDate)).toEqual(['2026-11-20T10:00:00.000Z']);
    expect(await followersOf(5003)).toEqual([]);
    expect(await followersOf(5001)).toEqual(['colleague.user']);
    const events = await rows<{ type: string; ticket: string }>(
      sql`select type, data->'ticket'->>'id' as ticket from events where id > ${ev} order by id`,
    );
    expect(events).toEqual([
      { type: 'ticket.reopened', ticket: '5001' },
      { type: 'ticket.merge_undone', ticket: '5001' },
      { type: 'ticket.merge_undone', ticket: '5003' },
    ]);
    const again = await undo(5001);
    expect([again.statusCode, again.json().code]).toEqual([409, 'ticket_not_merged']);
    // The customer side forgets the merge.
    const a = people.admin;
    expect(
      (await inject('GET', `/api/${a.company}/${a.contactId}/tickets/5001`, a.headers)).json().mergedInto,
    ).toBeNull();

    // After a day, no undo.
    expect((await merge(5001, 5003)).statusCode).toBe(200);
    t.clock.advance(24 * 3600_000 + 60_000);
    await t.ctx.database.db.execute(
      sql`update staff_sessions set expires_at = expires_at + interval '2 days'`,
    );
    const late = await undo(5001);
    expect([late.statusCode, late.json().code]).toEqual([409, 'merge_undo_expired']);
    const state = (await inject('GET', `${desk}/tickets/5001/merge`, staff.adminA)).json();
    expect(state.mergedInto.canUndo).toBe(false);
  });

  it('two merges of the same pair at once: one wins, the other is refused, no deadlock', async () => {
    const [x, y] = await Promise.all([merge(5002, 5004), merge(5004, 5002, staff.adminA)]);
    const results = [x, y].map((r) => [r.statusCode, r.statusCode === 200 ? 'ok' : r.json().code]).sort();
    expect(results).toEqual([
      [200, 'ok'],
      [409, 'ticket_merged'],
    ]);
    const active = await rows<{ n: number }>(
      sql`select count(*)::int as n from ticket_merges m join tickets s on s.id = m.source_ticket_id
        where m.undone_at is null and s.ext_id in (5002, 5004)`,
    );
    expect(active[0]!.n).toBe(1);
  });
});
