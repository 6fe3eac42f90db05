/** Test-only helpers of the staff tests: staff personas made through the real invitation flow. */
import { sql } from 'drizzle-orm';
import type { TestApp } from '../../test/harness';
import { bearer } from '../../test/seed';
import { confirmStaffLink, inviteStaff } from './staff.service';

export const STAFF_PASSWORD = 'Staff-Password-2026';

/** The last e-mail queued to `to`. */
export async function lastEmailTo(
  t: TestApp,
  to: string,
): Promise<{ subject: string; text: string; html?: string } | undefined> {
  const result = await t.ctx.database.db.execute(
    sql`select payload from outbox where channel = 'email' and lower(payload->>'to') = lower(${to}) order by id desc limit 1`,
  );
  const row = (result as unknown as { rows: { payload: unknown }[] }).rows[0];
  if (!row) return undefined;
  return (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as {
    subject: string;
    text: string;
    html?: string;
  };
}

/** The token of the `/staff/accept?token=` link in a text. */
export function staffLinkToken(text: string): string {
  const m = /\/staff\/accept\?token=([A-Za-z0-9_%-]+)/.exec(text);
  if (!m) throw new Error('no staff link in the text');
  return decodeURIComponent(m[1]!);
}

/** Invites and accepts: an active staff user of `portal` with a password; answers its session headers. */
export async function staffMember(
  t: TestApp,
  portal: string,
  email: string,
  role: 'agent' | 'admin' = 'agent',
): Promise<Record<string, string>> {
  const invited = await inviteStaff(t.ctx, portal, email, role);
  const s = await confirmStaffLink(t.ctx, staffLinkToken(invited.link), STAFF_PASSWORD, STAFF_PASSWORD);
  return bearer(s.token);
}

/**
 * The staff personas of the access matrix: an agent and an admin of portal acme (the agent is the
 * import's agent Luca), and an agent of portal beta only.
 */
export async function seedStaffPersonas(t: TestApp): Promise<{
  agentA: Record<string, string>;
  adminA: Record<string, string>;
  agentB: Record<string, string>;
}> {
  return {
    agentA: await staffMember(t, 'acme', 'luca@acme.example'),
    adminA: await staffMember(t, 'acme', 'boss@acme.example', 'admin'),
    agentB: await staffMember(t, 'beta', 'agent@beta.example'),
  };
}
