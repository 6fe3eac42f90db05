import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// One process (the tsx CLI would run the server as its child): signals reach the server itself.
const serverArgs = ['--import', 'tsx', 'apps/api/src/server.ts'];

function startServer(
  dataDir: string,
  port: number,
): { child: ChildProcess; output: () => string; exited: Promise<number> } {
  let out = '';
  const child = spawn(process.execPath, serverArgs, {
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

async function waitFor(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportello-server-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses a second process on the same DATA_DIR, and stops cleanly on SIGTERM', async () => {
    const first = startServer(dataDir, 38000 + (process.pid % 1000));
    try {
      await waitFor(() => first.output().includes('Sportello is ready'), 60_000);
      const second = startServer(dataDir, 39000 + (process.pid % 1000));
      const code = await second.exited;
      expect(code).toBe(3);
      expect(second.output()).toContain('is in use by another Sportello process');
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);
  }, 90_000);

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
