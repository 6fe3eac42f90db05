/**
 * The desk's bell and the inbox's saved views (issue 28 items 2 and 5): each kind of notice written
 * once, to the right agents, in the transaction of its change; `@handle` mentions; read marks; one
 * agent's and one portal's notices never another's; saved views' CRUD, sharing by admins, counts.
 */
import { sql } from 'drizzle-orm';
import type {
  InboxAnswer,
  SavedView,
  SavedViewList,
  StaffNotificationList,
  StaffOptions,
} from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { seedPersonas, type PersonaAccess } from '../../test/personas';
import { handlesOf, mentionedHandles, noticeAssignment } from '../tickets/core';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let owner: PersonaAccess;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
let lucaAgent: number;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await seedPersonas(t)).owner;
  staff = await seedStaffPersonas(t);
  const options = (await desk(staff.agentA, 'GET', '/options')).json() as StaffOptions;
  lucaAgent = options.me.agentId!;
});
afterAll(async () => {
  await t?.close();
});

type Who = Record<string, string>;
const desk = (
  who: Who,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url: `/api/staff/portals/acme${path}`,
    headers: who,
    ...(payload ? { payload } : {}),
  });
const customer = (method: 'POST' | 'PUT', path: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/acme/${owner.contactId}${path}`,
    headers: owner.headers,
    ...(payload ? { payload } : {}),
  });
const bell = async (who: Who, query = '') => {
  const res = await desk(who, 'GET', `/notifications${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StaffNotificationList;
};
const unread = async (who: Who) =>
  ((await desk(who, 'GET', '/notifications/count')).json() as { unread: number }).unread;
const mailsTo = async (to: string) =>
  (
    await queryRows<{ payload: unknown }>(
      t.ctx.database.db,
      sql`select payload from outbox where channel = 'email' and lower(payload->>'to') = ${to} order by id`,
    )
  ).map(
    (r) =>
      (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as {
        subject: string;
        text: string;
      },
  );
const noticeRows = async () =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.ctx.database.db,
        sql`select count(*)::int as n from staff_notifications`,
      )
    )[0]!.n,
  );

