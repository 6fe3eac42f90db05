/**
 * The portal's triage (issue 28 item 2): a customer's new ticket, reply or low rating on a ticket with
 * neither an assignee nor a group reaches the members of the triage group an admin chose, else the
 * portal's admins, never every member. Both the bell and the e-mails; the setting's route, audit, and
 * a chosen group deleted falls back to the admins.
 */
import { sql } from 'drizzle-orm';
import type { StaffNotificationList } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas, type PersonaAccess } from '../../test/personas';
import { seedStaffPersonas, staffMember } from './staff.fixture';

let t: TestApp;
let owner: PersonaAccess;
let mario: PersonaAccess;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
let sara: Who;
let admin2: Who;

type Who = Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const personas = await seedPersonas(t);
  owner = personas.owner;
  mario = personas.admin;
  staff = await seedStaffPersonas(t);
  sara = await staffMember(t, 'acme', 'sara@acme.example');
  admin2 = await staffMember(t, 'acme', 'anna.admin@acme.example', 'admin');
});
afterAll(async () => {
  await t?.close();
});

const desk = (who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object) =>
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

const lastOutboxId = async () =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.ctx.database.db,
        sql`select coalesce(max(id), 0)::int as n from outbox`,
      )
    )[0]!.n,
  );
/** The staff e-mails (the desk's link) queued after `since`, to whom, sorted. */
const staffMailsSince = async (since: number) =>
  (
    await queryRows<{ to: string }>(
      t.ctx.database.db,
      sql`select payload->>'to' as to from outbox where channel = 'email' and id > ${since}::int
        and payload->>'text' like '%/staff/tickets/%' order by 1`,
    )
  ).map((r) => r.to);
const bellOf = async (who: Who) => {
  const res = await desk(who, 'GET', '/notifications?limit=50');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as StaffNotificationList).items;
};
/** Who holds a `customer_reply` notice of ticket `id`. */
const rungFor = async (id: number) => {
  const who: string[] = [];
  const all = { luca: staff.agentA, boss: staff.adminA, sara, admin2 };
  for (const [name, h] of Object.entries(all))
    if ((await bellOf(h)).some((n) => n.kind === 'customer_reply' && n.ticketId === id)) who.push(name);
  return who.sort();
};
const staffId = async (email: string) =>
  Number(
    (
      await queryRows<{ id: number }>(
        t.ctx.database.db,
        sql`select id from staff_users where email = ${email}`,
      )
    )[0]!.id,
  );

/** A customer's new ticket (no assignee, no group) and the staff mails it queued. */
async function openTicket(title: string): Promise<{ id: number; mailed: string[] }> {
  const mail0 = await lastOutboxId();
  const res = await customer('POST', '/tickets', { title, taskTypeId: 1, description: '<p>Guasto</p>' });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as number, mailed: await staffMailsSince(mail0) };
}

