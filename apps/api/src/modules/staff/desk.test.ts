/**
 * The staff desk's writes (issue 13): replies and internal notes, ticket changes and their timeline,
 * read marks, uploads, members' groups, preferences and agent e-mails, unread counts, presence. The
 * proofs that an internal note stays with the staff look where a customer could see it: the customer
 * detail and lists, the task page, the e-mail outbox and the events a back office reads.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSweeper } from '../../platform/file-sweeper';
import { PENDING_UPLOADS } from '../../platform/files';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { multipartFile, seedPersonas, type Persona, type PersonaAccess } from '../../test/personas';
import { seedStaffPersonas, staffMember } from './staff.fixture';

let t: TestApp;
let personas: Record<Persona, PersonaAccess>;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

beforeAll(async () => {
  t = await createTestApp();
  personas = await seedPersonas(t);
  staff = await seedStaffPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
async function q<T>(s: ReturnType<typeof sql>): Promise<T[]> {
  return rows<T>(await t.ctx.database.db.execute(s));
}
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

interface Mail {
  to: string;
  subject: string;
  text: string;
}
async function mailsSince(id: number): Promise<Mail[]> {
  const list = await q<{ payload: Mail | string }>(
    sql`select payload from outbox where channel = 'email' and id > ${id} order by id`,
  );
  return list.map((r) => json(r.payload));
}
const lastOutboxId = async () =>
  Number((await q<{ id: number | null }>(sql`select max(id)::int as id from outbox`))[0]?.id ?? 0);
const lastEventId = async () =>
  Number((await q<{ id: string | null }>(sql`select max(id)::text as id from events`))[0]?.id ?? 0);
async function eventsSince(id: number): Promise<{ type: string; source: unknown; data: string }[]> {
  const list = await q<{ type: string; source: unknown; data: unknown }>(
    sql`select type, source, data::text as data from events where id > ${id} order by id`,
  );
  return list.map((e) => ({ type: e.type, source: json(e.source), data: String(e.data) }));
}

const base = '/api/staff/portals/acme/tickets';
const staffPost = (who: Record<string, string>, url: string, payload: unknown, method = 'POST') =>
  t.app.inject({ method: method as 'POST', url, headers: who, payload: payload as Record<string, unknown> });
const staffGet = (who: Record<string, string>, url: string) =>
  t.app.inject({ method: 'GET', url, headers: who });
const customerDetail = async (ticket: number, p: PersonaAccess = personas.admin) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/${p.company}/${p.contactId}/tickets/${ticket}`,
    headers: p.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

describe('replies and internal notes', () => {
  const NOTE = 'NOTA-DESK-riservatissima';
  const REPLY = 'Risposta-pubblica-del-desk';

  it('a public reply reaches the customer, by e-mail and event, and makes the ticket wait for them', async () => {
    const mail0 = await lastOutboxId();
    const ev0 = await lastEventId();
    const res = await staffPost(staff.agentA, `${base}/5003/comments`, {
      message: `<p>${REPLY}</p><script>alert(1)</script>`,
      internal: false,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ internal: false, author: { kind: 'agent', name: 'ACME Agent Luca' } });
    // Sanitised as every user's HTML.
    expect(res.json().message).not.toContain('script');

    const detail = (await customerDetail(5003, personas.owner)).json();
    const mine = detail.comments.find((c: { message: string }) => c.message.includes(REPLY));
    expect(mine.senderUser).toMatchObject({ displayName: 'ACME Agent Luca' });

    const mails = await mailsSince(mail0);
    expect(mails.map((m) => m.to)).toEqual(['anna@acme.example']);
    expect(mails[0]!.text).toContain(REPLY);
    const evs = await eventsSince(ev0);
    expect(evs.map((e) => e.type)).toEqual(['agent.comment_added']);
    expect(evs[0]!.source).toMatchObject({ type: 'staff', userName: 'ACME Agent Luca' });
    expect(evs[0]!.data).toContain(REPLY);

    const staffView = (await staffGet(staff.adminA, `${base}/5003`)).json();
    expect(staffView.waitingOnCustomer).toBe(true);
    // The author has read their own reply; the other agent has not.
    const inbox = (await staffGet(staff.agentA, `${base}?q=5003`)).json();
    expect(inbox.items[0].unread).toBe(false);
  });

  it('the customer replying hands the ticket back to the staff', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/acme/102/comments',
      headers: personas.owner.headers,
      payload: { taskId: 5003, message: '<p>Grazie, ma non va</p>' },
    });
    expect(res.statusCode).toBe(201);
    const staffView = (await staffGet(staff.agentA, `${base}/5003`)).json();
    expect(staffView.waitingOnCustomer).toBe(false);
  });

  it('an internal note stays with the staff: no customer answer, task page, e-mail or event has it', async () => {
    const mail0 = await lastOutboxId();
    const ev0 = await lastEventId();
    for (const ticket of [5001, 5003]) {
      const res = await staffPost(staff.agentA, `${base}/${ticket}/comments`, {
        message: `<p>${NOTE}</p>`,
        internal: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().internal).toBe(true);
    }
    // Staff see it, marked internal.
    const staffView = (await staffGet(staff.adminA, `${base}/5001`)).json();
    expect(staffView.comments.filter((c: { message: string }) => c.message.includes(NOTE))).toEqual([
      expect.objectContaining({ internal: true }),
    ]);
    // A note does not make the ticket wait for the customer.
    expect((await staffGet(staff.adminA, `${base}/5003`)).json().waitingOnCustomer).toBe(false);
    // The customer side: details and lists of every persona that reaches the tickets.
    for (const p of ['owner', 'admin'] as const) {
      const { headers, company, contactId } = personas[p];
      for (const url of [
        `/api/${company}/${contactId}/tickets/5003`,
        `/api/${company}/${contactId}/tickets/5001`,
        `/api/${company}/${contactId}/tickets`,
        `/api/${company}/${contactId}/tickets/all`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.body, `${url} as ${p}`).not.toContain(NOTE);
      }
    }
    const task = await t.app.inject({ method: 'GET', url: '/api/tasks/acme/acme-task-3c4d5e6f7a8b9c0d' });
    expect(task.statusCode).toBe(200);
    expect(task.body).not.toContain(NOTE);
    expect(await mailsSince(mail0)).toEqual([]);
    expect(await eventsSince(ev0)).toEqual([]);
    // The feed a back office reads (integration API) has the reply of the test above, not the note.
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/admin/portals/acme/keys',
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      payload: { name: 'CRM', scopes: ['events'] },
    });
    const feed = await t.app.inject({
      method: 'GET',
      url: '/api/integration/v1/events?limit=1000',
      headers: { authorization: `Bearer ${made.json().secret as string}` },
    });
    expect(feed.statusCode).toBe(200);
    expect(feed.body).toContain(REPLY);
    expect(feed.body).not.toContain(NOTE);
  });

  it('refuses an empty reply, a ticket of another portal, and a missing internal flag', async () => {
    const empty = await staffPost(staff.agentA, `${base}/5003/comments`, {
      message: '<p> </p>',
      internal: false,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('empty_comment');
    const none = await staffPost(staff.agentA, `${base}/999999/comments`, { message: 'x', internal: true });
    expect(none.statusCode).toBe(404);
    const noFlag = await staffPost(staff.agentA, `${base}/5003/comments`, { message: 'x' });
    expect(noFlag.statusCode).toBe(400);
  });

  it('attaches a staff upload once, by its uploader only; the customer gets its link', async () => {
    const m = multipartFile('rapporto.txt', 'contenuto', 'text/plain');
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/staff/portals/acme/uploads',
      headers: { ...staff.agentA, ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const fileId = up.json().id as number;
    // Another staff user cannot take it.
    const stolen = await staffPost(staff.adminA, `${base}/5003/comments`, {
      message: 'x',
      internal: false,
      attachments: [fileId],
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().code).toBe('attachment_unavailable');
    const ok = await staffPost(staff.agentA, `${base}/5003/comments`, {
      message: '',
      internal: false,
      attachments: [fileId],
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().attachments).toEqual([expect.objectContaining({ name: 'rapporto.txt' })]);
    const file = await t.app.inject({ method: 'GET', url: ok.json().attachments[0].url });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('contenuto');
    const again = await staffPost(staff.agentA, `${base}/5003/comments`, {
      message: 'x',
      internal: false,
      attachments: [fileId],
    });
    expect(again.statusCode).toBe(400);
    const detail = (await customerDetail(5003, personas.owner)).json();
    const withFile = detail.comments.find((c: { attachments: unknown[] }) => c.attachments.length > 0);
    expect(withFile.attachments[0].name).toBe('rapporto.txt');
  });
});

describe('ticket changes and the timeline', () => {
  it('changes step, type, assignee, group and next activity; the customer sees the public ones', async () => {
    const ev0 = await lastEventId();
    const res = await staffPost(
      staff.agentA,
      `${base}/6001`,
      { stepId: 2, typeId: 2, assigneeId: 1, groupId: 1, nextPlannedActivityInfo: 'Sopralluogo lunedì' },
      'PATCH',
    );
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({
      step: { id: 2 },
      type: { id: 2 },
      assignee: { id: 1 },
      group: { id: 1 },
      nextPlannedActivityInfo: 'Sopralluogo lunedì',
    });
    const by = { kind: 'agent', name: 'ACME Agent Luca' };
    expect(d.timeline).toEqual([
      expect.objectContaining({
        kind: 'step',
        public: true,
        from: { id: 1, name: 'Nuovo' },
        to: { id: 2, name: 'In lavorazione' },
        by,
      }),
      expect.objectContaining({
        kind: 'assignee',
        public: false,
        from: null,
        to: { id: 1, name: 'ACME Agent Luca' },
      }),
      expect.objectContaining({
        kind: 'group',
        public: false,
        from: null,
        to: { id: 1, name: 'ACME Helpdesk' },
      }),
      expect.objectContaining({ kind: 'type', public: false }),
      expect.objectContaining({
        kind: 'next_activity',
        public: false,
        to: { id: null, name: 'Sopralluogo lunedì' },
      }),
    ]);
    // Not a close or reopen: no event.
    expect(await eventsSince(ev0)).toEqual([]);

    const p = personas.otherCompany;
    const customer = (await customerDetail(6001, p)).json();
    expect(customer.timeline).toEqual([
      expect.objectContaining({
        kind: 'step',
        fromStep: { id: 1, name: 'Nuovo' },
        toStep: { id: 2, name: 'In lavorazione' },
        by,
      }),
    ]);
  });

  it('closing and reopening are public, from either side, with their events', async () => {
    const ev0 = await lastEventId();
    const close = await staffPost(staff.adminA, `${base}/6001`, { stepId: 3 }, 'PATCH');
    expect(close.statusCode).toBe(200);
    expect(close.json().closed).toBe(true);
    expect((await eventsSince(ev0)).map((e) => e.type)).toEqual(['ticket.closed']);
    const p = personas.otherCompany;
    // The customer replies to the closed ticket: it reopens, by the contact.
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/${p.company}/${p.contactId}/comments`,
      headers: p.headers,
      payload: { taskId: 6001, message: '<p>Ancora rotto</p>' },
    });
    expect(reply.statusCode).toBe(201);
    const timeline = (await customerDetail(6001, p)).json().timeline as {
      kind: string;
      by: { kind: string };
    }[];
    expect(timeline.map((e) => [e.kind, e.by.kind])).toEqual([
      ['step', 'agent'],
      ['closed', 'agent'],
      ['reopened', 'contact'],
    ]);
    const staffTimeline = (await staffGet(staff.agentA, `${base}/6001`)).json().timeline as {
      kind: string;
    }[];
    expect(staffTimeline.map((e) => e.kind)).toEqual([
      'step',
      'assignee',
      'group',
      'type',
      'next_activity',
      'closed',
      'reopened',
    ]);
  });

  it('refuses ids that are not the portal’s and an empty change, changing nothing', async () => {
    const before = (await staffGet(staff.agentA, `${base}/5004`)).json();
    for (const body of [{ stepId: 99 }, { typeId: 99 }, { assigneeId: 99 }, { groupId: 99, stepId: 2 }]) {
      const res = await staffPost(staff.agentA, `${base}/5004`, body, 'PATCH');
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('unknown_reference');
    }
    const empty = await staffPost(staff.agentA, `${base}/5004`, {}, 'PATCH');
    expect(empty.json().code).toBe('nothing_to_change');
    const extra = await staffPost(staff.agentA, `${base}/5004`, { title: 'x' }, 'PATCH');
    expect(extra.statusCode).toBe(400);
    const after = (await staffGet(staff.agentA, `${base}/5004`)).json();
    expect(after.step).toEqual(before.step);
    expect(after.timeline).toEqual(before.timeline);
  });

  it('unassigns and clears the next activity with null', async () => {
    const res = await staffPost(
      staff.agentA,
      `${base}/5004`,
      { assigneeId: null, nextPlannedActivityInfo: null },
      'PATCH',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().assignee).toBeNull();
    expect(res.json().timeline.at(-1)).toMatchObject({ kind: 'assignee', from: { id: 1 }, to: null });
  });
});

describe('read marks', () => {
  it('marks a ticket unread and read again', async () => {
    const unreadOf = async () =>
      (await staffGet(staff.agentA, `${base}?q=5002&view=closed`)).json().items[0].unread;
    await staffGet(staff.agentA, `${base}/5002`);
    expect(await unreadOf()).toBe(false);
    const un = await staffPost(staff.agentA, `${base}/5002/read`, { read: false }, 'PUT');
    expect(un.statusCode).toBe(204);
    expect(await unreadOf()).toBe(true);
    await staffPost(staff.agentA, `${base}/5002/read`, { read: true }, 'PUT');
    expect(await unreadOf()).toBe(false);
  });
});

describe('staff members, groups and options', () => {
  it('lets an admin set a member’s groups, which make the "My groups" view', async () => {
    const list = (await staffGet(staff.agentA, '/api/staff/portals/acme/staff')).json() as {
      id: number;
      email: string;
      groupIds: number[];
      agentId: number | null;
    }[];
    const luca = list.find((m) => m.email === 'luca@acme.example')!;
    expect(luca).toMatchObject({ groupIds: [], agentId: 1 });
    // Every member is an agent: the admin too (numbered after the import's agents).
    expect(list.every((m) => m.agentId !== null)).toBe(true);
    const url = `/api/staff/portals/acme/staff/${luca.id}/groups`;
    const asAgent = await staffPost(staff.agentA, url, { groupIds: [1] }, 'PUT');
    expect(asAgent.statusCode).toBe(403);
    const unknown = await staffPost(staff.adminA, url, { groupIds: [1, 77] }, 'PUT');
    expect(unknown.json().code).toBe('unknown_reference');
    const set = await staffPost(staff.adminA, url, { groupIds: [1] }, 'PUT');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().groupIds).toEqual([1]);
    const groups = (await staffGet(staff.agentA, `${base}?view=groups`)).json();
    expect(groups.items.length).toBeGreaterThan(0);
    expect(groups.counts.groups).toBeGreaterThan(0);
    const options = (await staffGet(staff.agentA, '/api/staff/portals/acme/options')).json();
    expect(options.me).toMatchObject({ agentId: 1, groupIds: [1] });
    expect(options.steps.map((s: { id: number }) => s.id)).toEqual([1, 2, 3]);
    expect(options.agents).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 1, staffUserId: luca.id })]),
    );
    // A member of another portal is not found here.
    const foreign = (await staffGet(staff.agentB, '/api/staff/portals/beta/staff')).json() as {
      id: number;
    }[];
    const res = await staffPost(
      staff.adminA,
      `/api/staff/portals/acme/staff/${foreign[0]!.id}/groups`,
      { groupIds: [] },
      'PUT',
    );
    expect(res.statusCode).toBe(404);
    // Setting the groups of beta's agent in beta leaves Luca's acme groups alone.
    expect((await staffGet(staff.agentA, '/api/staff/portals/acme/options')).json().me.groupIds).toEqual([1]);
  });
});

describe('agent e-mails and preferences', () => {
  it("mails a new ticket without assignee or group to the portal's triage group, as each chose", async () => {
    // The triage group (issue 28 item 2) is group 1, Luca's since the test above, with the admin too
    // for this test.
    const found = (await t.ctx.database.db.execute(
      sql`select id, email from staff_users where email in ('boss@acme.example', 'luca@acme.example')`,
    )) as unknown as { rows: { id: number; email: string }[] };
    const idOf = (email: string) => Number(found.rows.find((r) => r.email === email)!.id);
    const group1 = '/api/staff/portals/acme/admin/ticket-setup/groups/1/members';
    const both = { staffIds: [idOf('luca@acme.example'), idOf('boss@acme.example')] };
    expect((await staffPost(staff.adminA, group1, both, 'PUT')).statusCode).toBe(200);
    const triage = await staffPost(
      staff.adminA,
      '/api/staff/portals/acme/admin/triage',
      { groupId: 1 },
      'PUT',
    );
    expect(triage.statusCode, triage.body).toBe(200);
    const pref = await staffPost(staff.adminA, '/api/staff/me/preferences', { emailNewTicket: false }, 'PUT');
    expect(pref.json()).toEqual({
      emailNewTicket: false,
      emailCustomerReply: true,
      emailLowRating: true,
      emailAssigned: true,
      emailMention: true,
      emailSla: true,
    });
    expect((await staffGet(staff.adminA, '/api/staff/me/preferences')).json()).toEqual(pref.json());
    const mail0 = await lastOutboxId();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/acme/102/tickets',
      headers: personas.owner.headers,
      payload: { title: 'Nuovo guasto', taskTypeId: 1, description: '<p>Il server non parte</p>' },
    });
    expect(res.statusCode).toBe(201);
    const to = (await mailsSince(mail0)).map((m) => m.to).sort();
    // Luca (agent) yes, the admin turned it off; beta's agent is no member of acme.
    expect(to).toContain('luca@acme.example');
    expect(to).not.toContain('boss@acme.example');
    expect(to).not.toContain('agent@beta.example');
    const mail = (await mailsSince(mail0)).find((m) => m.to === 'luca@acme.example')!;
    expect(mail.text).toContain('Il server non parte');
    expect(mail.text).toContain(`/acme/staff/tickets/${res.json().id}`);
    const luca = { staffIds: [idOf('luca@acme.example')] };
    expect((await staffPost(staff.adminA, group1, luca, 'PUT')).statusCode).toBe(200);
  });

  it('mails a customer reply to the assignee only, else to the group', async () => {
    // 5001 is assigned to Luca.
    let mail0 = await lastOutboxId();
    await t.app.inject({
      method: 'POST',
      url: '/api/acme/101/comments',
      headers: personas.admin.headers,
      payload: { taskId: 5001, message: '<p>Novità?</p>' },
    });
    expect((await mailsSince(mail0)).map((m) => m.to)).toEqual(['luca@acme.example']);
    // 5002: no assignee, group 1 (Luca's group since the test above).
    mail0 = await lastOutboxId();
    await t.app.inject({
      method: 'POST',
      url: '/api/acme/101/comments',
      headers: personas.admin.headers,
      payload: { taskId: 5002, message: '<p>Riapro</p>' },
    });
    expect((await mailsSince(mail0)).map((m) => m.to)).toEqual(['luca@acme.example']);
    // Turned off: nothing, and no fallback to others.
    await staffPost(staff.agentA, '/api/staff/me/preferences', { emailCustomerReply: false }, 'PUT');
    mail0 = await lastOutboxId();
    await t.app.inject({
      method: 'POST',
      url: '/api/acme/101/comments',
      headers: personas.admin.headers,
      payload: { taskId: 5001, message: '<p>Ancora?</p>' },
    });
    expect(await mailsSince(mail0)).toEqual([]);
  });
});

describe('unread counts', () => {
  it('answers at once without since, and waits for a change with since', async () => {
    const url = '/api/staff/portals/acme/unread';
    const first = (await staffGet(staff.adminA, url)).json();
    expect(first.unread.open).toBeGreaterThan(0);
    expect(first.counts.open).toBeGreaterThan(0);
    const same = await staffGet(staff.adminA, `${url}?since=${first.version}&wait=0`);
    expect(same.json().version).toBe(first.version);
    const started = Date.now();
    const waiting = staffGet(staff.adminA, `${url}?since=${first.version}&wait=20`);
    // Another agent's reply makes a ticket unread for the admin (it was read).
    await staffGet(staff.adminA, `${base}/5004`);
    await staffPost(staff.agentA, `${base}/5004/comments`, { message: 'Aggiornamento', internal: true });
    const changed = (await waiting).json();
    expect(changed.version).not.toBe(first.version);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('presence', () => {
  it('shows who else has the ticket open or is replying, until the heartbeat expires', async () => {
    const url = `${base}/5004/presence`;
    const mine = await staffPost(staff.agentA, url, { state: 'replying' });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().others).toEqual([]);
    const admin = await staffPost(staff.adminA, url, { state: 'viewing' });
    expect(admin.json().others).toEqual([
      expect.objectContaining({ displayName: 'ACME Agent Luca', state: 'replying' }),
    ]);
    const detail = (await staffGet(staff.agentA, `${base}/5004`)).json();
    expect(detail.presence).toEqual([expect.objectContaining({ state: 'viewing' })]);
    await staffPost(staff.adminA, url, { state: 'left' });
    expect((await staffGet(staff.agentA, `${base}/5004`)).json().presence).toEqual([]);
    await staffPost(staff.adminA, url, { state: 'viewing' });
    t.clock.advance(31_000);
    expect((await staffGet(staff.agentA, `${base}/5004`)).json().presence).toEqual([]);
    const none = await staffPost(staff.agentA, `${base}/424242/presence`, { state: 'viewing' });
    expect(none.statusCode).toBe(404);
  });

  it('takes heartbeats of one agent at the same moment (two tabs)', async () => {
    const url = `${base}/5003/presence`;
    const both = await Promise.all(
      ['viewing', 'replying', 'viewing', 'replying'].map((state) => staffPost(staff.agentA, url, { state })),
    );
    expect(both.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const seen = (await staffGet(staff.adminA, `${base}/5003`)).json().presence;
    expect(seen).toHaveLength(1);
  });

  it('an agent of another portal never sees or touches this portal', async () => {
    const res = await staffPost(staff.agentB, `${base}/5004/presence`, { state: 'viewing' });
    expect(res.statusCode).toBe(403);
    expect(await staffMember(t, 'beta', 'other@beta.example')).toBeDefined();
  });
});

// Last: it moves the clock past every session's life.
describe('staff uploads never attached', () => {
  it('are swept after 24 hours, as the contacts’ are', async () => {
    const m = multipartFile('bozza.txt', 'mai allegato', 'text/plain');
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/staff/portals/acme/uploads',
      headers: { ...staff.agentA, ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode).toBe(201);
    const exists = async () =>
      (
        await q<{ n: number }>(sql`select count(*)::int as n from files where id = ${up.json().id as number}`)
      )[0]!.n;
    const sweeper = new FileSweeper(t.ctx, t.app.log);
    await sweeper.sweep();
    expect(await exists()).toBe(1);
    t.clock.advance(PENDING_UPLOADS.ttlMs + 60_000);
    await sweeper.sweep();
    expect(await exists()).toBe(0);
  });
});
