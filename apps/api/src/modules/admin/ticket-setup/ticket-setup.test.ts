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
