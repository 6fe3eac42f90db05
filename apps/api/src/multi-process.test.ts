import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './db/client';
import { multipartFile } from './test/personas';
import { startS3rver, type RunningS3 } from './test/s3rver';
import { freePort } from './test/ports';

/**
 * Two API processes on one PostgreSQL and one S3 endpoint, each with a DATA_DIR of its own (no shared
 * disk), started as an operator starts them: the compiled server (scripts/build-api.mjs, what
 * deploy/Dockerfile runs) with the variables deploy/compose.yaml gives its app processes, checked
 * below. Needs a PostgreSQL server: CI's PostgreSQL pass provides TEST_DATABASE_URL.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const url = process.env.TEST_DATABASE_URL;
const ADMIN_KEY = 'multi-process-admin-key-0123';
const PASSWORD = 'Sportello-Demo-2026';

/** What every process of the installation is given, here as in deploy/compose.yaml. */
const INSTALLATION_VARIABLES = [
  'DATABASE_URL',
  'SECRET',
  'FILE_STORE',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_FORCE_PATH_STYLE',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'REQUIRE_SHARED_FILES',
] as const;
/**
 * compose.yaml's others: TRUST_PROXY (its processes sit behind Caddy; here they are called directly)
 * and DEMO_DATA (false there; this test signs in as the demo's users). The test's own others:
 * PORTAL_ADMIN_KEY (an integration key for the webhook and signing steps), WEBHOOK_ALLOW_PRIVATE (the
 * receiver is on loopback), HOST, PORT, DATA_DIR (the Dockerfile sets them), LOG_LEVEL and WEB_DIST.
 */
const COMPOSE_ONLY = ['TRUST_PROXY', 'DEMO_DATA'];

interface BuildApi {
  buildServerInto(outdir: string): Promise<void>;
  apiEntry: string;
}
const buildApi = () => import(join(root, 'scripts/build-api.mjs')) as Promise<BuildApi>;

describe('deploy/ runs what the two-process test runs', () => {
  it('gives the app processes the same variables and the same compiled server', async () => {
    const compose = readFileSync(join(root, 'deploy/compose.yaml'), 'utf8');
    // The app's `environment: &env` block: its keys, up to the next line indented less.
    const block = /environment: &env\n((?: {6}.*\n)+)/.exec(compose)?.[1] ?? '';
    const keys = [...block.matchAll(/^ {6}([A-Z0-9_]+):/gm)].map((m) => m[1]);
    expect(keys.sort()).toEqual([...INSTALLATION_VARIABLES, ...COMPOSE_ONLY].sort());
    const dockerfile = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8');
    const { apiEntry } = await buildApi();
    expect(dockerfile).toContain(`CMD ["node", "${relative(root, apiEntry)}"]`);
    expect(dockerfile).toMatch(/RUN .*npm run build\b/);
  });
});

interface Proc {
  child: ChildProcess;
  base: string;
  dataDir: string;
  output: () => string;
}

