import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../db/schema';
import { createTestApp, type TestApp } from '../test/harness';
import { multipartFile } from '../test/personas';
import { startS3rver, S3RVER_CREDENTIALS, type RunningS3 } from '../test/s3rver';
import { bearer, seedExample, tokenFor } from '../test/seed';
import { FileSweeper } from './file-sweeper';
import { LocalFileStore } from './file-store-local';
import { S3FileStore, type S3Options } from './file-store-s3';
import { PENDING_UPLOADS, type FileStore } from './files';

/**
 * One suite, both stores: every guarantee of the file store is checked on the local disk and on a real
 * S3-protocol server (s3rver on loopback), through the same interface and the same routes.
 */
let s3: RunningS3;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Kind {
  name: string;
  /** A new store and the options a child process needs to open the same one. */
  make(): { store: FileStore; childOptions: unknown };
}
let prefixes = 0;
const kinds: Kind[] = [
  {
    name: 'local',
    make() {
      const dir = mkdtempSync(join(tmpdir(), 'sportello-store-'));
      dirs.push(dir);
      return { store: new LocalFileStore(dir), childOptions: { local: dir } };
    },
  },
  {
    name: 's3 (s3rver)',
    make() {
      const opts: S3Options = {
        bucket: s3.bucket,
        prefix: `suite-${++prefixes}`,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
      };
      return { store: new S3FileStore(opts), childOptions: opts };
    },
  },
];

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const FUTURE = () => new Date(Date.now() + 3600_000);
const allBlobs = async (store: FileStore) => {
  const out: string[] = [];
  for await (const batch of store.listBlobs()) out.push(...batch);
  return out.sort();
};
const readText = async (store: FileStore, hash: string) => (await store.readAll(hash)).toString();

