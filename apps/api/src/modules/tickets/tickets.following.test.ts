/**
 * Following a ticket from the customer side (issue 16): ratings and reopening emit their events, the
 * unread markers, followers (who reach the ticket and get its e-mails), the "waiting for you" flag and
 * the public last activity of the lists, and the overview by permission.
 */
import { sql } from 'drizzle-orm';
import type { ApiKeyWithSecret, Overview, TicketDetail, TicketListItem } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { bearer } from '../../test/seed';
import { seedPersonas, type Persona, type PersonaAccess } from '../../test/personas';

let t: TestApp;
let p: Record<Persona, PersonaAccess>;
let key: ApiKeyWithSecret;

beforeAll(async () => {
  t = await createTestApp();
  p = await seedPersonas(t);
  key = (
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/portals/acme/keys',
      headers: bearer(TEST_ADMIN_KEY),
      payload: { name: 'CRM', scopes: ['write', 'read'] },
    })
  ).json();
});
afterAll(async () => {
  await t?.close();
});

const call = (who: Persona, method: 'GET' | 'POST' | 'PUT', path: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/acme/${p[who].contactId}${path}`,
    headers: p[who].headers,
    ...(payload ? { payload } : {}),
  });
const rows = <T>(q: ReturnType<typeof sql>) => queryRows<T>(t.ctx.database.db, q);
const eventsOf = async (type: string) =>
  (await rows<{ data: unknown }>(sql`select data from events where type = ${type} order by id`)).map(
    (r) => (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, never>,
  );
const userIdOf = async (userName: string) =>
  Number((await rows<{ id: number }>(sql`select id from users where user_name = ${userName}`))[0]!.id);
/** An agent's answer through the integration API, a minute after the last change. */
const agentAnswers = async (ticket: number, message: string) => {
  t.clock.advance(60_000);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/integration/v1/tickets/${ticket}/comments`,
    headers: bearer(key.secret),
    payload: { senderAgentId: 1, message },
  });
  expect(res.statusCode, res.body).toBe(201);
};
const mailsTo = async (to: string) =>
  (await rows<{ payload: unknown }>(sql`select payload from outbox where channel = 'email' order by id`))
    .map(
      (r) =>
        (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as { to: string; text: string },
    )
    .filter((m) => m.to === to);
const listItem = async (who: Persona, id: number) =>
  ((await call(who, 'GET', '/tickets')).json() as TicketListItem[]).find((x) => x.id === id);

describe('rating a ticket', () => {
  it('is refused while the ticket is open, then kept once per ticket, changeable, each an event', async () => {
    const open = await call('owner', 'PUT', '/tickets/5003/rating', { rating: 5 });
    expect(open.statusCode).toBe(409);
    expect(open.json().code).toBe('ticket_not_closed');
    expect(await eventsOf('ticket.rated')).toHaveLength(0);

    expect((await call('owner', 'POST', '/tickets/5003/close')).statusCode).toBe(200);
    const first = await call('owner', 'PUT', '/tickets/5003/rating', { rating: 5, comment: ' Great ' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ rating: 5, comment: 'Great' });
    const again = await call('owner', 'PUT', '/tickets/5003/rating', { rating: 3, comment: 'Slow' });
    expect(again.statusCode).toBe(200);

    const events = await eventsOf('ticket.rated');
    expect(events).toHaveLength(2);
    expect(events[1]!.rating).toMatchObject({ ticketId: 5003, rating: 3, comment: 'Slow', contactId: 102 });
    expect((events[1]!.ticket as unknown as { id: number }).id).toBe(5003);
    const n = await rows<{ n: number }>(sql`select count(*)::int as n from ticket_ratings`);
    expect(n[0]!.n).toBe(1);
    const detail = (await call('owner', 'GET', '/tickets/5003')).json() as TicketDetail;
    expect(detail.rating).toMatchObject({ rating: 3, comment: 'Slow' });
  });

  it('takes 1 to 5 only, and nothing is written for a bad one', async () => {
    for (const rating of [0, 6, 2.5, '4']) {
      const res = await call('owner', 'PUT', '/tickets/5003/rating', { rating });
      expect(res.statusCode, String(rating)).toBe(400);
    }
    expect(await eventsOf('ticket.rated')).toHaveLength(2);
  });
});

describe('reopening a ticket', () => {
  it('moves a closed ticket back to the default step with one ticket.reopened event; an open one stays', async () => {
    const before = (await eventsOf('ticket.reopened')).length;
    const res = await call('owner', 'POST', '/tickets/5003/reopen');
    expect(res.statusCode).toBe(200);
    expect((res.json() as TicketDetail).isClosed).toBe(false);
    const events = await eventsOf('ticket.reopened');
    expect(events).toHaveLength(before + 1);
    expect((events.at(-1)!.ticket as unknown as { isClosed: boolean }).isClosed).toBe(false);
    expect((await call('owner', 'POST', '/tickets/5003/reopen')).statusCode).toBe(200);
    expect(await eventsOf('ticket.reopened')).toHaveLength(before + 1);
  });

  it('is no news to whoever reopened it: no notification of their own step change', async () => {
    await call('owner', 'POST', '/tickets/5003/close');
    const told = async () =>
      (
        await queryRows<{ n: number }>(
          t.ctx.database.db,
          sql`select count(*)::int as n from notifications n join users u on u.id = n.user_id
            where u.user_name = 'anna.verdi' and n.kind = 'statusChange'`,
        )
      )[0]!.n;
    const before = await told();
    expect((await call('owner', 'POST', '/tickets/5003/reopen')).statusCode).toBe(200);
    expect(await told()).toBe(before);
  });

  it('is what a reply to a closed ticket does too, with its event', async () => {
    await call('owner', 'POST', '/tickets/5003/close');
    const before = (await eventsOf('ticket.reopened')).length;
    const reply = await call('owner', 'POST', '/comments', { taskId: 5003, message: '<p>Again</p>' });
    expect(reply.statusCode).toBe(201);
    expect(await eventsOf('ticket.reopened')).toHaveLength(before + 1);
    expect(((await call('owner', 'GET', '/tickets/5003')).json() as TicketDetail).isClosed).toBe(false);
  });
});

describe('unread markers and waiting for the customer', () => {
  it('marks an agent answer unread until read; the reader’s own reply is never unread', async () => {
    await agentAnswers(5003, '<p>Can you send a photo?</p>');
    expect((await call('owner', 'GET', '/tickets/unread')).json().ticketIds).toContain(5003);
    const item = await listItem('owner', 5003);
    expect(item?.waitingOnCustomer).toBe(true);
    expect(item?.lastActivityAt).toBe(t.ctx.clock.now().toISOString());

    expect((await call('owner', 'POST', '/tickets/5003/read')).statusCode).toBe(204);
    expect((await call('owner', 'GET', '/tickets/unread')).json().ticketIds).not.toContain(5003);

    // Read by one user is not read by another: the administrator has not opened it.
    expect((await call('admin', 'GET', '/tickets/unread')).json().ticketIds).toContain(5003);

    t.clock.advance(60_000);
    await call('owner', 'POST', '/comments', { taskId: 5003, message: '<p>Here it is</p>' });
    expect((await call('owner', 'GET', '/tickets/unread')).json().ticketIds).not.toContain(5003);
    expect((await listItem('owner', 5003))?.waitingOnCustomer).toBe(false);
  });

  it('marks a public status change by the business unread; the reader’s own close is not', async () => {
    await call('owner', 'POST', '/tickets/5003/read');
    expect((await call('owner', 'GET', '/tickets/unread')).json().ticketIds).not.toContain(5003);
    // An assignment is not on the customer's timeline: no news.
    t.clock.advance(60_000);
    const assign = await t.app.inject({
      method: 'PATCH',
      url: '/api/integration/v1/tickets/5003',
      headers: bearer(key.secret),
      payload: { assignedUserId: 1 },
    });
    expect(assign.statusCode, assign.body).toBe(200);
    expect((await call('owner', 'GET', '/tickets/unread')).json().ticketIds).not.toContain(5003);
    const step = (await call('owner', 'GET', '/tickets/5003')).json() as TicketDetail;
    t.clock.advance(60_000);
    const moved = await t.app.inject({
      method: 'PATCH',
      url: '/api/integration/v1/tickets/5003',
      headers: bearer(key.secret),
      payload: { statusStepId: step.taskStatus.step.id === 2 ? 1 : 2 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await call('owner', 'GET', '/tickets/unread')).json().ticketIds).toContain(5003);
    await call('owner', 'POST', '/tickets/5003/read');
    expect((await call('owner', 'GET', '/tickets/unread')).json().ticketIds).not.toContain(5003);
    t.clock.advance(60_000);
    expect((await call('owner', 'POST', '/tickets/5003/close')).statusCode).toBe(200);
    expect((await call('owner', 'GET', '/tickets/unread')).json().ticketIds).not.toContain(5003);
    t.clock.advance(60_000);
    expect((await call('owner', 'POST', '/tickets/5003/reopen')).statusCode).toBe(200);
  });

  it('never counts an internal note: not unread, not activity', async () => {
    const before = (await listItem('owner', 5003))!.lastActivityAt;
    t.clock.advance(60_000);
    await t.ctx.database.db.execute(sql`insert into ticket_comments
        (portal_id, ticket_id, ext_id, message, creation_date, sender_agent_id, internal)
      select t.portal_id, t.id, 990001, '<p>note</p>', ${t.ctx.clock.now().toISOString()}::timestamptz,
        (select id from agents where portal_id = t.portal_id order by id limit 1), true
      from tickets t join portals p on p.id = t.portal_id where p.key = 'acme' and t.ext_id = 5003`);
    expect((await listItem('owner', 5003))!.lastActivityAt).toBe(before);
    expect((await call('owner', 'GET', '/tickets/unread')).json().ticketIds).not.toContain(5003);
  });
});

describe('followers', () => {
  it('lets a colleague follow: they open the ticket, see it in their list and get its e-mails', async () => {
    const colleague = await userIdOf('colleague.user');
    expect((await call('colleague', 'GET', '/tickets/5003')).statusCode).toBe(404);
    const candidates = (await call('owner', 'GET', '/tickets/5003/followers')).json();
    expect(candidates.followers).toEqual([]);
    expect(candidates.candidates.map((c: { webUserId: number }) => c.webUserId)).toContain(colleague);

    const set = await call('owner', 'PUT', '/tickets/5003/followers', { webUserIds: [colleague] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().followers).toEqual([{ webUserId: colleague, referentName: expect.any(String) }]);
    expect(set.json().candidates.map((c: { webUserId: number }) => c.webUserId)).not.toContain(colleague);

    expect((await call('colleague', 'GET', '/tickets/5003')).statusCode).toBe(200);
    expect(await listItem('colleague', 5003)).toBeDefined();

    await agentAnswers(5003, '<p>Fixed for everyone</p>');
    const [mail] = await mailsTo('nuovo2@acme.example');
    expect(mail?.text).toContain('Fixed for everyone');
    // The link opens the ticket under the follower's own contact.
    expect(mail?.text).toContain(`${t.ctx.config.publicUrl}/acme/104/tickets/5003`);
    expect((await mailsTo('anna@acme.example')).at(-1)?.text).toContain('Fixed for everyone');
  });

  it('takes only colleagues of the company, and removing a follower closes the ticket to them', async () => {
    const otherCompany = await userIdOf('giulia.blu');
    const bad = await call('owner', 'PUT', '/tickets/5003/followers', { webUserIds: [otherCompany] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('unknown_colleague');
    expect((await call('owner', 'GET', '/tickets/5003/followers')).json().followers).toHaveLength(1);

    const cleared = await call('owner', 'PUT', '/tickets/5003/followers', { webUserIds: [] });
    expect(cleared.json().followers).toEqual([]);
    expect((await call('colleague', 'GET', '/tickets/5003')).statusCode).toBe(404);
    expect(await listItem('colleague', 5003)).toBeUndefined();
  });
});

describe('overview', () => {
  it('gathers the sections the contact may see, in one answer', async () => {
    await agentAnswers(5003, '<p>One more question</p>');
    const res = await call('owner', 'GET', '/overview');
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json() as Overview;
    expect(o.waitingTickets?.items.map((x) => x.id)).toContain(5003);
    expect(o.openTickets!.total).toBeGreaterThanOrEqual(o.openTickets!.items.length);
    expect(o.openTickets!.items.length).toBeLessThanOrEqual(5);
    expect(o.hourBanks).not.toBeNull();
    expect(o.invoices).not.toBeNull();
    expect(o.signatures).toBeDefined();
    expect(o.appointments).toBeDefined();
  });

  it('leaves out what the contact may not see', async () => {
    const o = (await call('noFlag', 'GET', '/overview')).json() as Overview;
    expect(o.waitingTickets).toBeNull();
    expect(o.openTickets).toBeNull();
    expect(o.hourBanks).toBeNull();
    expect(o.invoices).toBeNull();
    // A colleague (no administrator) sees only their own tickets: Anna's is not there.
    const c = (await call('colleague', 'GET', '/overview')).json() as Overview;
    expect(c.openTickets?.items.map((x) => x.id)).not.toContain(5003);
    // Another company's administrator-less contact sees none of ACME company 10's invoices.
    const other = (await call('otherCompany', 'GET', '/overview')).json() as Overview;
    const mine = (await call('owner', 'GET', '/overview')).json() as Overview;
    const numbers = new Set(mine.invoices!.items.map((i) => i.documentNumber));
    expect(other.invoices!.items.filter((i) => numbers.has(i.documentNumber))).toEqual([]);
  });
});
