/**
 * Ratings reach the desk (issue 28 item 1): the customer's rating and comment on the staff ticket and
 * its timeline, the inbox's "Rated" filter, and the e-mail to the ticket's agents when a rating is at
 * or below the portal's threshold (a setting of the portal, by their own preference).
 */
import { sql } from 'drizzle-orm';
import type { InboxAnswer, StaffOptions, StaffTicketDetail } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas, type PersonaAccess } from '../../test/personas';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let owner: PersonaAccess;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await seedPersonas(t)).owner;
  staff = await seedStaffPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

const desk = (who: Record<string, string>, method: 'GET' | 'PATCH' | 'PUT', path: string, payload?: object) =>
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
const rate = async (rating: number, comment?: string) => {
  t.clock.advance(60_000);
  const res = await customer('PUT', '/tickets/5003/rating', { rating, comment });
  expect(res.statusCode, res.body).toBe(200);
};
const mails = async () =>
  (
    await queryRows<{ payload: unknown }>(
      t.ctx.database.db,
      sql`select payload from outbox where channel = 'email' order by id`,
    )
  )
    .map(
      (r) =>
        (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as {
          to: string;
          subject: string;
          text: string;
        },
    )
    .filter((m) => m.subject.includes('/5'));
const detail = async () => {
  const res = await desk(staff.agentA, 'GET', '/tickets/5003');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StaffTicketDetail;
};
const inboxIds = async (query: string) => {
  const res = await desk(staff.agentA, 'GET', `/tickets?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as InboxAnswer).items.map((i) => i.id);
};

describe('a rating on the desk', () => {
  it("tells the assignee of a low rating, shows it on the ticket, its timeline and the 'Rated' filter", async () => {
    const options = (await desk(staff.agentA, 'GET', '/options')).json() as StaffOptions;
    expect(options.lowRatingThreshold).toBe(2);
    const luca = options.me.agentId!;
    expect((await desk(staff.adminA, 'PATCH', '/tickets/5003', { assigneeId: luca })).statusCode).toBe(200);
    expect((await customer('POST', '/tickets/5003/close')).statusCode).toBe(200);
    expect(await inboxIds('view=closed&rating=any')).not.toContain(5003);

    await rate(2, 'Too slow, nobody called back');
    const sent = await mails();
    // The assignee only: the admin is neither the assignee nor in a group of the ticket.
    expect(sent.map((m) => m.to)).toEqual(['luca@acme.example']);
    expect(sent[0]!.subject).toContain('2/5');
    expect(sent[0]!.text).toContain('Too slow, nobody called back');
    expect(sent[0]!.text).toContain('/acme/staff/tickets/5003');

    const d = await detail();
    expect(d.rating).toBe(2);
    expect(d.rated).toMatchObject({ rating: 2, comment: 'Too slow, nobody called back', low: true });
    expect(d.rated!.by).not.toBe('');
    const entry = d.timeline.find((e) => e.kind === 'rated');
    expect(entry).toMatchObject({
      public: false,
      from: null,
      to: { id: 2, name: 'Too slow, nobody called back' },
      by: { kind: 'contact', name: d.rated!.by },
    });
    expect(await inboxIds('view=closed&rating=any')).toEqual([5003]);
    expect(await inboxIds('view=closed&rating=low')).toEqual([5003]);
    expect(await inboxIds('view=open&rating=any')).toEqual([]);

    // The customer changes their mind: the entry says from what, the ticket is no longer low, no mail.
    await rate(4, 'Solved in the end');
    expect(await mails()).toHaveLength(1);
    const after = await detail();
    expect(after.rated).toMatchObject({ rating: 4, low: false });
    expect(after.timeline.filter((e) => e.kind === 'rated').at(-1)).toMatchObject({
      from: { id: 2, name: 'Too slow, nobody called back' },
      to: { id: 4, name: 'Solved in the end' },
    });
    expect(await inboxIds('view=closed&rating=low')).toEqual([]);
    expect(await inboxIds('view=closed&rating=any')).toEqual([5003]);
    // The customer's own timeline is unchanged: a rating entry is the staff's.
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/acme/${owner.contactId}/tickets/5003`,
      headers: owner.headers,
    });
    expect(JSON.stringify(mine.json().timeline)).not.toContain('rated');
  });

  it('follows the portal threshold set by an admin, and the agent who turned the e-mail off', async () => {
    const set = (who: Record<string, string>, lowRatingThreshold: unknown) =>
      desk(who, 'PATCH', '/admin/settings', { lowRatingThreshold });
    expect((await set(staff.agentA, 4)).statusCode).toBe(403);
    for (const bad of [6, -1, 2.5, '3'])
      expect((await set(staff.adminA, bad)).statusCode, String(bad)).toBe(400);
    const ok = await set(staff.adminA, 4);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().lowRatingThreshold).toBe(4);
    expect(((await desk(staff.agentA, 'GET', '/options')).json() as StaffOptions).lowRatingThreshold).toBe(4);
    expect((await detail()).rated!.low).toBe(true);
    expect(await inboxIds('view=closed&rating=low')).toEqual([5003]);

    await rate(3, 'Meh');
    expect(await mails()).toHaveLength(2);

    const prefs = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/me/preferences',
      headers: staff.agentA,
      payload: { emailLowRating: false },
    });
    expect(prefs.json()).toEqual({
      emailNewTicket: true,
      emailCustomerReply: true,
      emailLowRating: false,
      emailAssigned: true,
      emailMention: true,
      emailSla: true,
    });
    await rate(1, 'Worse');
    expect(await mails()).toHaveLength(2);

    // Threshold 0: no rating is low.
    expect((await set(staff.adminA, 0)).statusCode).toBe(200);
    await t.app.inject({
      method: 'PUT',
      url: '/api/staff/me/preferences',
      headers: staff.agentA,
      payload: { emailLowRating: true },
    });
    await rate(1, 'Still bad');
    expect(await mails()).toHaveLength(2);
    expect((await detail()).rated!.low).toBe(false);
    expect(await inboxIds('view=closed&rating=low')).toEqual([]);
  });

  it('refuses a rating filter it does not know', async () => {
    const res = await desk(staff.agentA, 'GET', '/tickets?rating=great');
    expect(res.statusCode).toBe(400);
  });
});
