import { request } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobs, files, portals } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { bearer, seedExample, tokenFor } from '../../test/seed';

describe('signed file URLs', () => {
  let t: TestApp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.ctx.database.db;
    const [portal] = await db.insert(portals).values({ key: 'files-test', name: 'Files' }).returning();
    const store = async (name: string, contentType: string, body: string) => {
      const blob = await t.ctx.fileStore.putBuffer(Buffer.from(body));
      await db.insert(blobs).values({ sha256: blob.sha256, size: blob.size }).onConflictDoNothing();
      const [row] = await db
        .insert(files)
        .values({ portalId: portal!.id, sha256: blob.sha256, name, contentType, size: blob.size })
        .returning();
      return row!.id;
    };
    ids.pdf = await store('Relazione tecnica è.pdf', 'application/pdf', '%PDF-1.4 fake');
    ids.html = await store('page.html', 'text/html', '<script>alert(1)</script>');
    ids.svg = await store('logo.svg', 'image/svg+xml', '<svg onload="alert(1)"/>');
    ids.css = await store('style.css', 'text/css', 'body{background:url(x)}');
    ids.js = await store('app.js', 'application/javascript', 'alert(1)');
    ids.textJs = await store('app.mjs', 'text/javascript', 'alert(1)');
    ids.xml = await store('feed.xml', 'application/xml', '<x/>');
    ids.xhtml = await store('p.xhtml', 'application/xhtml+xml', '<html/>');
    // A name stored before names were cleaned: a right-to-left override makes "exe" read as "pdf".
    ids.rlo = await store('invoice\u202Efdp.exe', 'application/pdf', '%PDF-1.4 rlo');
  });
  afterAll(() => t.close());

  const url = (id: number, name: string) => t.ctx.signer.sign(id, name, t.clock.now());

  it('serves a file with its type, original name and nosniff', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(ids.pdf!, 'Relazione tecnica è.pdf') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('inline');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''Relazione%20tecnica%20%C3%A8.pdf");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe('%PDF-1.4 fake');
  });

  it('forces a download with ?download', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${url(ids.pdf!, 'x.pdf')}&download=1` });
    expect(res.headers['content-disposition']).toMatch(/^attachment/);
  });

  it('never serves HTML or SVG inline', async () => {
    for (const id of [ids.html!, ids.svg!]) {
      const res = await t.app.inject({ method: 'GET', url: url(id, 'f') });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment/);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(String(res.headers['content-security-policy'])).toContain('sandbox');
    }
  });

  it('serves CSS, JavaScript and every other active type as an octet-stream attachment', async () => {
    for (const id of [ids.css!, ids.js!, ids.textJs!, ids.xml!, ids.xhtml!]) {
      const res = await t.app.inject({ method: 'GET', url: url(id, 'f') });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['content-disposition']).toMatch(/^attachment/);
    }
  });

  it('keeps bidirectional control characters out of Content-Disposition', async () => {
    const res = await t.app.inject({ method: 'GET', url: url(ids.rlo!, 'x') });
    const cd = String(res.headers['content-disposition']);
    expect(cd).not.toContain('%E2%80%AE');
    expect(cd).toContain("filename*=UTF-8''invoicefdp.exe");
  });

  it('refuses a tampered signature', async () => {
    const good = url(ids.pdf!, 'x.pdf');
    const bad = good.replace(/s=([A-Za-z0-9_-])/, (_m, c: string) => `s=${c === 'A' ? 'B' : 'A'}`);
    const res = await t.app.inject({ method: 'GET', url: bad });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('bad_signature');
  });

  it('refuses a URL reused for another file', async () => {
    const good = url(ids.pdf!, 'x.pdf');
    const other = good.replace(`/api/files/${ids.pdf}/`, `/api/files/${ids.html}/`);
    const res = await t.app.inject({ method: 'GET', url: other });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a moved expiry', async () => {
    const good = url(ids.pdf!, 'x.pdf');
    const moved = good.replace(/e=(\d+)/, (_m, e: string) => `e=${Number(e) + 3600}`);
    expect((await t.app.inject({ method: 'GET', url: moved })).statusCode).toBe(403);
  });

  it('refuses an expired URL', async () => {
    const good = url(ids.pdf!, 'x.pdf');
    t.clock.advance(8 * 3600_000);
    const res = await t.app.inject({ method: 'GET', url: good });
    t.clock.advance(-8 * 3600_000);
    expect(res.statusCode).toBe(410);
    expect(res.json().code).toBe('link_expired');
  });

  it('answers a missing signature with a 400', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/files/${ids.pdf}/x.pdf` });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_error');
  });
});

