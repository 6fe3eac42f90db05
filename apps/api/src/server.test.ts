import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionLimit } from './platform/fd-limit';
import { freePort } from './test/ports';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// One process (the tsx CLI would run the server as its child): signals reach the server itself.
const serverArgs = ['--import', 'tsx', 'apps/api/src/server.ts'];

function startServer(
  dataDir: string,
  port: number,
  opts: { umask?: string; openFiles?: number } = {},
): { child: ChildProcess; output: () => string; exited: Promise<number> } {
  let out = '';
  // `sh -c 'umask …; ulimit -n …; exec node …'`: the umask a careless service unit sets, a low fd limit.
  const prefix =
    (opts.umask ? `umask ${opts.umask} && ` : '') + (opts.openFiles ? `ulimit -n ${opts.openFiles} && ` : '');
  const [cmd, args] = prefix
    ? ['sh', ['-c', `${prefix}exec "$0" "$@"`, process.execPath, ...serverArgs]]
    : [process.execPath, serverArgs];
  const child = spawn(cmd as string, args as string[], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
    },
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number>((res) => child.on('exit', (code) => res(code ?? -1)));
  return { child, output: () => out, exited };
}

async function waitFor(cond: () => boolean, ms: number, output?: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out${output ? `; the process wrote:\n${output()}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * How long a start may take before a test gives up: a fresh embedded database starts in seconds, but
 * once took over a minute beside CI's other suites on two busy cores (the tests check what it does, not
 * how fast).
 */
const READY_MS = 150_000;

// The processes run on the embedded database whatever TEST_DATABASE_URL says (DATABASE_URL is cleared):
// the PostgreSQL pass of CI would run the same thing again.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportello-server-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // One database for the file (each made afresh costs a dozen seconds of CI): the first test makes it the
  // way a careless install would, the fd test below starts a server on it again.
  it(
    'refuses a second process on the same DATA_DIR, stops cleanly on SIGTERM, and keeps every file private to its user',
    async () => {
      // What an older version left: a world-readable directory, outbox and message.
      chmodSync(dataDir, 0o777);
      mkdirSync(join(dataDir, 'outbox'), { mode: 0o777 });
      writeFileSync(join(dataDir, 'outbox', '1-old.eml'), 'Subject: recovery link', { mode: 0o666 });
      chmodSync(join(dataDir, 'outbox'), 0o777);
      chmodSync(join(dataDir, 'outbox', '1-old.eml'), 0o666);
      // The umask a careless service unit sets: the database is made under it.
      const first = startServer(dataDir, await freePort(), { umask: '000' });
      try {
        await waitFor(() => first.output().includes('Sportello is ready'), READY_MS, first.output);
        const second = startServer(dataDir, await freePort());
        const code = await second.exited;
        expect(code).toBe(3);
        expect(second.output()).toContain('is in use by another Sportello process');
      } finally {
        first.child.kill('SIGTERM');
      }
      expect(await first.exited).toBe(0);
      const open: string[] = [];
      const walk = (p: string) => {
        const st = lstatSync(p);
        if ((st.mode & 0o077) !== 0) open.push(`${(st.mode & 0o777).toString(8)} ${p}`);
        if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
      };
      walk(dataDir);
      expect(readdirSync(join(dataDir, 'pgdata')).length).toBeGreaterThan(5);
      expect(open).toEqual([]);
    },
    READY_MS + 30_000,
  );

  it('stops with a message naming a wrong variable', async () => {
    const bad = spawn(process.execPath, serverArgs, {
      cwd: root,
      env: { ...process.env, PORT: 'nope', DATA_DIR: dataDir },
    });
    let err = '';
    bad.stderr.on('data', (d) => (err += d));
    const code = await new Promise((res) => bad.on('exit', res));
    expect(code).toBe(2);
    expect(err).toContain('PORT');
  }, 30_000);

  it('refuses a proxy range of every address with one line, no stack trace', async () => {
    const bad = spawn(process.execPath, serverArgs, {
      cwd: root,
      env: { ...process.env, TRUST_PROXY: '0.0.0.0/0', DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    let err = '';
    bad.stderr.on('data', (d) => (err += d));
    const code = await new Promise((res) => bad.on('exit', res));
    expect(code).toBe(2);
    expect(err).toMatch(/TRUST_PROXY: 0\.0\.0\.0\/0 trusts every X-Forwarded-For hop/);
    expect(err).not.toMatch(/\n\s+at /);
  }, 30_000);

  it(
    'makes the whole tree private again at every start, not only its top',
    async () => {
      // The first test's DATA_DIR, already private once; a restore or a copy loosens what is inside.
      const deep = join(dataDir, 'pgdata', 'base');
      const message = join(dataDir, 'outbox', '1-old.eml');
      chmodSync(deep, 0o755);
      chmodSync(message, 0o644);
      const server = startServer(dataDir, await freePort());
      try {
        await waitFor(() => server.output().includes('Sportello is ready'), READY_MS, server.output);
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await server.exited).toBe(0);
      expect(lstatSync(deep).mode & 0o077).toBe(0);
      expect(lstatSync(message).mode & 0o077).toBe(0);
    },
    READY_MS + 30_000,
  );

  it('refuses a DATA_DIR it cannot use with one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sportello-notdir-'));
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    try {
      const server = startServer(file, await freePort());
      expect(await server.exited).toBe(4);
      const lines = server.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('DATA_DIR');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it(
    'sheds connections before the fd limit, keeps answering, and recovers when they close',
    async () => {
      // The first test's DATA_DIR, its database already made.
      const port = await freePort();
      const server = startServer(dataDir, port, { openFiles: 512 });
      const sockets: Socket[] = [];
      try {
        await waitFor(() => server.output().includes('Sportello is ready'), READY_MS, server.output);
        // 450 slow clients that connect and never send a byte.
        for (let i = 0; i < 450; i++) {
          const s = connect(port, '127.0.0.1');
          s.on('error', () => {});
          sockets.push(s);
        }
        await new Promise((r) => setTimeout(r, 3000));
        const fds = readdirSync(`/proc/${server.child.pid}/fd`).map((fd) => {
          try {
            return readlinkSync(`/proc/${server.child.pid}/fd/${fd}`);
          } catch {
            return ''; // closed meanwhile
          }
        });
        // Client connections stop at the limit minus the reserve (the listening socket and a few of the
        // process's own beside them); the embedded database keeps up to 200 relation files open besides, so
        // the total is judged with a margin left for an upload or a log file, not against the reserve.
        expect(fds.filter((l) => l.startsWith('socket:')).length).toBeLessThanOrEqual(
          connectionLimit(512)! + 8,
        );
        expect(fds.length).toBeLessThan(512 - 48);
        for (const s of sockets) s.destroy();
        await new Promise((r) => setTimeout(r, 1000));
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        expect(res.status).toBe(200);
      } finally {
        for (const s of sockets) s.destroy();
        server.child.kill('SIGTERM');
        await server.exited;
      }
    },
    READY_MS + 30_000,
  );

  it('stops with one clear line on a DATA_DIR it cannot write', async () => {
    // Permission bits do not stop root: a sysfs directory does.
    let readOnly = '/sys/kernel';
    if (process.getuid?.() !== 0) {
      readOnly = mkdtempSync(join(tmpdir(), 'sportello-ro-'));
      chmodSync(readOnly, 0o555);
    }
    for (const dir of [readOnly, join(readOnly, 'sportello-data')]) {
      const bad = spawn(process.execPath, serverArgs, {
        cwd: root,
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', PORT: '0' },
      });
      let err = '';
      bad.stderr.on('data', (d) => (err += d));
      bad.stdout.on('data', (d) => (err += d));
      const code = await new Promise((res) => bad.on('exit', res));
      expect(code).toBe(4);
      expect(err.trim().split('\n')).toEqual([
        expect.stringMatching(/^DATA_DIR .* is not a writable directory/),
      ]);
    }
  }, 60_000);
});