describe.skipIf(!url)('two processes, no shared disk (needs TEST_DATABASE_URL)', () => {
  let s3: RunningS3;
  let database: Database;
  let dbUrl: string;
  const dbName = `sportello_two_${process.pid}_${Date.now()}`;
  // Inside the project (Node resolves the bundle's packages from there), ignored by git and the linters.
  const build = join(root, 'node_modules/.cache', `sportello-two-process-${process.pid}`);
  const procs: Proc[] = [];
  let receiver: Server;
  const received: string[] = [];
  let receiverUrl: string;

  async function start(name: string): Promise<Proc> {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), `sportello-${name}-`));
    let out = '';
    const store = s3.env('installation');
    const installation: Record<(typeof INSTALLATION_VARIABLES)[number], string> = {
      FILE_STORE: store.FILE_STORE!,
      S3_ENDPOINT: store.S3_ENDPOINT!,
      S3_REGION: store.S3_REGION!,
      S3_FORCE_PATH_STYLE: store.S3_FORCE_PATH_STYLE!,
      AWS_ACCESS_KEY_ID: store.AWS_ACCESS_KEY_ID!,
      AWS_SECRET_ACCESS_KEY: store.AWS_SECRET_ACCESS_KEY!,
      DATABASE_URL: dbUrl,
      SECRET: 'one-secret-for-every-process-0123456789',
      REQUIRE_SHARED_FILES: 'true',
    };
    // deploy/Dockerfile's command: node on the compiled server.
    const child = spawn(process.execPath, [join(build, 'server.js')], {
      cwd: root,
      env: {
        ...process.env,
        ...installation,
        PORTAL_ADMIN_KEY: ADMIN_KEY,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        DEMO_DATA: 'true',
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        WEB_DIST: join(dataDir, 'no-web'),
      },
    });
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const p = { child, base: `http://127.0.0.1:${port}`, dataDir, output: () => out };
    procs.push(p);
    const end = Date.now() + 120_000;
    while (!out.includes('Sportello is ready')) {
      if (child.exitCode !== null) throw new Error(`${name} exited: ${out}`);
      if (Date.now() > end) throw new Error(`${name} did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return p;
  }

  const call = async (
    p: Proc,
    method: string,
    path: string,
    opts: { token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
  ) => {
    const res = await fetch(p.base + path, {
      method,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.json !== undefined ? JSON.stringify(opts.json) : opts.body && new Uint8Array(opts.body),
    });
    return res;
  };
  const json = async <T = Record<string, unknown>>(res: Response): Promise<T> => {
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const rows = async <T>(text: string) => (await database.withConnection((sql) => sql.query<T>(text))).rows;

  let a: Proc;
  let b: Proc;
  let demo: string;

  beforeAll(async () => {
    // A build of its own: CI's browser journeys may be (re)building apps/api/dist meanwhile.
    await (await buildApi()).buildServerInto(build);
    s3 = await startS3rver();
    const admin = await openDatabase({ databaseUrl: url, maxConnections: 1 });
    await admin.withConnection((sql) => sql.exec(`create database ${dbName}`));
    await admin.close();
    const u = new URL(url!);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
    receiver = createServer((req: IncomingMessage, res) => {
      received.push(String(req.headers['webhook-id']));
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    // A first: it migrates and loads the demo; B finds both done.
    a = await start('a');
    b = await start('b');
    database = await openDatabase({ databaseUrl: dbUrl, maxConnections: 2 });
    demo = (
      await json<{ token: string }>(
        await call(a, 'POST', '/api/auth/login', { json: { userName: 'demo', password: PASSWORD } }),
      )
    ).token;
  }, 300_000);

  afterAll(async () => {
    for (const p of procs) {
      if (p.child.exitCode === null) {
        p.child.kill('SIGTERM');
        await new Promise((r) => p.child.once('exit', r));
      }
      rmSync(p.dataDir, { recursive: true, force: true });
    }
    await database?.close();
    receiver?.close();
    await s3?.close();
    rmSync(build, { recursive: true, force: true });
    if (url) {
      const admin = await openDatabase({ databaseUrl: url, maxConnections: 1 });
      await admin.withConnection((sql) => sql.exec(`drop database if exists ${dbName} with (force)`));
      await admin.close();
    }
  });

  it('serves on B a file uploaded on A, by Range too', async () => {
    const bytes = Buffer.from(`uploaded on A, read on B ${Date.now()}`);
    const m = multipartFile('from-a.txt', bytes, 'text/plain');
    const up = await json<{ url: string }>(
      await call(a, 'POST', '/api/demo/11/documents/upload/contact', {
        token: demo,
        body: m.payload,
        headers: m.headers,
      }),
    );
    const whole = await call(b, 'GET', up.url);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await call(b, 'GET', up.url, { headers: { range: 'bytes=0-7' } });
    expect([part.status, await part.text()]).toEqual([206, 'uploaded']);
    // Neither process keeps files on its disk.
    for (const p of [a, b]) expect(existsSync(join(p.dataDir, 'files'))).toBe(false);
  });

  it('signs on B a document uploaded on A, and A serves the signed PDF', async () => {
    const key = await json<{ secret: string }>(
      await call(a, 'POST', '/api/admin/portals/demo/keys', {
        token: ADMIN_KEY,
        json: { name: 'two', scopes: ['read', 'write', 'events'] },
      }),
    );
    const hook = await call(a, 'POST', '/api/integration/v1/webhooks', {
      token: key.secret,
      json: { url: receiverUrl },
    });
    expect(hook.status).toBe(201);
    const doc = await PDFDocument.create();
    doc.addPage([300, 300]).drawText('Contract signed across processes', { x: 20, y: 150, size: 10 });
    const pdf = Buffer.from(await doc.save());
    const m = multipartFile('contract.pdf', pdf, 'application/pdf');
    const file = await json<{ id: number }>(
      await call(a, 'POST', '/api/integration/v1/files', {
        token: key.secret,
        body: m.payload,
        headers: m.headers,
      }),
    );
    const request = await json<{ documentKey: string }>(
      await call(a, 'POST', '/api/integration/v1/signature-requests', {
        token: key.secret,
        json: { contactId: 11, documentName: 'Contract', file: { uploadId: file.id }, method: 'acceptance' },
      }),
    );
    const signed = await call(b, 'POST', `/api/signing/demo/${request.documentKey}/sign`, {
      json: { fullName: 'Marco Rossi', accept: true },
    });
    expect(signed.status, await signed.clone().text()).toBeLessThan(300);
    const out = await call(
      a,
      'GET',
      `/api/integration/v1/signature-requests/${request.documentKey}/signed.pdf`,
      { token: key.secret },
    );
    expect(out.status).toBe(200);
    const signedPdf = Buffer.from(await out.arrayBuffer());
    expect(signedPdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The original's page plus the audit page.
    expect((await PDFDocument.load(signedPdf)).getPageCount()).toBe(2);
  });

  it('wakes the desk on A at once for a reply made on B', async () => {
    const staff = await json<{ token: string }>(
      await call(a, 'POST', '/api/staff/auth/login', {
        json: { email: 'marco.ferri@sportello.example', password: PASSWORD },
      }),
    );
    const unread = (q: string) =>
      call(a, 'GET', `/api/staff/portals/demo/unread${q}`, { token: staff.token });
    const tickets = await json<{ id: number }[]>(
      await call(b, 'GET', '/api/demo/11/tickets', { token: demo }),
    );
    const ticket = `/api/staff/portals/demo/tickets/${tickets[0]!.id}`;
    // The agent has read the ticket: a new reply makes it unread again.
    await json(await call(a, 'GET', ticket, { token: staff.token }));
    const { version } = await json<{ version: string }>(await unread(''));
    const waiting = unread(`?since=${encodeURIComponent(version)}&wait=30`);
    const asked = Date.now();
    await new Promise((r) => setTimeout(r, 300));
    const reply = await call(b, 'POST', '/api/demo/11/comments', {
      token: demo,
      json: { taskId: tickets[0]!.id, message: '<p>Reply written on B</p>' },
    });
    expect(reply.status).toBe(201);
    const woke = await json<{ version: string }>(await waiting);
    expect(woke.version).not.toBe(version);
    expect(Date.now() - asked).toBeLessThan(10_000);
    expect(await (await call(a, 'GET', ticket, { token: staff.token })).text()).toContain(
      'Reply written on B',
    );
  });

  it('sends each e-mail and webhook delivery once, and sweeps once', async () => {
    const end = Date.now() + 60_000;
    for (;;) {
      const [pending] = await rows<{ mail: number; hooks: number }>(`
        select (select count(*) from outbox where sent_at is null and channel <> 'sms')::int as mail,
               (select count(*) from webhook_deliveries where delivered_at is null and given_up_at is null)::int as hooks`);
      if (pending!.mail === 0 && pending!.hooks === 0) break;
      if (Date.now() > end) throw new Error(`still pending: ${JSON.stringify(pending)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const mailIds = [a, b].flatMap((p) =>
      readdirSync(join(p.dataDir, 'outbox'), { recursive: false })
        .map(String)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => f.split('-')[0]),
    );
    expect(mailIds.length).toBeGreaterThan(0);
    expect(new Set(mailIds).size).toBe(mailIds.length);
    const [delivered] = await rows<{ n: number }>(
      'select count(*)::int as n from webhook_deliveries where delivered_at is not null',
    );
    expect(delivered!.n).toBeGreaterThan(0);
    expect(received.length).toBe(delivered!.n);
    expect(new Set(received).size).toBe(received.length);
    // Both started within the sweep interval: one pass, in one of them.
    const passes = [a, b].map((p) => p.output().split('file store swept').length - 1);
    expect(passes.reduce((x, y) => x + y)).toBe(1);
  });
});
