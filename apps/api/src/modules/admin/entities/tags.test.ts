/**
 * The portal's tags one by one (issue 14: everything the import can say): through the integration API
 * and the staff admin API, each change with its event and audit row, the import's rules (a name, unique
 * ids), nothing written for bad input or an unchanged PATCH; a tag that service contracts still name is
 * not deleted (409 `entity_in_use`, as a folder with elements); a key sees only its portal; agents
 * cannot change tags.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp } from '../../../test/harness';
import { ADMIN, entityHelpers, entityWorld, V1 } from '../../../test/entity-kit';

let t: TestApp;
let write = '';
let readOnly = '';
let betaKey = '';
let admin: Record<string, string>;
let agent: Record<string, string>;

beforeAll(async () => {
  ({ t, write, readOnly, betaKey, admin, agent } = await entityWorld({ readOnly: true }));
});
afterAll(async () => {
  await t?.close();
});
const { call, rows, count } = entityHelpers(() => t);

const eventsOf = async (prefix: string) =>
  rows<{ type: string; source: unknown; data: unknown }>(
    sql`select type, source, data from events where type like ${prefix + '%'} order by id`,
  );
const auditOf = async (entity: string) =>
  rows<{ entity_id: string; action: string; actor_type: string; before: unknown; after: unknown }>(
    sql`select entity_id, action, actor_type, before, after from audit_log where entity = ${entity} order by id`,
  );

/** Everything a refused request must leave as it was. */
async function snapshot() {
  return {
    audit: await count('audit_log'),
    events: await count('events'),
    tags: await count('tags'),
    tagNames: (
      await rows<{ names: string }>(sql`select string_agg(name, ',' order by id) as names from tags`)
    )[0]!.names,
    links: await count('service_contract_tags'),
  };
}

const publicTags = async (portal = 'acme') =>
  (await t.app.inject({ method: 'GET', url: `/api/settings/${portal}/tags` })).json() as {
    id: number;
    name: string;
    tagGroupName: string;
  }[];

