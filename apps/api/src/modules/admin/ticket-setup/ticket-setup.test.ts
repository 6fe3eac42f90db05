/**
 * The portal's ticket types, status steps and assignee groups in the desk's administration (issue 14
 * item 5): admins only; one default and one closing step at all times; a row in use stays; each change
 * audited and emitted once in its transaction; bad input is a 4xx that changes nothing.
 */
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../platform/sql-json';
import { createTestApp, type TestApp } from '../../../test/harness';
import { seedPersonas } from '../../../test/personas';
import { staffMember } from '../../staff/staff.fixture';

let t: TestApp;
let admin: Record<string, string>;
let agent: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await seedPersonas(t);
  admin = await staffMember(t, 'acme', 'boss@acme.example', 'admin');
  agent = await staffMember(t, 'acme', 'luca@acme.example');
});
afterAll(async () => {
  await t?.close();
});

const ROOT = '/api/staff/portals/acme/admin/ticket-setup';
const call = (method: InjectOptions['method'], url: string, who: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers: who, ...(payload === undefined ? {} : { payload }) });

type Options = {
  steps: { id: number; name: string; taskStatus: number; isDefault: boolean; isClosing: boolean }[];
  types: { id: number; name: string; color: string | null }[];
  groups: { id: number; name: string }[];
};
const options = async () => (await call('GET', '/api/staff/portals/acme/options', agent)).json() as Options;
const counts = async () =>
  (
    await queryRows<{ audits: number; events: number }>(
      t.ctx.database.db,
      sql`select (select count(*)::int from audit_log) as audits, (select count(*)::int from events) as events`,
    )
  )[0]!;

