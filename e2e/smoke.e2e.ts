import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, screenshot } from './browser';

describe('the portal is served', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('serves the SPA on a deep link and guards it, without console errors', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const res = await page.goto(`${baseUrl}/demo/11/tickets`);
    expect(res?.status()).toBe(200);
    await page.waitForURL(/\/demo\/Login$/i);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await screenshot(page, 'smoke');
    expect(errors).toEqual([]);
  });

  it('answers a missing asset with 404, not the SPA', async () => {
    const res = await fetch(`${baseUrl}/assets/missing-chunk.js`);
    expect(res.status).toBe(404);
  });

  it('serves hashed assets compressed and immutable', async () => {
    const html = await (await fetch(`${baseUrl}/demo/login`)).text();
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(js).toBeTruthy();
    const res = await fetch(`${baseUrl}${js}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toContain('immutable');
  });
});
