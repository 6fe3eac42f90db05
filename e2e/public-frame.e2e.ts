import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, screenshot } from './browser';
import { frameBoxes, frameTakenOver, holdAppCode, type FramePart } from './frame-kit';
import { contextWith, expectAccessible } from './kit';

/**
 * A document to sign and a booking link, opened from an e-mail without a session, come with their frame
 * drawn by the server (apps/api modules/portals/customer-frame-page.ts `publicFramePage`, apps/web
 * app/customer-frame.ts `publicFrameMarkup`): the public header in the portal's colours and the page's
 * heading paint before the app's script has run, and the app's page then takes their place box for box.
 */

const SIGNING_KEY = 'demo-firma-privacy-9b3e5d1f7a2c4e80';
const BOOKING_KEY = 'demo-sopralluogo-8c1e4b2a6d3f';
const PAGES = {
  signing: { path: `/demo/documents/${SIGNING_KEY}`, api: `/api/signing/demo/${SIGNING_KEY}` },
  booking: { path: `/appointments/demo/${BOOKING_KEY}`, api: `/api/appointments/demo/${BOOKING_KEY}` },
} as const;

/** Each part as the frame draws it and as the app does. */
const PARTS: FramePart[] = [
  ['header', '#customer-frame header', '#root header'],
  ['logo', '#customer-frame header img', '#root header img'],
  ['name', '#customer-frame header p', '#root header p'],
  ['language', '#customer-frame header button', '#root header button'],
  ['main', '#customer-frame main', '#root main'],
  ['title', '#customer-frame main h1', '#root main h1'],
  // The signer's line (signing), the agent's (booking).
  ['under the title', '#customer-frame main h1 + *', '#root main h1 + *'],
];

const html = async (path: string, language = 'en-GB,en') => {
  const res = await fetch(`${baseUrl}${path}`, { headers: { 'accept-language': language } });
  return { text: await res.text(), cacheControl: res.headers.get('cache-control') };
};

