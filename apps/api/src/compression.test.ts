import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test/harness';

/** A built web app with one asset and its pre-compressed twin (scripts/precompress.mjs makes these). */
function fakeWebDist(): { dir: string; js: string; br: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'sportello-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), `<!doctype html><title>x</title>${'<p>x</p>'.repeat(400)}`);
  // The desk's page: index.html announcing the desk's code (apps/web vite.config.ts).
  writeFileSync(join(dir, 'desk.html'), '<!doctype html><title>desk</title>');
  // A desk ticket's: the ticket page's code too.
  writeFileSync(join(dir, 'desk-ticket.html'), '<!doctype html><title>desk-ticket</title>');
  // And each with a language's texts announced (here English's and Italian's only).
  for (const lang of ['en-EN', 'it-IT']) {
    writeFileSync(join(dir, `desk.${lang}.html`), `<!doctype html><title>desk ${lang}</title>`);
    writeFileSync(join(dir, `desk-ticket.${lang}.html`), `<!doctype html><title>desk-ticket ${lang}</title>`);
  }
  const js = `console.log(${JSON.stringify('y'.repeat(5000))});`;
  const br = brotliCompressSync(js);
  writeFileSync(join(dir, 'assets', 'app.js'), js);
  writeFileSync(join(dir, 'assets', 'app.js.br'), br);
  return { dir, js, br };
}

describe('compression', () => {
  let t: TestApp;
  let web: ReturnType<typeof fakeWebDist>;
  beforeAll(async () => {
    web = fakeWebDist();
    t = await createTestApp({ env: { WEB_DIST: web.dir } });
  });
  afterAll(() => t.close());

  it('compresses a large API answer for a client that accepts it', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/docs',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const body = gunzipSync(res.rawPayload).toString('utf8');
    expect(JSON.parse(body).openapi).toBeDefined();
    expect(res.rawPayload.length).toBeLessThan(body.length / 3);
  });

  it('leaves tiny answers and clients without accept-encoding alone', async () => {
    const small = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ status: 'ok' });
    const plain = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().openapi).toBeDefined();
  });

  it('sends a pre-compressed asset as it is on disk, not compressed twice', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Buffer.compare(res.rawPayload, web.br)).toBe(0);
  });
});

describe("the web app's pages", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEB_DIST: fakeWebDist().dir } });
  });
  afterAll(() => t.close());

  const page = async (url: string, language?: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url,
      headers: language ? { 'accept-language': language } : {},
    });
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type'], url).toMatch(/^text\/html/);
    const title = /<title>(desk[^<]*)<\/title>/.exec(res.body)?.[1];
    // The desk's page depends on the browser's languages: a cache keeps one per language.
    if (title) expect(res.headers.vary, url).toMatch(/accept-language/i);
    return title ?? 'index';
  };

  it("sends the desk's pages the page that announces the desk's code, every other address index.html", async () => {
    for (const url of [
      '/demo/staff',
      '/Demo/STAFF/',
      '/demo/staff?view=mine',
      '/demo/staff/tickets/new',
      '/demo/staff/tickets/5/x',
      '/demo/staff/admin/branding',
    ])
      expect(await page(url), url).toBe('desk it-IT');
    for (const url of ['/demo/staff/tickets/5', '/Demo/Staff/Tickets/123/', '/demo/staff/tickets/5?x=1'])
      expect(await page(url), url).toBe('desk-ticket it-IT');
    // With the texts of the browser's first language the app speaks (the app starts in it), else
    // Italian's; the page without texts when the build has none for that language.
    expect(await page('/demo/staff', 'en-US,en;q=0.9')).toBe('desk en-EN');
    expect(await page('/demo/staff/tickets/5', 'de-DE,en-GB;q=0.8')).toBe('desk-ticket en-EN');
    expect(await page('/demo/staff/tickets/5', 'de-DE')).toBe('desk-ticket it-IT');
    expect(await page('/demo/staff/tickets/5', 'es')).toBe('desk-ticket');
    // The desk's sign-in and invitation open no desk; customers' pages never carry its code.
    for (const url of [
      '/demo/staff/login',
      '/demo/staff/accept?token=x',
      '/demo/1/tickets',
      '/demo/login',
      '/staff',
      '/demo/staffroom',
    ])
      expect(await page(url), url).toBe('index');
  });
});