describe('the bell', () => {
  it('tells the new assignee once, by the bell and an e-mail; never the one who assigned', async () => {
    const mails0 = (await mailsTo('luca@acme.example')).length;
    const res = await desk(staff.adminA, 'PATCH', '/tickets/5003', { assigneeId: lucaAgent });
    expect(res.statusCode, res.body).toBe(200);
    const list = await bell(staff.agentA);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ kind: 'assigned', ticketId: 5003, read: false });
    expect(list.items[0]!.actor).not.toBe('');
    expect(list.unread).toBe(1);
    const mails = await mailsTo('luca@acme.example');
    expect(mails).toHaveLength(mails0 + 1);
    expect(mails.at(-1)!.subject).toContain('ACME Richiesta di Anna');
    expect(mails.at(-1)!.text).toContain('/acme/staff/tickets/5003');
    expect((await bell(staff.adminA)).items).toHaveLength(0);

    // The same assignee again, or a change of something else: nothing new.
    await desk(staff.adminA, 'PATCH', '/tickets/5003', { assigneeId: lucaAgent, priority: 'high' });
    expect((await bell(staff.agentA)).items).toHaveLength(1);
    // An agent taking a ticket themselves is not told of it.
    await desk(staff.agentA, 'PATCH', '/tickets/5003', { assigneeId: null });
    await desk(staff.agentA, 'PATCH', '/tickets/5003', { assigneeId: lucaAgent });
    expect((await bell(staff.agentA)).items).toHaveLength(1);
  });

  it('writes nothing when the change is rolled back', async () => {
    const before = await noticeRows();
    const [ticket] = await queryRows<{ id: number }>(
      t.ctx.database.db,
      sql`select id from tickets where ext_id = 5004`,
    );
    await expect(
      t.ctx.database.db.transaction(async (tx) => {
        const told = await noticeAssignment(
          tx,
          t.ctx,
          ticket!.id,
          lucaAgent,
          null,
          { staffUserId: null, name: 'X' },
          new Date(),
        );
        expect(told).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await noticeRows()).toBe(before);
  });

  it("tells the assignee of a customer's reply, and of a low rating", async () => {
    const reply = await customer('POST', '/comments', { taskId: 5003, message: '<p>Any news?</p>' });
    expect(reply.statusCode, reply.body).toBe(201);
    const items = (await bell(staff.agentA)).items;
    expect(items[0]).toMatchObject({ kind: 'customer_reply', ticketId: 5003 });
    expect(items.filter((i) => i.kind === 'customer_reply')).toHaveLength(1);
    expect((await bell(staff.adminA)).items).toHaveLength(0);

    expect((await customer('POST', '/tickets/5003/close')).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await customer('PUT', '/tickets/5003/rating', { rating: 1, comment: 'Bad' })).statusCode).toBe(
      200,
    );
    const low = (await bell(staff.agentA)).items[0]!;
    expect(low).toMatchObject({ kind: 'low_rating', rating: 1, ticketId: 5003 });
    // Above the threshold (2): no notice.
    t.clock.advance(60_000);
    await customer('PUT', '/tickets/5003/rating', { rating: 5 });
    expect((await bell(staff.agentA)).items.filter((i) => i.kind === 'low_rating')).toHaveLength(1);
  });

  it('tells the members an internal note mentions, and nobody else', async () => {
    expect(mentionedHandles('Hi @Luca, @sara.conti. and x@luca, (@b-c_)')).toEqual([
      'luca',
      'sara.conti',
      'b-c',
    ]);
    expect(handlesOf({ email: 'sara.conti@x.it', displayName: ' Sara  Conti ' })).toEqual(['sara.conti']);

    const before = (await bell(staff.agentA)).items.length;
    const mails0 = (await mailsTo('luca@acme.example')).length;
    // Luca by his address's handle; the author herself; beta's agent (not of this portal); an address.
    const note = await desk(staff.adminA, 'POST', '/tickets/5004/comments', {
      message: '<p>Look at this</p><p>@LUCA @boss @agent write to help@luca</p>',
      internal: true,
    });
    expect(note.statusCode, note.body).toBe(201);
    const items = (await bell(staff.agentA)).items;
    expect(items).toHaveLength(before + 1);
    expect(items[0]).toMatchObject({ kind: 'mention', ticketId: 5004 });
    expect((await mailsTo('luca@acme.example')).length).toBe(mails0 + 1);
    expect((await bell(staff.adminA)).items).toHaveLength(0);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/staff/portals/beta/notifications',
          headers: staff.agentB,
        })
      ).json().items,
    ).toHaveLength(0);

    // A public reply mentions nobody; a note by e-mail switch off is still on the bell, not mailed.
    await desk(staff.adminA, 'POST', '/tickets/5004/comments', { message: '<p>@luca</p>', internal: false });
    expect((await bell(staff.agentA)).items).toHaveLength(before + 1);
    await t.app.inject({
      method: 'PUT',
      url: '/api/staff/me/preferences',
      headers: staff.agentA,
      payload: { emailMention: false },
    });
    await desk(staff.adminA, 'POST', '/tickets/5004/comments', {
      message: '<p>again @luca</p>',
      internal: true,
    });
    expect((await bell(staff.agentA)).items).toHaveLength(before + 2);
    expect((await mailsTo('luca@acme.example')).length).toBe(mails0 + 1);
  });

  it("pages newest first, marks read one, another's or all, and keeps each agent and portal apart", async () => {
    const all = (await bell(staff.agentA, '?limit=50')).items;
    expect(all.length).toBeGreaterThanOrEqual(4);
    const first = await bell(staff.agentA, '?limit=2');
    expect(first.items.map((i) => i.id)).toEqual(all.slice(0, 2).map((i) => i.id));
    const second = await bell(staff.agentA, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.id)).toEqual(all.slice(2, 4).map((i) => i.id));
    expect((await desk(staff.agentA, 'GET', '/notifications?cursor=abc')).statusCode).toBe(400);

    const n = await unread(staff.agentA);
    expect(n).toBe(all.length);
    // Another agent marking Luca's notice changes nothing.
    await desk(staff.adminA, 'POST', '/notifications/read', { ids: [all[0]!.id] });
    expect(await unread(staff.agentA)).toBe(n);
    const one = await desk(staff.agentA, 'POST', '/notifications/read', { ids: [all[0]!.id] });
    expect(one.json()).toEqual({ unread: n - 1 });
    expect((await bell(staff.agentA)).items[0]!.read).toBe(true);
    expect((await desk(staff.agentA, 'POST', '/notifications/read', { all: true })).json()).toEqual({
      unread: 0,
    });
    expect((await desk(staff.agentA, 'POST', '/notifications/read', { ids: ['nope'] })).statusCode).toBe(400);
    // Not a member of acme: nothing of its bell.
    expect((await desk(staff.agentB, 'GET', '/notifications')).statusCode).toBe(403);
  });
});

