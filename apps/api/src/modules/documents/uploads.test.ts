import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { FileSweeper } from '../../platform/file-sweeper';
import { PENDING_UPLOADS } from '../../platform/files';
import { CONTACT_DAILY_UPLOADS } from '../../platform/uploads';
import { createTestApp, localFiles, type TestApp } from '../../test/harness';
import { multipartFile } from '../../test/personas';
import { bearer, seedExample, tokenFor } from '../../test/seed';

let t: TestApp;
let mario: Record<string, string>;
let anna: Record<string, string>;
let sweeper: FileSweeper;

beforeAll(async () => {
  // A small upload limit keeps the byte quota (4 × MAX_UPLOAD_MB) cheap to reach.
  t = await createTestApp({ env: { MAX_UPLOAD_MB: '0.01' } });
  await seedExample(t);
  mario = bearer(await tokenFor(t, 'mario.rossi'));
  anna = bearer(await tokenFor(t, 'anna.verdi'));
  sweeper = new FileSweeper(t.ctx, t.app.log);
});
afterAll(async () => {
  await t?.close();
});

const attachmentUrl = (contact: number) => `/api/acme/${contact}/comments/attachments`;

const upload = (bytes: string | Buffer, h = mario, contact = 101, name = 'note.txt') => {
  const m = multipartFile(name, bytes, 'text/plain');
  return t.app.inject({
    method: 'POST',
    url: attachmentUrl(contact),
    headers: { ...h, ...m.headers },
    payload: m.payload,
  });
};

