import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, screenshot } from './browser';

describe('the portal is served', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('serves the SPA on a deep link without console errors', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const res = await page.goto(`${baseUrl}/acme/101/tickets`);
    expect(res?.status()).toBe(200);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await screenshot(page, 'smoke');
    expect(errors).toEqual([]);
  });
});