describe('ticket setup in the administration', () => {
  it('is refused to agents, and changes nothing', async () => {
    const before = await options();
    expect((await call('POST', `${ROOT}/types`, agent, { name: 'Nope' })).statusCode).toBe(403);
    expect((await call('DELETE', `${ROOT}/steps/${before.steps[0]!.id}`, agent)).statusCode).toBe(403);
    expect(await options()).toEqual(before);
  });

  it('adds, renames and removes a type, a step and a group, each audited and emitted once', async () => {
    const before = await counts();
    const type = await call('POST', `${ROOT}/types`, admin, { name: 'Installation', color: '#2b8a3e' });
    expect(type.statusCode, type.body).toBe(201);
    const typeId = type.json().id as number;
    expect(Math.max(...(await options()).types.map((x) => x.id))).toBe(typeId);
    const step = await call('POST', `${ROOT}/steps`, admin, { name: 'Waiting for parts', taskStatus: 1 });
    expect(step.statusCode, step.body).toBe(201);
    const group = await call('POST', `${ROOT}/groups`, admin, { name: 'Field team' });
    expect(group.statusCode, group.body).toBe(201);
    const renamed = await call('PATCH', `${ROOT}/steps/${step.json().id}`, admin, { name: 'Parts ordered' });
    expect(renamed.json()).toMatchObject({ name: 'Parts ordered', isDefault: false });
    const o = await options();
    expect(o.types.map((x) => x.name)).toContain('Installation');
    expect(o.steps.map((x) => x.name)).toContain('Parts ordered');
    expect(o.groups.map((x) => x.name)).toContain('Field team');
    for (const [kind, id] of [
      ['types', typeId],
      ['steps', step.json().id],
      ['groups', group.json().id],
    ] as const)
      expect((await call('DELETE', `${ROOT}/${kind}/${id}`, admin)).statusCode).toBe(204);
    const after = await counts();
    expect(after.audits - before.audits).toBe(7);
    expect(after.events - before.events).toBe(7);
    const kinds = await queryRows<{ type: string }>(
      t.ctx.database.db,
      sql`select type from events order by id desc limit 7`,
    );
    expect(kinds.map((k) => k.type).sort()).toEqual(
      [
        'assignee_group.created',
        'assignee_group.deleted',
        'status_step.created',
        'status_step.deleted',
        'status_step.updated',
        'ticket_type.created',
        'ticket_type.deleted',
      ].sort(),
    );
  });

  it('keeps one default and one closing step: the mark moves, never disappears', async () => {
    const o = await options();
    const oldDefault = o.steps.find((s) => s.isDefault)!;
    const created = await call('POST', `${ROOT}/steps`, admin, {
      name: 'Triage',
      taskStatus: 0,
      isDefault: true,
    });
    expect(created.statusCode).toBe(201);
    const steps = (await options()).steps;
    expect(steps.filter((s) => s.isDefault).map((s) => s.id)).toEqual([created.json().id]);
    // Un-marking the default, or removing it, is refused.
    const unmark = await call('PATCH', `${ROOT}/steps/${created.json().id}`, admin, { isDefault: false });
    expect(unmark.statusCode).toBe(409);
    expect(unmark.json().code).toBe('step_required');
    expect((await call('DELETE', `${ROOT}/steps/${created.json().id}`, admin)).json().code).toBe(
      'step_required',
    );
    // Back as it was.
    await call('PATCH', `${ROOT}/steps/${oldDefault.id}`, admin, { isDefault: true });
    expect((await options()).steps.filter((s) => s.isDefault).map((s) => s.id)).toEqual([oldDefault.id]);
    expect((await call('DELETE', `${ROOT}/steps/${created.json().id}`, admin)).statusCode).toBe(204);
  });

  it('audits and emits the step that loses the default or closing mark, in the same transaction', async () => {
    const o = await options();
    const oldDefault = o.steps.find((s) => s.isDefault)!;
    const last = (
      await queryRows<{ last: number }>(
        t.ctx.database.db,
        sql`select coalesce(max(id), 0)::int as last from events`,
      )
    )[0]!.last;
    const created = await call('POST', `${ROOT}/steps`, admin, {
      name: 'Intake',
      taskStatus: 0,
      isDefault: true,
    });
    expect(created.statusCode).toBe(201);
    const events = await queryRows<{
      type: string;
      data: Record<string, { id: number; isDefault: boolean }>;
    }>(t.ctx.database.db, sql`select type, data from events where id > ${last} order by id`);
    // A back office mirroring the steps hears that the old default is no longer one.
    const lost = events.find((e) => e.type === 'status_step.updated');
    expect(lost?.data.status_step).toMatchObject({ id: oldDefault.id, isDefault: false });
    expect(lost?.data.previous).toMatchObject({ id: oldDefault.id, isDefault: true });
    expect(events.map((e) => e.type).sort()).toEqual(['status_step.created', 'status_step.updated']);
    const audit = await queryRows<{ action: string }>(
      t.ctx.database.db,
      sql`select action from audit_log where entity = 'status_step' and entity_id = ${String(oldDefault.id)}`,
    );
    expect(audit.map((r) => r.action)).toContain('updated');
    await call('PATCH', `${ROOT}/steps/${oldDefault.id}`, admin, { isDefault: true });
    expect((await call('DELETE', `${ROOT}/steps/${created.json().id}`, admin)).statusCode).toBe(204);
  });

  it('refuses to remove what tickets use, and bad input, changing nothing', async () => {
    const before = await options();
    const closing = before.steps.find((x) => x.isClosing)!;
    const defaultStep = before.steps.find((x) => x.isDefault)!;
    const audits = (await counts()).audits;
    const [used] = await queryRows<{ type_ext: number; step_ext: number }>(
      t.ctx.database.db,
      sql`select tt.ext_id as type_ext, ss.ext_id as step_ext from tickets t
        join ticket_types tt on tt.id = t.type_id join status_steps ss on ss.id = t.status_step_id
        join portals p on p.id = t.portal_id where p.key = 'acme' and not ss.is_default and not ss.is_closing limit 1`,
    );
    const inUse = await call('DELETE', `${ROOT}/types/${used!.type_ext}`, admin);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().code).toBe('entity_in_use');
    expect((await call('DELETE', `${ROOT}/steps/${used!.step_ext}`, admin)).json().code).toBe(
      'entity_in_use',
    );
    const bad: [string, string, object | undefined, number][] = [
      ['POST', 'types', { name: '' }, 400],
      ['POST', 'types', { name: 'a\u0000b' }, 400],
      ['POST', 'types', { name: 'x'.repeat(501) }, 400],
      ['POST', 'types', { name: 'Red', color: 'url(x)' }, 400],
      ['POST', 'steps', { name: 'No status' }, 400],
      ['POST', 'steps', { name: 'Huge', taskStatus: 2 ** 31 }, 400],
      ['POST', 'groups', { name: 'G', extra: 1 }, 400],
      ['POST', 'groups', { name: 'G', unknown: 1 }, 400],
      ['PATCH', `steps/${used!.step_ext}`, { isDefault: null }, 400],
      ['PATCH', 'types/999999', { name: 'Ghost' }, 404],
      ['PATCH', `types/${used!.type_ext}`, {}, 400],
      ['DELETE', 'groups/999999', undefined, 404],
      // The closing status must close (a customer's close would leave the ticket open) and the default
      // must not (new tickets would start closed).
      ['POST', 'steps', { name: 'Fake close', taskStatus: 1, isClosing: true }, 422],
      ['POST', 'steps', { name: 'Born closed', taskStatus: 2, isDefault: true }, 422],
      ['PATCH', `steps/${closing.id}`, { taskStatus: 0 }, 422],
      ['PATCH', `steps/${defaultStep.id}`, { taskStatus: 2 }, 422],
    ];
    for (const [method, path, payload, status] of bad) {
      const res = await call(method as InjectOptions['method'], `${ROOT}/${path}`, admin, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(status);
      expect(res.json()).toHaveProperty('code');
    }
    expect(await options()).toEqual(before);
    expect((await counts()).audits).toBe(audits);
  });
});