const rows = async <T>(text: string) =>
  ((await t.ctx.database.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
const count = async (where: string) =>
  (await rows<{ n: number }>(`select count(*)::int as n from files where ${where}`))[0]!.n;

/** Moves the clock past the upload TTL and sweeps, so each test starts with no pending upload. */
async function expireEverything(): Promise<void> {
  t.clock.advance(PENDING_UPLOADS.ttlMs + 60_000);
  await sweeper.sweep();
  await signIn();
}

/** Sessions last 12 hours, so every jump of the clock signs in again. */
async function signIn(): Promise<void> {
  Object.assign(mario, bearer(await tokenFor(t, 'mario.rossi')));
  Object.assign(anna, bearer(await tokenFor(t, 'anna.verdi')));
}

describe('a failed upload and a concurrent one of the same bytes', () => {
  it('never deletes bytes the committed request references, not even after a sweep', async () => {
    const db = t.ctx.database.db;
    const realTransaction = db.transaction.bind(db);
    let calls = 0;
    let secondDone!: () => void;
    const secondCommitted = new Promise<void>((r) => (secondDone = r));
    let firstInTransaction!: () => void;
    const firstArrived = new Promise<void>((r) => (firstInTransaction = r));
    // The first request's transaction fails, but only after the second one committed its row.
    (db as { transaction: Db['transaction'] }).transaction = (async (fn, config) => {
      if (calls++ === 0) {
        firstInTransaction();
        await secondCommitted;
        throw new Error('simulated failure of the first request');
      }
      try {
        return await realTransaction(fn, config);
      } finally {
        secondDone();
      }
    }) as Db['transaction'];
    try {
      const bytes = `shared bytes ${Date.now()}`;
      const first = upload(bytes);
      await firstArrived;
      const second = await upload(bytes);
      expect((await first).statusCode).toBe(500);
      expect(second.statusCode).toBe(201);
      (db as { transaction: Db['transaction'] }).transaction = realTransaction;
      const url = (second.json() as { url: string }).url;
      expect((await t.app.inject({ method: 'GET', url })).body).toBe(bytes);
      await sweeper.sweep({ full: true });
      expect((await t.app.inject({ method: 'GET', url })).body).toBe(bytes);
    } finally {
      (db as { transaction: Db['transaction'] }).transaction = realTransaction;
    }
  });
});

describe('uploads nobody attaches', () => {
  it('are deleted with their bytes after 24 hours; attached ones stay', async () => {
    await expireEverything();
    const kept = await upload('attached later');
    const dropped = await upload(`never attached ${Date.now()}`);
    expect(kept.statusCode).toBe(201);
    expect(dropped.statusCode).toBe(201);
    const keptId = (kept.json() as { id: number }).id;
    const droppedId = (dropped.json() as { id: number }).id;
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/acme/101/tickets',
      headers: mario,
      payload: { title: 'With file', taskTypeId: 1, description: 'x', attachments: [keptId] },
    });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const [row] = await rows<{ sha256: string }>(`select sha256 from files where id = ${droppedId}`);
    const path = localFiles(t).pathOf(row!.sha256);
    expect(existsSync(path)).toBe(true);

    t.clock.advance(PENDING_UPLOADS.ttlMs - 60_000);
    expect((await sweeper.sweep()).expiredUploads).toBe(0);
    await signIn();
    t.clock.advance(2 * 60_000);
    const swept = await sweeper.sweep();
    expect(swept.expiredUploads).toBe(1);
    expect(await count(`id = ${droppedId}`)).toBe(0);
    expect(await count(`id = ${keptId}`)).toBe(1);
    expect(existsSync(path)).toBe(false);
    expect(await rows(`select 1 from blobs where sha256 = '${row!.sha256}'`)).toHaveLength(0);
  });

  it('are bounded per contact in number, with a 429 and Retry-After when over', async () => {
    await expireEverything();
    for (let i = 0; i < PENDING_UPLOADS.maxCount; i++)
      expect((await upload(`file ${i}`)).statusCode).toBe(201);
    t.clock.advance(3600_000);
    await signIn();
    const over = await upload('one too many');
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('too_many_pending_uploads');
    // The oldest pending upload expires 23 hours from now.
    expect(Number(over.headers['retry-after'])).toBe(23 * 3600);
    // Another contact has a quota of its own.
    expect((await upload('anna', anna, 102)).statusCode).toBe(201);
  });

  it('are bounded per contact in bytes', async () => {
    await expireEverything();
    const max = 0.01 * 1024 * 1024; // MAX_UPLOAD_MB of this app, in bytes
    const chunk = 'x'.repeat(Math.floor(max) - 10);
    for (let i = 0; i < PENDING_UPLOADS.maxUploads; i++)
      expect((await upload(`${i}${chunk}`)).statusCode).toBe(201);
    const before = await count('attached_at is null and uploaded_by_contact_id is not null');
    const over = await upload(`z${chunk}`);
    expect(over.statusCode).toBe(429);
    expect(await count('attached_at is null and uploaded_by_contact_id is not null')).toBe(before);
  });
});

describe('uploads a contact attaches', () => {
  it('are bounded per contact over 24 hours too: attaching does not make room for more', async () => {
    await expireEverything();
    const max = 0.01 * 1024 * 1024; // MAX_UPLOAD_MB of this app, in bytes
    const chunk = 'y'.repeat(Math.floor(max) - 10);
    const daily = Math.floor((CONTACT_DAILY_UPLOADS.maxUploads * max) / (chunk.length + 3));
    let accepted = 0;
    let refused: Awaited<ReturnType<typeof upload>> | undefined;
    while (!refused && accepted <= daily) {
      const ids: number[] = [];
      // Four at a time stay within the pending quota; each batch is attached, which frees it.
      for (let i = 0; i < 4 && !refused; i++) {
        const res = await upload(`${String(accepted).padStart(3, '0')}${chunk}`);
        if (res.statusCode === 201) {
          ids.push((res.json() as { id: number }).id);
          accepted++;
        } else refused = res;
      }
      if (ids.length === 0) break;
      const ticket = await t.app.inject({
        method: 'POST',
        url: '/api/acme/101/tickets',
        headers: mario,
        payload: { title: `Batch ${accepted}`, taskTypeId: 1, description: 'x', attachments: ids },
      });
      expect(ticket.statusCode, ticket.body).toBe(201);
    }
    expect(accepted).toBe(daily);
    expect(refused?.statusCode).toBe(429);
    expect(refused?.json().code).toBe('too_many_uploads');
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    // Another contact has its own bound; a day later the contact uploads again.
    expect((await upload('anna', anna, 102)).statusCode).toBe(201);
    t.clock.advance(CONTACT_DAILY_UPLOADS.windowMs);
    await signIn();
    expect((await upload('next day')).statusCode).toBe(201);
  });
});

