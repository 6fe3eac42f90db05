import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

describe('DATA_DIR lock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sportello-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a second holder while the first process lives', async () => {
    // A live process other than this one holds the lock.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(join(dir, 'server.pid'), String(child.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(/in use by another Sportello process/);
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('takes over a lock left by a dead process and releases it', () => {
    writeFileSync(join(dir, 'server.pid'), '2147483646');
    const release = lockDataDir(dir);
    expect(existsSync(join(dir, 'server.pid'))).toBe(true);
    release();
    expect(existsSync(join(dir, 'server.pid'))).toBe(false);
  });
});
