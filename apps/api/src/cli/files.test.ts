import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../platform/file-store-local';
import { S3FileStore } from '../platform/file-store-s3';
import { startS3rver, S3RVER_CREDENTIALS, type RunningS3 } from '../test/s3rver';
import { parseArgs } from './files';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('npm run files -- copy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sportello-files-cli-'));
  let s3: RunningS3;
  beforeAll(async () => {
    s3 = await startS3rver();
  });
  afterAll(async () => {
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; err: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/files.ts', ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: '', FILE_STORE: '', ...env },
      });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) => resolve({ code, err }));
    });

  it('parses its arguments', () => {
    expect(parseArgs(['copy', '--to', 's3://b/p'])).toEqual({ to: 's3://b/p', from: undefined });
    expect(parseArgs(['--', 'copy', '--to', 'local', '--from', 's3://b'])).toEqual({
      to: 'local',
      from: 's3://b',
    });
    expect(parseArgs(['copy'])).toBeUndefined();
    expect(parseArgs(['copy', '--to'])).toBeUndefined();
    expect(parseArgs(['move', '--to', 'local'])).toBeUndefined();
  });

  it('copies to S3 and back verifying each SHA-256, resumes, and refuses bytes that do not match their name', async () => {
    const dataDir = join(dir, 'data');
    const local = LocalFileStore.inDataDir(dataDir);
    const blobs = await Promise.all(
      ['first', 'second', Buffer.alloc(6 * 1024 * 1024, 9)].map((b) => local.putBuffer(Buffer.from(b))),
    );
    const s3Env = s3.env('copy');
    const bucket = new S3FileStore({
      bucket: s3.bucket,
      prefix: 'copy',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    // One blob already copied by an interrupted run.
    await bucket.putBuffer(Buffer.from('first'));

    const env = { ...s3Env, FILE_STORE: '', DATA_DIR: dataDir };
    const first = await run(['copy', '--to', s3Env.FILE_STORE!], env);
    expect(first.code, first.err).toBe(0);
    expect(first.err).toContain('2 copied');
    expect(first.err).toContain('1 already there');
    for (const b of blobs)
      expect((await bucket.readAll(b.sha256)).equals(await local.readAll(b.sha256))).toBe(true);

    const again = await run(['copy', '--to', s3Env.FILE_STORE!], env);
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain('0 copied');
    expect(again.err).toContain('3 already there');

    // Back from the bucket (the configured store) to another directory.
    const back = join(dir, 'back');
    const home = await run(['copy', '--to', back], { ...s3Env, DATA_DIR: dataDir });
    expect(home.code, home.err).toBe(0);
    const returned = new LocalFileStore(back);
    for (const b of blobs) expect(await returned.exists(b.sha256)).toBe(true);

    // Bytes under a name that is not their hash (a damaged disk): reported, never copied.
    const wrong = createHash('sha256').update('what it should be').digest('hex');
    mkdirSync(dirname(local.pathOf(wrong)), { recursive: true });
    writeFileSync(local.pathOf(wrong), 'something else');
    const damaged = await run(['copy', '--to', s3Env.FILE_STORE!], env);
    expect(damaged.code).toBe(1);
    expect(damaged.err).toContain(`not copied: ${wrong}`);
    expect(await bucket.exists(wrong)).toBe(false);
    await bucket.close();
  }, 120_000);
});