describe('names unique per kind', () => {
  it('answers 409 name_taken for a second type, status or group of the same name, any case; nothing written', async () => {
    const o = await options();
    const before = await counts();
    for (const [kind, taken, extra] of [
      ['types', o.types[0]!.name, {}],
      ['steps', o.steps[0]!.name, { taskStatus: 1 }],
      ['groups', o.groups[0]!.name, {}],
    ] as const) {
      for (const name of [taken, taken.toUpperCase(), taken.toLowerCase(), ` ${taken} `]) {
        const res = await call('POST', `${ROOT}/${kind}`, admin, { name, ...extra });
        expect([res.statusCode, res.json().code], `${kind} ${name}`).toEqual([409, 'name_taken']);
        expect(res.json().message).toEqual(expect.any(String));
      }
    }
    // Renaming onto another's name is refused too; a row keeps (or recases) its own name.
    const [a, b] = o.types;
    const onto = await call('PATCH', `${ROOT}/types/${a!.id}`, admin, { name: b!.name.toUpperCase() });
    expect([onto.statusCode, onto.json().code]).toEqual([409, 'name_taken']);
    expect(await options()).toEqual(o);
    expect(await counts()).toEqual(before);
    const same = await call('PATCH', `${ROOT}/types/${a!.id}`, admin, { name: a!.name });
    expect(same.statusCode).toBe(200);
    // The same name in another kind, or in another portal, is free.
    const other = await call('POST', `${ROOT}/groups`, admin, { name: o.types[0]!.name });
    expect(other.statusCode, other.body).toBe(201);
    expect((await call('DELETE', `${ROOT}/groups/${other.json().id}`, admin)).statusCode).toBe(204);
    const beta = await staffMember(t, 'beta', 'boss@beta.example', 'admin');
    const elsewhere = await call('POST', '/api/staff/portals/beta/admin/ticket-setup/groups', beta, {
      name: o.groups[0]!.name,
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
  });
});

describe("a group's members, set from the group", () => {
  const members = async () =>
    (await call('GET', '/api/staff/portals/acme/admin/staff', admin)).json() as {
      id: number;
      email: string;
      groupIds: number[];
    }[];

  it('sets exactly the members listed; the staff list and My groups follow; audited and emitted once', async () => {
    const group = (await call('POST', `${ROOT}/groups`, admin, { name: 'Night shift' })).json() as {
      id: number;
    };
    const staff = await members();
    const boss = staff.find((m) => m.email === 'boss@acme.example')!;
    const luca = staff.find((m) => m.email === 'luca@acme.example')!;
    const since = await counts();
    const set = await call('PUT', `${ROOT}/groups/${group.id}/members`, admin, {
      staffIds: [luca.id, boss.id, luca.id],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({
      id: group.id,
      name: 'Night shift',
      staffIds: [luca.id, boss.id].sort((x, y) => x - y),
    });
    let now = await members();
    expect(now.find((m) => m.id === luca.id)!.groupIds).toContain(group.id);
    expect(now.find((m) => m.id === boss.id)!.groupIds).toContain(group.id);
    // The agent's own groups (the inbox's My groups) hold it.
    const mine = (await call('GET', '/api/staff/portals/acme/options', agent)).json() as {
      me: { groupIds: number[] };
    };
    expect(mine.me.groupIds).toContain(group.id);

    // One member leaves; setting the same members again writes nothing.
    const again = await call('PUT', `${ROOT}/groups/${group.id}/members`, admin, { staffIds: [boss.id] });
    expect(again.json().staffIds).toEqual([boss.id]);
    const mid = await counts();
    expect(
      (await call('PUT', `${ROOT}/groups/${group.id}/members`, admin, { staffIds: [boss.id] })).statusCode,
    ).toBe(200);
    expect(await counts()).toEqual(mid);
    now = await members();
    expect(now.find((m) => m.id === luca.id)!.groupIds).not.toContain(group.id);
    expect(mid.audits - since.audits).toBe(2);
    expect(mid.events - since.events).toBe(2);
    const audit = await queryRows<{
      action: string;
      before: { members: { email: string }[] };
      after: { members: { email: string }[] };
    }>(
      t.ctx.database.db,
      sql`select action, before, after from audit_log
        where entity = 'assignee_group' and entity_id = ${String(group.id)} order by id desc limit 3`,
    );
    audit.reverse();
    expect(audit.map((r) => r.action)).toEqual(['created', 'members_changed', 'members_changed']);
    expect(audit[1]!.before.members).toEqual([]);
    expect(audit[2]!.after.members.map((m) => m.email)).toEqual(['boss@acme.example']);
    const [event] = await queryRows<{
      type: string;
      data: { assignee_group: { id: number; members: unknown[] } };
    }>(t.ctx.database.db, sql`select type, data from events order by id desc limit 1`);
    expect(event!.type).toBe('assignee_group.members_changed');
    expect(event!.data.assignee_group).toMatchObject({
      id: group.id,
      members: [{ id: boss.id, email: 'boss@acme.example' }],
    });

    // Removing the group takes its members along.
    expect((await call('DELETE', `${ROOT}/groups/${group.id}`, admin)).statusCode).toBe(204);
    expect((await members()).every((m) => !m.groupIds.includes(group.id))).toBe(true);
  });

  it("refuses another portal's staff, an unknown group and bad input, changing nothing; agents may not", async () => {
    const group = (await call('POST', `${ROOT}/groups`, admin, { name: 'Closed team' })).json() as {
      id: number;
    };
    const staff = await members();
    const boss = staff.find((m) => m.email === 'boss@acme.example')!;
    await call('PUT', `${ROOT}/groups/${group.id}/members`, admin, { staffIds: [boss.id] });
    const stranger = await staffMember(t, 'beta', 'stranger@beta.example');
    const [strangerRow] = await queryRows<{ id: number }>(
      t.ctx.database.db,
      sql`select id from staff_users where email = 'stranger@beta.example'`,
    );
    const before = await counts();
    const list = await members();
    for (const [path, payload, who, status, code] of [
      [
        `groups/${group.id}/members`,
        { staffIds: [boss.id, Number(strangerRow!.id)] },
        admin,
        422,
        'unknown_reference',
      ],
      [`groups/${group.id}/members`, { staffIds: [2_000_000_000] }, admin, 422, 'unknown_reference'],
      ['groups/999999/members', { staffIds: [boss.id] }, admin, 404, 'not_found'],
      [`groups/${group.id}/members`, { staffIds: ['x'] }, admin, 400, 'validation_error'],
      [`groups/${group.id}/members`, { staffIds: [boss.id], extra: 1 }, admin, 400, 'validation_error'],
      [`groups/${group.id}/members`, {}, admin, 400, 'validation_error'],
      [`groups/${group.id}/members`, { staffIds: [] }, agent, 403, 'admin_required'],
      [`groups/${group.id}/members`, { staffIds: [] }, stranger, 403, 'not_staff_of_portal'],
    ] as const) {
      const res = await call('PUT', `${ROOT}/${path}`, who, payload);
      expect([res.statusCode, res.json().code], `${path} ${JSON.stringify(payload)}`).toEqual([status, code]);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect(await counts()).toEqual(before);
    expect(await members()).toEqual(list);
  });
});