describe('the drawn frame of a document to sign and of a booking link', () => {
  let browser: Browser;
  let documentName: string;
  let documentPath: string;
  let linkTitle: string;
  beforeAll(async () => {
    browser = await launch();
    const doc = (await (await fetch(`${baseUrl}${PAGES.signing.api}`)).json()) as {
      documentName: string;
      documentUrl: string;
    };
    documentName = doc.documentName;
    documentPath = new URL(doc.documentUrl, baseUrl).pathname;
    linkTitle = ((await (await fetch(`${baseUrl}${PAGES.booking.api}`)).json()) as { title: string }).title;
  });
  afterAll(() => browser?.close());

  it("comes with the key's heading, the portal, the browser's words and the page's code, never stored", async () => {
    const signing = await html(PAGES.signing.path);
    expect(signing.text).toContain('data-customer-frame="signing"');
    expect(signing.text).toContain('<html lang="en-EN"');
    expect(signing.text).toContain(`>${documentName}</h1>`);
    expect(signing.text).toContain(`<title>${documentName} · Sign a document · `);
    expect(signing.text).toMatch(
      /<link rel="modulepreload" fetchpriority="low" crossorigin href="\/assets\/sign-page-[\w-]+\.js">/,
    );
    expect(signing.text).toMatch(/modulepreload[^>]+early-pages-/);
    expect(signing.text).not.toMatch(/\{\{\w+\}\}/);
    // A capability's page: as its API answers, never kept by a cache.
    expect(signing.cacheControl).toBe('no-store');
    // Only the heading: not the document's file link (the portal's logo is the sign-in's, public).
    expect(signing.text).not.toContain(documentPath);

    const booking = await html(PAGES.booking.path, 'es');
    expect(booking.text).toContain('data-customer-frame="booking"');
    expect(booking.text).toContain('<html lang="es-ES"');
    expect(booking.text).toContain(`>${linkTitle}</h1>`);
    expect(booking.text).toMatch(/modulepreload[^>]+booking-page-/);
    expect(booking.cacheControl).toBe('no-store');
    expect((await html(`${PAGES.signing.path}/confirm`, 'it')).text).toContain('<html lang="it-IT"');

    // Unknown keys, the cancellation and another portal's key: the app's page, as before.
    for (const other of [
      '/demo/documents/demo-no-such-key-0000',
      '/appointments/demo/demo-no-such-key-0000',
      `/appointments/demo/cancellation/${BOOKING_KEY}`,
      `/nope/documents/${SIGNING_KEY}`,
    ]) {
      const page = await html(other);
      expect(page.text, other).not.toContain('data-customer-frame');
      expect(page.text, other).not.toContain(documentName);
    }
  });

  for (const [locale, lang, language] of [
    ['it-IT', 'it', 'it-IT'],
    ['en-GB', 'en', 'en-EN'],
    ['es-ES', 'es', 'es-ES'],
  ] as const)
    for (const screen of ['signing', 'booking'] as const)
      it(`is ${screen}'s own header and heading before its script runs, ${lang}, 360 px`, async () => {
        const context = await contextWith(browser, { width: 360, height: 740, locale, language });
        const page = await context.newPage();
        const release = await holdAppCode(page);
        await page.goto(`${baseUrl}${PAGES[screen].path}`, { waitUntil: 'commit' });
        await page.locator('#customer-frame main h1').waitFor();
        await screenshot(page, `public-frame-drawn-${screen}-${lang}-360`);
        const drawn = await frameBoxes(page, PARTS, 1);
        expect(drawn.filter((b) => b.endsWith('none'))).toEqual([]);
        await expectAccessible(page);
        release();
        await frameTakenOver(page);
        expect(await frameBoxes(page, PARTS, 2)).toEqual(drawn);
        await screenshot(page, `public-frame-app-${screen}-${lang}-360`);
        await context.close();
      });

  for (const [screen, scheme, locale, lang, language] of [
    ['signing', 'dark', 'it-IT', 'it', 'it-IT'],
    ['signing', 'light', 'en-GB', 'en', 'en-EN'],
    ['signing', 'light', 'es-ES', 'es', 'es-ES'],
    ['booking', 'light', 'it-IT', 'it', 'it-IT'],
    ['booking', 'dark', 'en-GB', 'en', 'en-EN'],
    ['booking', 'light', 'es-ES', 'es', 'es-ES'],
  ] as const)
    it(`draws ${screen}'s heading where the app does, ${lang}, 1366 px, ${scheme}`, async () => {
      const context = await contextWith(browser, {
        width: 1366,
        height: 800,
        colorScheme: scheme,
        locale,
        language,
      });
      const page = await context.newPage();
      const release = await holdAppCode(page);
      await page.goto(`${baseUrl}${PAGES[screen].path}`, { waitUntil: 'commit' });
      await page.locator('#customer-frame main h1').waitFor();
      await screenshot(page, `public-frame-drawn-${screen}-${lang}-1366-${scheme}`);
      const drawn = await frameBoxes(page, PARTS, 1);
      await expectAccessible(page);
      release();
      await frameTakenOver(page);
      expect(await frameBoxes(page, PARTS, 2)).toEqual(drawn);
      await screenshot(page, `public-frame-app-${screen}-${lang}-1366-${scheme}`);
      await context.close();
    });

  it("an unknown key still ends at the page's own not-found state", async () => {
    const context = await contextWith(browser, { width: 360, height: 740 });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/demo/documents/demo-no-such-key-0000`);
    await page.getByRole('heading', { level: 1, name: 'Document not available' }).waitFor();
    expect(await page.locator('#customer-frame').count()).toBe(0);
    await page.goto(`${baseUrl}/appointments/demo/demo-no-such-key-0000`);
    await page.locator('#root main h1').waitFor();
    expect(await page.locator('#customer-frame').count()).toBe(0);
    await context.close();
  });
});
