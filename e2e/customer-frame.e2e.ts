import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, screenshot } from './browser';
import { frameBoxes, frameTakenOver, holdAppCode, type FramePart } from './frame-kit';
import { contextWith, expectAccessible, get, login } from './kit';

/**
 * A signed-in customer screen comes with its frame drawn by the server (apps/api
 * modules/portals/customer-frame-page.ts, apps/web app/customer-frame.ts): the header in the portal's
 * colours and the page's title paint before the app's script has run, and the app's shell then takes
 * their place box for box.
 */

/** Each part as the frame draws it and as the app does. */
const PARTS: FramePart[] = [
  ['header', '#customer-frame header', '#root header'],
  ['burger', '#customer-frame header .mantine-Burger-root', '#root header .mantine-Burger-root'],
  ['logo', '#customer-frame header img', '#root header img'],
  ['search', '#customer-frame [data-frame-search]', '#root [data-testid=ticket-search-button]'],
  ['main', '#customer-frame main', '#root main'],
  ['title', '#customer-frame main h1', '#root main h1'],
  ['new ticket', '#customer-frame main a[href$="/tickets/new"]', '#root main a[href$="/tickets/new"]'],
];

describe('the drawn frame of a customer screen', () => {
  let browser: Browser;
  let token: string;
  let base: string;
  beforeAll(async () => {
    browser = await launch();
    token = await login('demo');
    const me = await get<{ contacts: { contactId: number; companyName: string }[] }>('/api/Users/me', token);
    const contact = me.contacts.find((c) => c.companyName.startsWith('Rossi')) ?? me.contacts[0]!;
    base = `/demo/${contact.contactId}`;
  });
  afterAll(() => browser?.close());

  it("comes for the customer's screens only, with the portal, the words of the browser and the page's code", async () => {
    const page = async (path: string, language = 'en-GB,en') =>
      (await fetch(`${baseUrl}${path}`, { headers: { 'accept-language': language } })).text();
    const tickets = await page(`${base}/tickets`);
    expect(tickets).toContain('data-customer-frame="tickets"');
    expect(tickets).toContain('<html lang="en-EN"');
    expect(tickets).toContain('My tickets');
    // Beside the entry, at low priority: the frame's first paint does not wait for the app's code.
    expect(tickets).toMatch(
      /<link rel="modulepreload" fetchpriority="low" crossorigin href="\/assets\/tickets-page-[\w-]+\.js">/,
    );
    expect(tickets).toContain(`href="${base}/tickets/new"`);
    expect(tickets).not.toMatch(/\{\{\w+\}\}/);
    expect(await page(`${base}/overview`, 'es')).toContain('Resumen');
    expect(await page(`${base}/tickets/1`)).toMatch(/modulepreload[^>]+ticket-detail-page-/);
    expect(await page(`${base}/invoices`, 'it')).toContain('Fatture');
    for (const other of [
      '/demo/login',
      '/demo/staff',
      '/demo/documents/x',
      '/appointments/demo/x',
      '/nope/1',
    ])
      expect(await page(other), other).not.toContain('data-customer-frame');
  });

  for (const [locale, lang, language] of [
    ['it-IT', 'it', 'it-IT'],
    ['en-GB', 'en', 'en-EN'],
    ['es-ES', 'es', 'es-ES'],
  ] as const)
    it(`is the app's own header and title before its script runs, ${lang}, 360 px`, async () => {
      const context = await contextWith(browser, {
        contactToken: token,
        width: 360,
        height: 740,
        locale,
        language,
      });
      const page = await context.newPage();
      const release = await holdAppCode(page);
      await page.goto(`${baseUrl}${base}/tickets`, { waitUntil: 'commit' });
      await page.locator('#customer-frame main h1').waitFor();
      await screenshot(page, `frame-drawn-${lang}-360`);
      const drawn = await frameBoxes(page, PARTS, 1);
      expect(drawn.filter((b) => b.endsWith('none'))).toEqual([]);
      await expectAccessible(page);
      release();
      await frameTakenOver(page);
      expect(await frameBoxes(page, PARTS, 2)).toEqual(drawn);
      // The frame's styles, kept while the branding settles under the hidden spinner, go with it.
      await page.waitForFunction(
        () =>
          !document.querySelector('[data-testid=full-screen-spinner]') &&
          !document.getElementById('customer-frame') &&
          ![...document.head.querySelectorAll('style')].some((s) =>
            s.textContent?.includes('full-screen-spinner'),
          ),
      );
      await screenshot(page, `frame-app-${lang}-360`);
      await context.close();
    });

  for (const [screen, path, scheme] of [
    ['overview', '/overview', 'dark'],
    ['invoices', '/invoices', 'light'],
    ['new-ticket', '/tickets/new', 'dark'],
  ] as const)
    it(`draws ${screen}'s title where the app does, 1366 px, ${scheme}`, async () => {
      const context = await contextWith(browser, {
        contactToken: token,
        width: 1366,
        height: 800,
        colorScheme: scheme,
      });
      const page = await context.newPage();
      const release = await holdAppCode(page);
      await page.goto(`${baseUrl}${base}${path}`, { waitUntil: 'commit' });
      await page.locator('#customer-frame main h1').waitFor();
      await screenshot(page, `frame-drawn-${screen}-1366-${scheme}`);
      const drawn = (await frameBoxes(page, PARTS, 1)).filter(
        (b) => !b.startsWith('burger') && !b.startsWith('new'),
      );
      await expectAccessible(page);
      release();
      await frameTakenOver(page);
      const app = (await frameBoxes(page, PARTS, 2)).filter(
        (b) => !b.startsWith('burger') && !b.startsWith('new'),
      );
      expect(app).toEqual(drawn);
      await screenshot(page, `frame-app-${screen}-1366-${scheme}`);
      await context.close();
    });

  /**
   * The frame's script asks for the screen's first answers while the page is parsed (the app's code is
   * held back here: they leave without it), and the app uses them instead of asking again.
   */
  for (const [screen, path, own] of [
    ['a ticket', (id: number) => `/tickets/${id}`, (id: number) => `/tickets/${id}`],
    ['the overview', () => '/overview', () => '/overview'],
  ] as const)
    it(`asks for ${screen}'s answers before the app's code, and once`, async () => {
      const ticket = await get<{ id: number }[]>(`/api${base}/tickets`, token);
      const id = ticket[0]!.id;
      const context = await contextWith(browser, { contactToken: token, width: 360, height: 740 });
      // The contact of the last visit, as the layout remembers it.
      await context.addInitScript((contact) => {
        localStorage.setItem('company', 'demo');
        localStorage.setItem('contactId', contact);
      }, base.split('/')[2]!);
      const page = await context.newPage();
      const asked: string[] = [];
      // The API's calls (not the logo, a file under /api).
      page.on('request', (r) => {
        if (r.resourceType() === 'fetch') asked.push(`${r.method()} ${new URL(r.url()).pathname}`);
      });
      const answer = `GET /api${base}${own(id)}`;
      const release = await holdAppCode(page);
      await page.goto(`${baseUrl}${base}${path(id)}`, { waitUntil: 'commit' });
      await expect.poll(() => asked.slice().sort()).toEqual([answer, 'GET /api/Users/me'].sort());
      release();
      await frameTakenOver(page);
      await page
        .locator(
          screen === 'a ticket' ? '[data-testid=ticket-description]' : '[data-testid=overview-signatures]',
        )
        .waitFor();
      expect(asked.filter((a) => a === answer || a === 'GET /api/Users/me').sort()).toEqual(
        [answer, 'GET /api/Users/me'].sort(),
      );
      await context.close();
    });

  it('asks for no ticket of a contact the tab does not remember', async () => {
    const context = await contextWith(browser, { contactToken: token, width: 360, height: 740 });
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'fetch') asked.push(new URL(r.url()).pathname);
    });
    const release = await holdAppCode(page);
    await page.goto(`${baseUrl}${base}/tickets/1`, { waitUntil: 'commit' });
    await expect.poll(() => asked).toEqual(['/api/Users/me']);
    // The frame's script asks for all its answers at once: anything else would be here by now.
    await page.waitForTimeout(500);
    expect(asked).toEqual(['/api/Users/me']);
    release();
    await frameTakenOver(page);
    expect(asked.filter((a) => a === '/api/Users/me')).toHaveLength(1);
    await context.close();
  });

  it('still ends at the sign-in for a tab without a session', async () => {
    const context = await contextWith(browser, { width: 360, height: 740 });
    const page = await context.newPage();
    await page.goto(`${baseUrl}${base}/tickets`);
    await page.waitForURL((url) => /\/demo\/login$/i.test(url.pathname));
    await page.locator('input[name=password]').waitFor();
    expect(await page.locator('#customer-frame').count()).toBe(0);
    await context.close();
  });
});