describe('file links handed to a signed-in contact', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedExample(t);
  });
  afterAll(() => t.close());

  const documentUrl = async (h: Record<string, string>, contact = 101) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/acme/${contact}/documents`, headers: h });
    expect(res.statusCode).toBe(200);
    return (res.json() as { url: string }[])[0]!.url;
  };
  const status = async (url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;

  it('stop working at logout', async () => {
    const h = bearer(await tokenFor(t, 'mario.rossi'));
    const url = await documentUrl(h);
    expect(await status(url)).toBe(200);
    // A second session of the same user keeps its own links.
    const other = await documentUrl(bearer(await tokenFor(t, 'mario.rossi')));
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: h });
    expect(out.statusCode).toBe(204);
    expect(await status(url)).toBe(410);
    expect(await status(other)).toBe(200);
  });

  it('cannot be moved to another session or contact', async () => {
    const h = bearer(await tokenFor(t, 'mario.rossi'));
    const url = await documentUrl(h);
    const moved = url.replace(/k=(\d+)\.(\d+)/, (_m, s: string, c: string) => `k=${Number(s) + 1}.${c}`);
    expect(await status(moved)).toBe(403);
    expect(await status(url.replace(/&k=[^&]+/, ''))).toBe(403);
  });

  it('stop working when the user no longer holds the contact', async () => {
    const h = bearer(await tokenFor(t, 'mario.rossi'));
    const url = await documentUrl(h);
    expect(await status(url)).toBe(200);
    await t.ctx.database.db.execute(
      sql`delete from user_contacts where contact_id = (select id from contacts where ext_id = 101 and portal_id = (select id from portals where key = 'acme'))`,
    );
    expect(await status(url)).toBe(410);
  });
});

describe('a download the client leaves, and a file whose bytes are gone', () => {
  let t: TestApp;
  const errors: unknown[] = [];
  const ids: Record<string, number> = {};
  let port = 0;

  beforeAll(async () => {
    t = await createTestApp({
      configure: (app) => app.addHook('onError', async (_req, _reply, err) => void errors.push(err)),
    });
    const db = t.ctx.database.db;
    const [portal] = await db.insert(portals).values({ key: 'files-gone', name: 'Files' }).returning();
    const big = await t.ctx.fileStore.putBuffer(Buffer.alloc(8 * 1024 * 1024, 7));
    await db.insert(blobs).values([
      { sha256: big.sha256, size: big.size },
      // A row whose bytes the store no longer has (a volume restored without its files).
      { sha256: 'a'.repeat(64), size: 10 },
    ]);
    const rows = await db
      .insert(files)
      .values([
        {
          portalId: portal!.id,
          sha256: big.sha256,
          name: 'big.png',
          contentType: 'image/png',
          size: big.size,
        },
        {
          portalId: portal!.id,
          sha256: 'a'.repeat(64),
          name: 'gone.png',
          contentType: 'image/png',
          size: 10,
        },
      ])
      .returning();
    ids.big = rows[0]!.id;
    ids.gone = rows[1]!.id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  it('a client that hangs up mid-stream leaves no error behind (the answer is not sent twice)', async () => {
    const path = t.ctx.signer.sign(ids.big!, 'big.png', t.clock.now());
    for (const headers of [{}, { range: 'bytes=0-' }, { 'accept-encoding': 'br, gzip' }]) {
      await new Promise<void>((done) => {
        const req = request({ port, path, headers }, (res) => {
          res.once('data', () => {
            req.destroy();
            setTimeout(done, 50);
          });
        });
        req.on('error', () => undefined);
        req.end();
      });
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(errors).toEqual([]);
    const again = await t.app.inject({ method: 'GET', url: path, headers: { range: 'bytes=0-3' } });
    expect(again.statusCode).toBe(206);
  });

  it('an error in place of a file carries none of the file’s headers, and is not cached', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: t.ctx.signer.sign(ids.gone!, 'gone.png', t.clock.now()),
    });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('internal_error');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    for (const h of ['content-disposition', 'etag', 'accept-ranges']) expect(res.headers[h]).toBeUndefined();
    errors.length = 0;
  });
});