describe('tags one by one', () => {
  it('creates, reads, updates and deletes, each with one event and one audit row', async () => {
    const created = await call('POST', `${V1}/tags`, write, {
      id: 50,
      name: 'Stampanti',
      tagGroupName: 'Asset',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({ id: 50, name: 'Stampanti', tagGroupName: 'Asset' });
    // Without an id: the next free one; without a group: ''.
    const next = await call('POST', `${ADMIN}/tags`, admin, { name: '  Firewall  ' });
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json()).toEqual({ id: 51, name: 'Firewall', tagGroupName: '' });
    // The customers' tag list (and the desk's pickers) show them at once.
    expect((await publicTags()).map((g) => g.name)).toEqual(
      expect.arrayContaining(['Stampanti', 'Firewall']),
    );

    expect((await call('GET', `${ADMIN}/tags/50`, admin)).json()).toEqual(created.json());
    const renamed = await call('PATCH', `${ADMIN}/tags/50`, admin, { name: 'Stampanti laser' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({ id: 50, name: 'Stampanti laser', tagGroupName: 'Asset' });
    const ungrouped = await call('PATCH', `${V1}/tags/50`, write, { tagGroupName: null });
    expect(ungrouped.json()).toEqual({ id: 50, name: 'Stampanti laser', tagGroupName: '' });

    // The same values again: nothing written, no event, no audit row.
    const before = await snapshot();
    const same = await call('PATCH', `${V1}/tags/50`, write, { name: 'Stampanti laser' });
    expect(same.statusCode).toBe(200);
    expect(await snapshot()).toEqual(before);

    expect((await call('DELETE', `${V1}/tags/50`, write)).statusCode).toBe(204);
    expect((await call('GET', `${V1}/tags/50`, write)).statusCode).toBe(404);
    expect((await call('DELETE', `${ADMIN}/tags/51`, admin)).statusCode).toBe(204);

    const events = await eventsOf('tag.');
    expect(events.map((e) => e.type)).toEqual([
      'tag.created',
      'tag.created',
      'tag.updated',
      'tag.updated',
      'tag.deleted',
      'tag.deleted',
    ]);
    expect(events[0]!.data).toEqual({ tag: { id: 50, name: 'Stampanti', tagGroupName: 'Asset' } });
    expect(events[1]!.source).toMatchObject({ type: 'staff' });
    expect(events[2]!.data).toEqual({
      tag: { id: 50, name: 'Stampanti laser', tagGroupName: 'Asset' },
      previous: { id: 50, name: 'Stampanti', tagGroupName: 'Asset' },
    });
    expect((await auditOf('tag')).map((a) => [a.entity_id, a.action, a.actor_type])).toEqual([
      ['50', 'created', 'api_key'],
      ['51', 'created', 'staff'],
      ['50', 'updated', 'staff'],
      ['50', 'updated', 'api_key'],
      ['50', 'deleted', 'api_key'],
      ['51', 'deleted', 'staff'],
    ]);
  });

  it('refuses bad input with {code, message} and writes nothing', async () => {
    const before = await snapshot();
    const cases: [string, unknown, number, string][] = [
      ['blank name', { name: '   ' }, 400, 'validation_error'],
      ['unknown field', { name: 'X', colour: 'red' }, 400, 'validation_error'],
      ['negative id', { id: -1, name: 'X' }, 400, 'validation_error'],
      ['group too long', { name: 'X', tagGroupName: 'x'.repeat(501) }, 400, 'validation_error'],
      ['taken id', { id: 1, name: 'Server again' }, 409, 'entity_exists'],
    ];
    for (const [what, body, status, code] of cases) {
      const res = await call('POST', `${V1}/tags`, write, body);
      expect(res.statusCode, what).toBe(status);
      expect(res.json(), what).toMatchObject({ code, message: expect.any(String) });
    }
    const badPatch = await call('PATCH', `${ADMIN}/tags/1`, admin, { name: '' });
    expect(badPatch.statusCode).toBe(400);
    expect((await call('PATCH', `${ADMIN}/tags/999`, admin, { name: 'Y' })).statusCode).toBe(404);
    expect((await call('DELETE', `${ADMIN}/tags/999`, admin)).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('keeps a tag that service contracts name (409 entity_in_use), and deletes it once they let go', async () => {
    // Tag 1 (Server) is named by service contract 1 of company 10 (the example document).
    const before = await snapshot();
    const refused = await call('DELETE', `${ADMIN}/tags/1`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'entity_in_use',
      message: expect.stringMatching(/1 service contract/),
    });
    expect(await snapshot()).toEqual(before);
    expect((await call('GET', `${V1}/service-contracts/1`, write)).json()).toMatchObject({ tagIds: [1] });

    const detached = await call('PATCH', `${V1}/service-contracts/1`, write, { tagIds: [] });
    expect(detached.statusCode, detached.body).toBe(200);
    const deleted = await call('DELETE', `${ADMIN}/tags/1`, admin);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await publicTags()).map((g) => g.id)).not.toContain(1);
  });

  it('a key of another portal, a read-only key and an agent change nothing', async () => {
    const made = await call('POST', `${V1}/tags`, write, { id: 60, name: 'Solo ACME' });
    expect(made.statusCode).toBe(201);
    const before = await snapshot();
    expect((await call('GET', `${V1}/tags/60`, betaKey)).statusCode).toBe(404);
    expect((await call('PATCH', `${V1}/tags/60`, betaKey, { name: 'Preso' })).statusCode).toBe(404);
    expect((await call('DELETE', `${V1}/tags/60`, betaKey)).statusCode).toBe(404);
    const reader = await call('PATCH', `${V1}/tags/60`, readOnly, { name: 'Letto' });
    expect(reader.statusCode).toBe(403);
    expect(reader.json()).toMatchObject({ code: 'missing_scope' });
    for (const [method, url, body] of [
      ['POST', `${ADMIN}/tags`, { name: 'Agente' }],
      ['PATCH', `${ADMIN}/tags/60`, { name: 'Agente' }],
      ['DELETE', `${ADMIN}/tags/60`, undefined],
    ] as const) {
      const res = await call(method, url, agent, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'admin_required' });
    }
    expect(await snapshot()).toEqual(before);
    // Beta's own tag 2 is untouched by acme's changes.
    expect((await publicTags('beta')).find((g) => g.id === 2)).toMatchObject({ name: 'Rete' });
  });
});
