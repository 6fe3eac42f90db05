/**
 * The first staff admin while the server runs: the installation key's invitation route, and
 * `npm run staff -- invite`, which asks the running server when it holds the embedded DATA_DIR and
 * works on the database itself when it is stopped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastEmailTo, staffLinkToken } from '../modules/staff/staff.fixture';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../test/harness';
import { seedPersonas } from '../test/personas';
import { bearer, exampleDocument } from '../test/seed';
import { queryRows } from '../platform/sql-json';
import { freePort } from '../test/ports';

describe('POST /api/admin/portals/:portal/staff', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedPersonas(t);
  }, 60_000);
  afterAll(() => t.close());

  const invite = (portal: string, payload: object, key = TEST_ADMIN_KEY) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/portals/${portal}/staff`,
      headers: bearer(key),
      payload,
    });

  it('invites the first admin of a portal: the link answered once and e-mailed, the change audited', async () => {
    const res = await invite('acme', {
      email: 'First.Admin@acme.example',
      role: 'admin',
      displayName: 'Prima',
    });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer).toMatchObject({
      alreadyActive: false,
      role: 'admin',
      email: 'First.Admin@acme.example',
      displayName: 'Prima',
    });
    const token = staffLinkToken(answer.link);
    expect(staffLinkToken((await lastEmailTo(t, 'first.admin@acme.example'))!.text)).toBe(token);
    const link = await t.app.inject({ method: 'GET', url: `/api/staff/auth/links/${token}` });
    expect(link.json()).toMatchObject({ purpose: 'invite' });
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/staff/auth/confirm',
      payload: { token, password: 'First-Admin-Pass-1', passwordRepeat: 'First-Admin-Pass-1' },
    });
    expect(confirmed.statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/staff/me',
      headers: bearer(confirmed.json().token),
    });
    expect(me.json().portals).toEqual([expect.objectContaining({ webPortalKey: 'acme', role: 'admin' })]);
    const audit = await queryRows<{ action: string; actor_type: string }>(
      t.ctx.database.db,
      sql`select action, actor_type from audit_log where entity = 'staff_member' order by id desc limit 1`,
    );
    expect(audit).toEqual([{ action: 'invited', actor_type: 'admin_key' }]);
  });

  it('refuses an unknown portal, a bad address, a wrong key', async () => {
    expect((await invite('nowhere', { email: 'a@b.example' })).json().code).toBe('portal_not_found');
    const bad = await invite('acme', { email: 'not an address' });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'invalid_email']);
    expect((await invite('acme', { email: 'a@b.example', role: 'owner' })).statusCode).toBe(400);
    expect((await invite('acme', { email: 'a@b.example' }, 'wrong-key-0123456789')).statusCode).toBe(401);
  });
});

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const KEY = 'cli-admin-key-0123456789';

/** `npm run staff -- …` as a process (tsx in-process, as the script runs). */
function staffCli(env: Record<string, string>, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/staff.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, out }));
  });
}

// The server and the tool run on the embedded database whatever TEST_DATABASE_URL says.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('npm run staff -- invite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportello-staff-cli-'));
  let server: ChildProcess | undefined;
  let port = 0;
  afterAll(() => {
    server?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('asks the running server that holds DATA_DIR, and works alone once it is stopped', async () => {
    port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), PORTAL_ADMIN_KEY: KEY, DEMO_DATA: 'false' };
    let log = '';
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    });
    server.stdout!.on('data', (d) => (log += d));
    server.stderr!.on('data', (d) => (log += d));
    const exited = new Promise((r) => server!.on('exit', r));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 180_000;
    for (;;) {
      const ok = await fetch(`${base}/api/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`server not ready:\n${log}`);
      await sleep(300);
    }
    const imported = await fetch(`${base}/api/admin/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(exampleDocument()),
    });
    expect(imported.status, await imported.text()).toBe(200);

    const through = await staffCli(env, [
      '--',
      'invite',
      'acme',
      'boss@acme.example',
      '--name',
      'Boss Person',
      '--admin',
    ]);
    expect(through.code, through.out).toBe(0);
    expect(through.out).toContain(`through the running server at http://127.0.0.1:${port}`);
    expect(through.out).toContain('Invited Boss Person <boss@acme.example> to acme as admin');
    const token = staffLinkToken(through.out);
    const link = await fetch(`${base}/api/staff/auth/links/${token}`);
    expect(await link.json()).toMatchObject({ purpose: 'invite' });

    // Without the key it cannot ask, and says what to do.
    const keyless = await staffCli({ ...env, PORTAL_ADMIN_KEY: '' }, ['invite', 'acme', 'x@acme.example']);
    expect(keyless.code).toBe(3);
    expect(keyless.out).toMatch(/in use by another Sportello process[\s\S]*Set PORTAL_ADMIN_KEY/);
    const unknown = await staffCli(env, ['invite', 'nowhere', 'x@acme.example']);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('No portal with key nowhere');

    server.kill('SIGTERM');
    await exited;
    server = undefined;
    const alone = await staffCli(env, ['invite', 'acme', 'agent@acme.example']);
    expect(alone.code, alone.out).toBe(0);
    expect(alone.out).not.toContain('through the running server');
    expect(alone.out).toContain('Invited agent <agent@acme.example> to acme as agent');
  }, 420_000);
});
