/** Test-only helpers of the auth tests. */
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../test/harness';

/** The token of the `/confirm?token=` link in the last queued e-mail to `to` (invitation or recovery). */
export async function linkTokenMailedTo(t: TestApp, to: string): Promise<string> {
  const result = await t.ctx.database.db.execute(
    sql`select payload from outbox where channel = 'email' and lower(payload->>'to') = lower(${to}) order by id desc limit 1`,
  );
  const row = (result as unknown as { rows: { payload: unknown }[] }).rows[0];
  if (!row) throw new Error(`no e-mail to ${to}`);
  const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as {
    text: string;
    html?: string;
  };
  const m = /\/confirm\?token=([A-Za-z0-9_%-]+)/.exec(`${payload.text}\n${payload.html ?? ''}`);
  if (!m) throw new Error(`no confirm link in the e-mail to ${to}`);
  return decodeURIComponent(m[1]!);
}
