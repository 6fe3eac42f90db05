import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { issueSession } from '../platform/auth';
import { importDocument } from '../modules/admin/import.service';
import type { TestApp } from './harness';

/** The example import document (a copy of the back office's sample, kept in the repo). */
export function exampleDocument(): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL('./fixtures/example.json', import.meta.url), 'utf8'));
}

export async function seedExample(t: TestApp, doc: unknown = exampleDocument()): Promise<void> {
  await importDocument(t.ctx, doc);
}

/** A bearer token for a user by name, without going through the login route. */
export async function tokenFor(t: TestApp, userName: string): Promise<string> {
  const rows = await t.ctx.database.db.execute<{ id: number }>(
    sql`select id from users where lower(user_name) = lower(${userName})`,
  );
  const id = (rows as unknown as { rows: { id: number }[] }).rows[0]?.id;
  if (id === undefined) throw new Error(`no user ${userName}`);
  return (await issueSession(t.ctx.database.db, t.clock, id, 12)).token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