describe('malformed and interrupted uploads', () => {
  it('answers 400 to a second file part, and keeps neither file', async () => {
    await expireEverything();
    const boundary = '----twofiles';
    const part = (name: string, body: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: text/plain\r\n\r\n${body}\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: attachmentUrl(101),
      headers: { ...mario, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `${part('a.txt', 'first')}${part('b.txt', 'second')}--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('one_file_only');
    expect(await count('attached_at is null and uploaded_by_contact_id is not null')).toBe(0);
    expect(readdirSync(localFiles(t).tmpDir)).toEqual([]);
  });

  it('answers 400 to a body cut before its closing boundary', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: attachmentUrl(101),
      headers: { ...mario, 'content-type': 'multipart/form-data; boundary=----cut' },
      payload: '------cut\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nno end',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('bad_multipart');
  });

  it('answers the next request on the same connection after a file write failed', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, headers: Record<string, string>, body?: Buffer) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, socket: req.socket }));
        });
        req.setTimeout(5000, () => req.destroy(new Error(`no answer to ${method} ${path}`)));
        req.on('error', reject);
        req.end(body);
      });
    const tmp = localFiles(t).tmpDir;
    // The store's temp directory is gone: the write fails at once, with most of the 4 MB body unread.
    rmSync(tmp, { recursive: true, force: true });
    try {
      const m = multipartFile('big.bin', Buffer.alloc(4_000_000, 1));
      const failed = await send('POST', attachmentUrl(101), { ...mario, ...m.headers }, m.payload);
      expect(failed.status).toBe(500);
      const next = await send('GET', '/api/acme/101/tickets', mario);
      expect(next.status).toBe(200);
    } finally {
      mkdirSync(tmp, { recursive: true });
      agent.destroy();
    }
  });

  it('leaves no temp file or unreferenced blob of a killed upload after a sweep', async () => {
    const tmpFile = join(localFiles(t).tmpDir, 'killed-upload');
    writeFileSync(tmpFile, 'half written');
    const young = join(localFiles(t).tmpDir, 'upload-in-flight');
    writeFileSync(young, 'still arriving');
    const now = t.clock.now().getTime() / 1000;
    utimesSync(tmpFile, now - 2 * 3600, now - 2 * 3600);
    utimesSync(young, now - 60, now - 60);
    // Bytes placed under their hash by a process killed before its commit: no row names them.
    const orphan = localFiles(t).pathOf('ab'.repeat(32));
    mkdirSync(dirname(orphan), { recursive: true });
    writeFileSync(orphan, 'orphan');
    const swept = await sweeper.sweep({ full: true });
    expect(swept.removedTmp).toBe(1);
    expect(existsSync(tmpFile)).toBe(false);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(orphan)).toBe(false);
    rmSync(young);
  });
});

describe('the upload routes’ own scope (platform/route.ts)', () => {
  it('reads multipart on upload routes only: another route with a body answers 415', async () => {
    const m = multipartFile('a.txt', 'x', 'text/plain');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/acme/101/tickets',
      headers: { ...mario, ...m.headers },
      payload: m.payload,
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  it('gives the upload routes every hook of the app: access rule, headers, no-store', async () => {
    await expireEverything();
    expect((await upload('x', {})).statusCode).toBe(401);
    const ok = await upload('x');
    expect(ok.statusCode).toBe(201);
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    expect(ok.headers['content-security-policy']).toContain("default-src 'self'");
    expect(ok.headers['cache-control']).toBe('no-store');
  });
});