describe.each(kinds)('FileStore: $name', (kind) => {
  let t: TestApp;
  let store: FileStore;
  let childOptions: unknown;
  let mario: Record<string, string>;
  beforeAll(async () => {
    ({ store, childOptions } = kind.make());
    t = await createTestApp({ fileStore: store, env: { MAX_UPLOAD_MB: '8' } });
    await seedExample(t);
    mario = bearer(await tokenFor(t, 'mario.rossi'));
  });
  afterAll(async () => {
    await t?.close();
  });

  const record = (bytes: Buffer | string) =>
    t.ctx.database.db.transaction(async (tx) => {
      const blob = await store.stageBuffer(Buffer.from(bytes));
      await store.record(tx, blob, t.clock.now());
      return blob;
    });

  it('files staged bytes under their SHA-256 in the recording transaction, once for identical bytes', async () => {
    const before = await allBlobs(store);
    const a = await record('hello');
    expect(a.sha256).toBe(sha('hello'));
    expect(a.size).toBe(5);
    const b = await record('hello');
    expect(b.sha256).toBe(a.sha256);
    expect(await allBlobs(store)).toEqual([...before, a.sha256].sort());
    expect(await readText(store, a.sha256)).toBe('hello');
    expect(await store.exists(a.sha256)).toBe(true);
    expect((await store.head(a.sha256, 3)).toString()).toBe('hel');
    // Both staged copies are gone: one became the blob, the other was dropped.
    expect(await store.removeDeadStaging(FUTURE())).toBe(0);
  });

  it('tells the health report which store it is and that it answers, and when it does not', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.json()).toMatchObject({ files: { kind: store.kind, ok: true } });
    expect(store.kind).toBe(kind.name.startsWith('s3') ? 's3' : 'local');
    if (store instanceof S3FileStore) {
      // Nothing listens there: the closed port of a server just stopped.
      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const { port } = closed.address() as AddressInfo;
      await new Promise((r) => closed.close(r));
      const refused = new S3FileStore({
        ...(childOptions as S3Options),
        endpoint: `http://127.0.0.1:${port}`,
      });
      await expect(refused.probe()).rejects.toThrow();
      await refused.close();
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'sportello-store-'));
      dirs.push(dir);
      const gone = new LocalFileStore(dir);
      rmSync(gone.tmpDir, { recursive: true });
      await expect(gone.probe()).rejects.toThrow();
    }
  });

  it('refuses bytes above the limit while they stream, and keeps nothing', async () => {
    // 6 MB: past S3's first 5 MB part, so the refused upload was a multipart one.
    const big = Readable.from(Array.from({ length: 24 }, () => Buffer.alloc(256 * 1024, 1)));
    await expect(store.stage(big, 5.5 * 1024 * 1024)).rejects.toMatchObject({ statusCode: 413 });
    // Refused at the first chunk, while the staging place may still be opening: nothing left either.
    for (let i = 0; i < 5; i++)
      await expect(store.stage(Readable.from([Buffer.alloc(64)]), 10)).rejects.toMatchObject({
        statusCode: 413,
      });
    expect(await store.removeDeadStaging(FUTURE())).toBe(0);
  });

  it('keeps nothing visible of a stream that fails midway', async () => {
    const failing = Readable.from(
      (function* () {
        for (let i = 0; i < 30; i++) yield Buffer.alloc(256 * 1024, 2);
        throw new Error('client went away');
      })(),
    );
    const before = await allBlobs(store);
    await expect(store.stage(failing)).rejects.toThrow('client went away');
    expect(await allBlobs(store)).toEqual(before);
    expect(await store.removeDeadStaging(FUTURE())).toBe(0);
  });

  it('shows no partial blob of a process killed while streaming; the sweeper clears what it staged', async () => {
    const before = await allBlobs(store);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, '../test/stage-forever.ts'),
        JSON.stringify(childOptions),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('streaming') && resolve());
      child.once('exit', (code) => reject(new Error(`the streaming process ended first (${code})`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(await allBlobs(store)).toEqual(before);
    // Whatever the dead process staged is removed once old (an S3 multipart upload is no object at all).
    await store.removeDeadStaging(FUTURE());
    expect(await store.removeDeadStaging(FUTURE())).toBe(0);
  });

  it('leaves bytes of a failed transaction to the sweeper, which keeps them while another row uses them', async () => {
    const bytes = `shared ${kind.name}`;
    const committed = await t.ctx.database.db.transaction(async (tx) => {
      const blob = await store.stageBuffer(Buffer.from(bytes));
      await store.record(tx, blob, t.clock.now());
      const [row] = await tx
        .insert(files)
        .values({
          portalId: 1,
          sha256: blob.sha256,
          name: 'a.txt',
          contentType: 'text/plain',
          size: blob.size,
          createdAt: t.clock.now(),
        })
        .returning({ id: files.id });
      return row!.id;
    });
    // The same bytes in a request whose transaction fails after recording them.
    const failed = await store.stageBuffer(Buffer.from(bytes));
    await expect(
      t.ctx.database.db.transaction(async (tx) => {
        await store.record(tx, failed, t.clock.now());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await store.discard(failed);
    expect(store.suspects.has(failed.sha256)).toBe(true);
    const sweeper = new FileSweeper(t.ctx, t.app.log);
    expect((await sweeper.sweep()).removedBlobs).toBe(0);
    expect(await readText(store, failed.sha256)).toBe(bytes);
    await t.ctx.database.db.execute(sql`delete from files where id = ${committed}`);
    expect(await sweeper.removeIfUnreferenced(failed.sha256)).toBe(true);
    expect(await store.exists(failed.sha256)).toBe(false);
  });

  it('serves an upload through its signed link, whole and by Range, and expires it unattached', async () => {
    const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => String(i % 10)).join(''));
    const m = multipartFile('note.txt', body, 'text/plain');
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/acme/101/comments/attachments',
      headers: { ...mario, ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const id = (up.json() as { id: number }).id;
    const url = t.ctx.signer.sign(id, 'note.txt', t.clock.now());
    const get = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(body)).toBe(true);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers.etag).toBe(`"${sha(body)}"`);

    const part = await get({ range: 'bytes=10-19' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 10-19/1000');
    expect(part.body).toBe(body.subarray(10, 20).toString());
    const tail = await get({ range: 'bytes=-5' });
    expect([tail.statusCode, tail.body]).toEqual([206, body.subarray(995).toString()]);
    const rest = await get({ range: 'bytes=990-' });
    expect([rest.statusCode, rest.headers['content-length']]).toEqual([206, '10']);
    // Another version named by If-Range: the whole file.
    expect((await get({ range: 'bytes=0-1', 'if-range': '"other"' })).statusCode).toBe(200);
    const past = await get({ range: 'bytes=5000-' });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */1000');
    expect(past.json().code).toBe('range_not_satisfiable');

    t.clock.advance(PENDING_UPLOADS.ttlMs + 60_000);
    const swept = await new FileSweeper(t.ctx, t.app.log).sweep();
    expect(swept.expiredUploads).toBe(1);
    expect(await store.exists(sha(body))).toBe(false);
    mario = bearer(await tokenFor(t, 'mario.rossi'));
  });

  it('refuses an upload above MAX_UPLOAD_MB while it streams (413) and keeps nothing', async () => {
    const before = await allBlobs(store);
    const m = multipartFile('big.bin', Buffer.alloc(8 * 1024 * 1024 + 10, 3));
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/acme/101/comments/attachments',
      headers: { ...mario, ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode).toBe(413);
    expect(await allBlobs(store)).toEqual(before);
    expect(await store.removeDeadStaging(FUTURE())).toBe(0);
  });
});

describe('S3 presigned downloads (S3_PRESIGNED_DOWNLOADS)', () => {
  it('redirects a checked link to a short-lived link of the bucket serving the same bytes', async () => {
    const store = new S3FileStore({
      bucket: s3.bucket,
      prefix: 'presigned',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
      presignSeconds: 300,
    });
    const t = await createTestApp({ fileStore: store });
    try {
      await seedExample(t);
      const mario = bearer(await tokenFor(t, 'mario.rossi'));
      const m = multipartFile('report.pdf', '%PDF-1.4 presigned', 'application/pdf');
      const up = await t.app.inject({
        method: 'POST',
        url: '/api/acme/101/comments/attachments',
        headers: { ...mario, ...m.headers },
        payload: m.payload,
      });
      const id = (up.json() as { id: number }).id;
      const url = t.ctx.signer.sign(id, 'report.pdf', t.clock.now());
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(302);
      const direct = await fetch(res.headers.location!);
      expect(direct.status).toBe(200);
      expect(await direct.text()).toBe('%PDF-1.4 presigned');
      expect(direct.headers.get('content-disposition')).toContain('report.pdf');
      // A link that does not check out never reaches the bucket.
      const forged = await t.app.inject({ method: 'GET', url: url.replace(/s=[^&]+/, 's=forged') });
      expect(forged.statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });
});

describe('the sweeper’s turn', () => {
  it('is claimed by one process per interval, and the first claim of a day is a full pass', async () => {
    const t = await createTestApp();
    try {
      // Two sweepers on one database, as two processes have.
      const a = new FileSweeper(t.ctx, t.app.log, { intervalMs: 600_000 });
      const b = new FileSweeper(t.ctx, t.app.log, { intervalMs: 600_000 });
      const claims = await Promise.all([a.claimTurn(), b.claimTurn()]);
      expect(claims.filter((c) => c !== undefined)).toEqual([{ full: true }]);
      t.clock.advance(300_000);
      expect([await a.claimTurn(), await b.claimTurn()]).toEqual([undefined, undefined]);
      t.clock.advance(300_000);
      expect(await b.claimTurn()).toEqual({ full: false });
      expect(await a.claimTurn()).toBeUndefined();
      t.clock.advance(24 * 3600_000);
      expect(await a.claimTurn()).toEqual({ full: true });
    } finally {
      await t.close();
    }
  });
});