/** The customer's reply on `id` (Anna's, else Mario's) and the staff mails it queued. */
async function reply(id: number, by: PersonaAccess = owner): Promise<string[]> {
  const mail0 = await lastOutboxId();
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/acme/${by.contactId}/comments`,
    headers: by.headers,
    payload: { taskId: id, message: '<p>Novità?</p>' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return staffMailsSince(mail0);
}

const ADMINS = ['anna.admin@acme.example', 'boss@acme.example'];

describe('the triage setting', () => {
  let groupId: number;

  it('is the admins by default: a new ticket and a reply without assignee or group tell them, not the agents', async () => {
    expect((await desk(staff.adminA, 'GET', '/admin/triage')).json()).toEqual({ group: null });
    const opened = await openTicket('Senza gruppo');
    expect(opened.mailed).toEqual(ADMINS);
    expect(await reply(opened.id)).toEqual(ADMINS);
    expect(await rungFor(opened.id)).toEqual(['admin2', 'boss']);
  });

  it('is a group an admin chooses: its members hear of unrouted tickets, audited once', async () => {
    const made = await desk(staff.adminA, 'POST', '/admin/ticket-setup/groups', { name: 'Smistamento' });
    expect(made.statusCode, made.body).toBe(201);
    groupId = made.json().id as number;
    const members = await desk(staff.adminA, 'PUT', `/admin/ticket-setup/groups/${groupId}/members`, {
      staffIds: [await staffId('luca@acme.example'), await staffId('sara@acme.example')],
    });
    expect(members.statusCode, members.body).toBe(200);

    const set = await desk(staff.adminA, 'PUT', '/admin/triage', { groupId });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ group: { id: groupId, name: 'Smistamento' } });
    expect((await desk(admin2, 'GET', '/admin/triage')).json()).toEqual(set.json());
    // The same choice again changes nothing and writes no audit row.
    expect((await desk(staff.adminA, 'PUT', '/admin/triage', { groupId })).statusCode).toBe(200);
    const audit = await queryRows<{ action: string; before: unknown; after: unknown; actor_name: string }>(
      t.ctx.database.db,
      sql`select action, before, after, actor_name from audit_log
        where entity = 'portal' and after::text like '%triageGroup%' order by id`,
    );
    expect(audit).toHaveLength(1);
    const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
    expect({ ...audit[0]!, before: json(audit[0]!.before), after: json(audit[0]!.after) }).toEqual({
      action: 'updated',
      actor_name: 'boss@acme.example',
      before: { triageGroup: null },
      after: { triageGroup: { id: groupId, name: 'Smistamento' } },
    });

    const opened = await openTicket('Da smistare');
    expect(opened.mailed).toEqual(['luca@acme.example', 'sara@acme.example']);
    expect(await reply(opened.id)).toEqual(['luca@acme.example', 'sara@acme.example']);
    expect(await rungFor(opened.id)).toEqual(['luca', 'sara']);
  });

  it('still routes a ticket with an assignee or a group as before', async () => {
    // 5001 is Luca's (the import's agent 1): the triage group does not widen it to Sara.
    expect(await reply(5001, mario)).toEqual(['luca@acme.example']);
    // 5002 has group 1 and no assignee: the group's members, once it has some.
    const one = await desk(staff.adminA, 'PUT', '/admin/ticket-setup/groups/1/members', {
      staffIds: [await staffId('anna.admin@acme.example')],
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(await reply(5002, mario)).toEqual(['anna.admin@acme.example']);
  });

  it('falls back to the admins while none of the group may sign in', async () => {
    await t.ctx.database.db.execute(
      sql`update staff_users set status = 'disabled' where email in ('luca@acme.example', 'sara@acme.example')`,
    );
    try {
      const opened = await openTicket('Gruppo assente');
      expect(opened.mailed).toEqual(ADMINS);
      expect(await reply(opened.id)).toEqual(ADMINS);
    } finally {
      await t.ctx.database.db.execute(
        sql`update staff_users set status = 'active' where email in ('luca@acme.example', 'sara@acme.example')`,
      );
    }
  });

  it('refuses a group the portal has not, and takes the admins back with null', async () => {
    for (const groupId of [987654, -1, '1', 2 ** 60]) {
      const res = await desk(staff.adminA, 'PUT', '/admin/triage', { groupId });
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
    }
    const unknown = await desk(staff.adminA, 'PUT', '/admin/triage', { groupId: 987654 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().code).toBe('unknown_reference');
    expect((await desk(staff.adminA, 'PUT', '/admin/triage', {})).statusCode).toBe(400);
    expect((await desk(staff.adminA, 'PUT', '/admin/triage', { groupId: null, x: 1 })).statusCode).toBe(400);
    // An agent may neither read nor choose.
    expect((await desk(staff.agentA, 'GET', '/admin/triage')).statusCode).toBe(403);
    expect((await desk(staff.agentA, 'PUT', '/admin/triage', { groupId: null })).statusCode).toBe(403);
    expect((await desk(staff.adminA, 'PUT', '/admin/triage', { groupId })).statusCode).toBe(200);
  });

  it('falls back to the admins when the chosen group is deleted', async () => {
    const removed = await desk(staff.adminA, 'DELETE', `/admin/ticket-setup/groups/${groupId}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await desk(staff.adminA, 'GET', '/admin/triage')).json()).toEqual({ group: null });
    const [row] = await queryRows<{ g: number | null }>(
      t.ctx.database.db,
      sql`select triage_group_id as g from portals where key = 'acme'`,
    );
    expect(row!.g).toBeNull();
    const opened = await openTicket('Dopo la rimozione');
    expect(opened.mailed).toEqual(ADMINS);
    expect(await reply(opened.id)).toEqual(ADMINS);
  });
});
