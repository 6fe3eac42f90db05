// Files in object storage, in the browser: a server of its own with FILE_STORE=s3://… on an S3-protocol
// server on loopback (s3rver), as an operator runs it (scripts/start.mjs). The customer uploads a
// document and downloads it back; the bytes live in the bucket, not in the server's DATA_DIR.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3FileStore } from '../apps/api/src/platform/file-store-s3';
import { startS3rver, S3RVER_CREDENTIALS, type RunningS3 } from '../apps/api/src/test/s3rver';
import { launch, screenshot } from './browser';
import { PASSWORD } from './kit';

const root = fileURLToPath(new URL('..', import.meta.url));
const freePort = () =>
  new Promise<number>((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });

let s3: RunningS3;
let server: ChildProcess;
let base: string;
let dataDir: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  s3 = await startS3rver('sportello-e2e');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'sportello-e2e-s3-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...s3.env('installation'),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DEMO_DATA: 'true',
    PGLITE_MAX_WAIT_MS: '60000',
  };
  delete env.DATABASE_URL;
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error('the S3 server exited before it was ready');
    if (Date.now() > deadline) throw new Error('the S3 server did not become ready in 120 s');
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  browser = await launch();
}, 150_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  await s3?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('files in S3-compatible storage', () => {
  it('a customer uploads a document and downloads the same bytes, kept in the bucket', async () => {
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'demo', password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const context = await browser.newContext({
      viewport: { width: 1366, height: 800 },
      timezoneId: 'Europe/Rome',
    });
    await context.addInitScript((t) => {
      if (window.top !== window || !window.localStorage) return;
      localStorage.setItem('token', t);
      localStorage.setItem('language', 'en-EN');
    }, token);
    page = await context.newPage();
    await page.goto(`${base}/demo/11/documents`);
    await page.getByRole('heading', { level: 1, name: 'Company files' }).waitFor();

    // The demo's own document, loaded into the bucket at first start, opens in the preview.
    const rows = page.getByTestId('file-row');
    await rows.filter({ hasText: 'Visura camerale.pdf' }).getByRole('button').click();
    await page.locator('iframe').waitFor();

    const name = `s3-upload-${Date.now()}.pdf`;
    const body = Buffer.from(`%PDF-1.4\n% stored in a bucket ${name}\ntrailer <<>>\n%%EOF\n`);
    await page.getByTestId('document-dropzone').locator('input[type=file]').setInputFiles({
      name,
      mimeType: 'application/pdf',
      buffer: body,
    });
    await page.locator('[data-testid="upload-item"][data-status="done"]').waitFor({ timeout: 20_000 });
    await rows.filter({ hasText: name }).getByRole('button').click();
    await page.locator('iframe').waitFor();
    await screenshot(page, 'files-s3-documents');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(name);
    expect(readFileSync((await download.path())!).equals(body)).toBe(true);

    const sha = createHash('sha256').update(body).digest('hex');
    const bucket = new S3FileStore({
      bucket: s3.bucket,
      prefix: 'installation',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    expect((await bucket.readAll(sha)).equals(body)).toBe(true);
    await bucket.close();
    // Nothing of it on the server's disk.
    expect(existsSync(join(dataDir, 'files', sha.slice(0, 2)))).toBe(false);
    await context.close();
  });
});