describe('saved views', () => {
  const inboxCount = async (query: string) => {
    const res = await desk(staff.agentA, 'GET', `/tickets?${query}&limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as InboxAnswer).items.length;
  };

  it('saves, counts, renames and deletes a personal view; others do not see it', async () => {
    const made = await desk(staff.agentA, 'POST', '/views', {
      name: 'Open, high',
      query: { view: 'open', priority: 'high', sort: 'priority' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const v = made.json() as SavedView;
    expect(v).toMatchObject({ name: 'Open, high', shared: false, mine: true });
    expect(v.count).toBe(await inboxCount('view=open&priority=high'));
    const all = await desk(staff.agentA, 'POST', '/views', { name: 'Everything', query: { view: 'open' } });
    expect((all.json() as SavedView).count).toBe(await inboxCount('view=open'));

    const list = (await desk(staff.agentA, 'GET', '/views')).json() as SavedViewList;
    expect(list.items.map((i) => i.name)).toEqual(['Everything', 'Open, high']);
    expect(((await desk(staff.adminA, 'GET', '/views')).json() as SavedViewList).items).toEqual([]);

    // The count follows the tickets.
    await desk(staff.adminA, 'PATCH', '/tickets/5004', { priority: 'high' });
    const after = ((await desk(staff.agentA, 'GET', '/views')).json() as SavedViewList).items;
    expect(after.find((i) => i.id === v.id)!.count).toBe(await inboxCount('view=open&priority=high'));

    const renamed = await desk(staff.agentA, 'PATCH', `/views/${v.id}`, { name: 'Urgent-ish' });
    expect(renamed.json()).toMatchObject({ name: 'Urgent-ish' });
    expect((await desk(staff.adminA, 'PATCH', `/views/${v.id}`, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await desk(staff.adminA, 'DELETE', `/views/${v.id}`)).statusCode).toBe(404);
    expect((await desk(staff.agentA, 'DELETE', `/views/${v.id}`)).statusCode).toBe(204);
    expect((await desk(staff.agentA, 'DELETE', `/views/${v.id}`)).statusCode).toBe(404);
  });

  it('refuses bad views and more than the bound', async () => {
    for (const bad of [
      { name: '', query: {} },
      { name: 'x'.repeat(61), query: {} },
      { name: 'Bad view', query: { view: 'nope' } },
      { name: 'Search', query: { q: 'printer' } },
      { name: 'Cursor', query: { cursor: '1' } },
    ])
      expect((await desk(staff.agentA, 'POST', '/views', bad)).statusCode, JSON.stringify(bad)).toBe(400);
    const have = ((await desk(staff.agentA, 'GET', '/views')).json() as SavedViewList).items.length;
    for (let i = have; i < 20; i++)
      expect((await desk(staff.agentA, 'POST', '/views', { name: `V${i}`, query: {} })).statusCode).toBe(201);
    const over = await desk(staff.agentA, 'POST', '/views', { name: 'One more', query: {} });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('too_many_views');
    const list = ((await desk(staff.agentA, 'GET', '/views')).json() as SavedViewList).items;
    for (const v of list) await desk(staff.agentA, 'DELETE', `/views/${v.id}`);
  });

  it('is shared with the portal by an admin only, and then every member sees and counts it', async () => {
    const mine = (
      await desk(staff.agentA, 'POST', '/views', { name: 'Luca', query: { view: 'closed' } })
    ).json() as SavedView;
    expect((await desk(staff.agentA, 'PUT', `/views/${mine.id}/shared`, { shared: true })).statusCode).toBe(
      403,
    );
    const boss = (
      await desk(staff.adminA, 'POST', '/views', { name: 'Team: waiting', query: { view: 'waiting' } })
    ).json() as SavedView;
    const shared = await desk(staff.adminA, 'PUT', `/views/${boss.id}/shared`, { shared: true });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json()).toMatchObject({ shared: true, mine: true });
    const seen = ((await desk(staff.agentA, 'GET', '/views')).json() as SavedViewList).items;
    expect(seen.map((v) => [v.name, v.mine, v.shared])).toEqual([
      ['Luca', true, false],
      ['Team: waiting', false, true],
    ]);
    expect(seen[1]!.count).toBe(await inboxCount('view=waiting'));
    // A member may not change a shared view; the other portal sees nothing of it.
    expect((await desk(staff.agentA, 'PATCH', `/views/${boss.id}`, { name: 'x' })).statusCode).toBe(404);
    const beta = await t.app.inject({
      method: 'GET',
      url: '/api/staff/portals/beta/views',
      headers: staff.agentB,
    });
    expect(beta.json().items).toEqual([]);
    expect(
      (await desk(staff.adminA, 'PUT', `/views/${boss.id}/shared`, { shared: false })).json(),
    ).toMatchObject({ shared: false });
    expect(((await desk(staff.agentA, 'GET', '/views')).json() as SavedViewList).items).toHaveLength(1);
  });
});

describe('assignments by the back office', () => {
  it("ring the assignee when a key creates or changes a ticket's agent", async () => {
    const key = await t.app.inject({
      method: 'POST',
      url: '/api/admin/portals/acme/keys',
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      payload: { name: 'Bell back office', scopes: ['read', 'write'] },
    });
    const secret = key.json().secret as string;
    const [luca] = await queryRows<{ ext: number }>(
      t.ctx.database.db,
      sql`select a.ext_id as ext from agents a where a.id = ${lucaAgent}`,
    );
    const unassign = await t.app.inject({
      method: 'PATCH',
      url: '/api/integration/v1/tickets/5004',
      headers: { authorization: `Bearer ${secret}` },
      payload: { assignedUserId: null },
    });
    expect(unassign.statusCode, unassign.body).toBe(200);
    const before = (await bell(staff.agentA, '?limit=50')).items.length;
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/integration/v1/tickets/5004',
      headers: { authorization: `Bearer ${secret}` },
      payload: { assignedUserId: Number(luca!.ext) },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const items = (await bell(staff.agentA, '?limit=50')).items;
    expect(items).toHaveLength(before + 1);
    expect(items[0]).toMatchObject({ kind: 'assigned', ticketId: 5004, actor: '' });
    // The same agent again: no new notice.
    await t.app.inject({
      method: 'PATCH',
      url: '/api/integration/v1/tickets/5004',
      headers: { authorization: `Bearer ${secret}` },
      payload: { assignedUserId: Number(luca!.ext), title: 'Renamed by the back office' },
    });
    expect((await bell(staff.agentA, '?limit=50')).items).toHaveLength(before + 1);
  });
});
