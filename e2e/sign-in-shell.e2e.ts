import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, screenshot } from './browser';
import { holdAppCode } from './frame-kit';
import { expectAccessible, PASSWORD } from './kit';

/**
 * The portal's sign-in comes drawn by the server (apps/api modules/portals/sign-in-page.ts): a phone
 * shows the form before the app's script has run, and the app then replaces it with the same page.
 */
const PARTS = [
  'header',
  'h1',
  'input[name=username]',
  'input[name=password]',
  'input[name=remember]',
  'button[type=submit]',
  'main form a',
  'footer a',
];

const boxes = (page: Page) =>
  page.evaluate(
    (parts) =>
      parts.map((s) => {
        const r = document.querySelector(s)?.getBoundingClientRect();
        return r
          ? `${s} ${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`
          : `${s} none`;
      }),
    PARTS,
  );

const appHasTakenOver = (page: Page) =>
  page.waitForFunction(
    () => !document.querySelector('[data-sign-in-shell]') && !!document.querySelector('input[name=password]'),
  );

describe('the drawn sign-in', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('comes with the portal and the words of the browser, and not for the recovery form', async () => {
    const en = await (
      await fetch(`${baseUrl}/demo/login`, { headers: { 'accept-language': 'en-GB,en' } })
    ).text();
    expect(en).toContain('<html lang="en-EN"');
    expect(en).toContain('Username or e-mail');
    expect(en).toContain('data-sign-in-shell');
    expect(en).not.toMatch(/\{\{\w+\}\}/);
    const es = await (await fetch(`${baseUrl}/demo/login`, { headers: { 'accept-language': 'es' } })).text();
    expect(es).toContain('Usuario o correo electrónico');
    const recover = await (await fetch(`${baseUrl}/demo/login?recover`)).text();
    expect(recover).not.toContain('data-sign-in-shell');
  });

  for (const [locale, lang] of [
    ['it-IT', 'it'],
    ['en-GB', 'en'],
    ['es-ES', 'es'],
  ] as const)
    it(`is the app's own page before its script runs, ${lang}, 360 px`, async () => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale });
      const page = await context.newPage();
      const release = await holdAppCode(page);
      await page.goto(`${baseUrl}/demo/login`, { waitUntil: 'commit' });
      await page.locator('[data-sign-in-shell] h1').waitFor();
      await screenshot(page, `sign-in-drawn-${lang}-360`);
      const drawn = await boxes(page);
      await expectAccessible(page);
      release();
      await appHasTakenOver(page);
      await screenshot(page, `sign-in-app-${lang}-360`);
      expect(await boxes(page)).toEqual(drawn);
      await context.close();
    });

  it('keeps what was typed and a submit made before the app took over', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'it-IT' });
    const page = await context.newPage();
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}/demo/login`, { waitUntil: 'commit' });
    await page.locator('[data-sign-in-shell] input[name=username]').fill('demo');
    await page.locator('[data-sign-in-shell] input[name=password]').fill(PASSWORD);
    await page.locator('[data-sign-in-shell] input[name=password]').press('Enter');
    // Held back, not posted: the page is still the drawn one.
    expect(new URL(page.url()).pathname).toBe('/demo/login');
    release();
    await page.waitForURL((url) => !/\/login$/i.test(url.pathname));
    await context.close();
  });
});
