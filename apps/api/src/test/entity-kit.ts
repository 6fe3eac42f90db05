/**
 * What the tests of single-entity changes share (the integration API's and the staff administration's,
 * issues 12 and 14): the seeded personas with acme's back-office key and beta's key, an admin and an
 * agent of acme (a reader key and a second admin on request); calls by key or by staff headers; and
 * reads of the database for what a change wrote (rows, counts, events, audit rows).
 */
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import type { ApiKeyScope } from '@sportello/contracts';
import { staffMember } from '../modules/staff/staff.fixture';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from './harness';
import { seedPersonas } from './personas';
import { bearer } from './seed';

export const V1 = '/api/integration/v1';
/** acme's administration, as its staff call it. */
export const ADMIN = '/api/staff/portals/acme/admin';

type Headers = Record<string, string>;

/** A key of `portal`, made with the installation key as a business would. */
export async function createKey(t: TestApp, portal: string, name: string, scopes: ApiKeyScope[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/admin/portals/${portal}/keys`,
    headers: bearer(TEST_ADMIN_KEY),
    payload: { name, scopes },
  });
  return res.json() as { id: number; secret: string };
}

export interface EntityWorld {
  t: TestApp;
  /** acme's key with `read` and `write`. */
  write: string;
  writeKeyId: number;
  /** acme's key with `read` only ('' unless asked for). */
  readOnly: string;
  /** beta's key with `read` and `write`: another portal's. */
  betaKey: string;
  admin: Headers;
  /** A second admin of acme ({} unless asked for). */
  admin2: Headers;
  agent: Headers;
}

/**
 * A fresh app with that world. The reader key and the second admin are made only when asked for: each
 * is an audit row and a staff member that other tests' counts and e-mails would see.
 */
export async function entityWorld(
  opts: { writeKeyName?: string; readOnly?: boolean; admin2?: boolean } = {},
): Promise<EntityWorld> {
  const t = await createTestApp();
  await seedPersonas(t);
  const write = await createKey(t, 'acme', opts.writeKeyName ?? 'back office', ['read', 'write']);
  const readOnly = opts.readOnly ? (await createKey(t, 'acme', 'reader', ['read'])).secret : '';
  const betaKey = (await createKey(t, 'beta', 'beta', ['read', 'write'])).secret;
  const admin = await staffMember(t, 'acme', 'boss@acme.example', 'admin');
  const admin2 = opts.admin2 ? await staffMember(t, 'acme', 'boss2@acme.example', 'admin') : {};
  const agent = await staffMember(t, 'acme', 'luca@acme.example');
  return { t, write: write.secret, writeKeyId: write.id, readOnly, betaKey, admin, admin2, agent };
}

/** Calls and reads on the app `app()` gives (the test file's, once its `beforeAll` has made it). */
export function entityHelpers(app: () => TestApp) {
  /** A request by a key (its secret) or by staff (their headers). */
  const call = (
    method: InjectOptions['method'],
    url: string,
    who: string | Headers,
    payload?: unknown,
    headers: Headers = {},
  ) =>
    app().app.inject({
      method,
      url,
      headers: { ...(typeof who === 'string' ? bearer(who) : who), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const rows = async <T>(q: ReturnType<typeof sql>) =>
    ((await app().ctx.database.db.execute(q)) as unknown as { rows: T[] }).rows;
  const count = async (table: string, where = 'true') =>
    Number(
      (await rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table} where ${where}`)))[0]!.n,
    );
  /** The types of the events whose type starts with `prefix`, oldest first. */
  const eventTypes = async (prefix: string) =>
    (
      await rows<{ type: string }>(sql`select type from events where type like ${prefix + '%'} order by id`)
    ).map((r) => r.type);
  /** The audit rows of `entity`, oldest first. */
  const auditOf = async (entity: string) =>
    rows<{ entity_id: string; action: string; actor_type: string }>(
      sql`select entity_id, action, actor_type from audit_log where entity = ${entity} order by id`,
    );
  return { call, rows, count, eventTypes, auditOf };
}
