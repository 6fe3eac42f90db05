// The customer's screens of issue 29 (part D) at 1366 and 360 px in each language: the header's company
// switcher beside the search button, All tickets' filters behind one button on a phone, a ticket whose
// conversation comes first on a phone, the sign-in page in the browser's language.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import { expectAccessible, LANGS, login, settled, signedIn } from './kit';

// Demo data: `demo` holds contact 11 (administrator of Rossi Impianti, with a second company: the switcher).
const MINE = `${baseUrl}/demo/11`;

const boxOf = async (page: Page, testId: string) => (await page.getByTestId(testId).first().boundingBox())!;

describe("the customer's screens", () => {
  let browser: Browser;
  let demo: string;

  beforeAll(async () => {
    browser = await launch();
    demo = await login('demo');
  });
  afterAll(() => browser?.close());

  for (const [index, width] of [1366, 360].entries())
    for (const [lang, language] of languagesAt(LANGS, index))
      it(`lists, a ticket and the header at ${width} px in ${lang}`, async () => {
        const context = await signedIn(browser, demo, { width, language });
        const page = await context.newPage();
        await page.goto(`${MINE}/alltickets`);
        await settled(page);
        await page.getByTestId('ticket-row').first().waitFor();
        // The header's left part (logo, company) never runs under its buttons.
        // (Once the header's lazy menus are in: they take their room as they come.)
        await page.getByTestId('company-switcher').waitFor();
        await expect
          .poll(
            async () => {
              const switcher = await boxOf(page, 'company-switcher');
              const search = await boxOf(page, 'ticket-search-button');
              return search.x - (switcher.x + switcher.width);
            },
            { message: 'room between the switcher and the search button' },
          )
          .toBeGreaterThanOrEqual(0);
        const filters = page.getByTestId('filters-button');
        if (width === 360) {
          // One button, then the tickets: the first row starts within the first screen.
          expect(await page.getByTestId('filter-face').count()).toBe(0);
          const row = await boxOf(page, 'ticket-row');
          expect(row.y).toBeLessThan(740);
          await expectAccessible(page);
          await screenshot(page, `screens-alltickets-${lang}-${width}`);
          await filters.click();
          await page.getByRole('button', { name: /Colleghi|Colleagues|Compañeros/ }).waitFor();
          await screenshot(page, `screens-alltickets-filters-${lang}-${width}`);
        } else {
          expect(await filters.count()).toBe(0);
          await expectAccessible(page);
          await screenshot(page, `screens-alltickets-${lang}-${width}`);
        }

        await page.getByTestId('ticket-row').first().getByRole('link').first().click();
        await page.getByTestId('conversation').waitFor();
        if (width === 360) {
          // The conversation starts on the first screen; the details wait behind one line.
          expect((await boxOf(page, 'conversation')).y).toBeLessThan(740);
          expect(await page.getByTestId('side-group').count()).toBe(0);
          await expectAccessible(page);
          await screenshot(page, `screens-ticket-${lang}-${width}`);
          await page.getByTestId('details-fold').getByRole('button').first().click();
          await page.getByTestId('side-group').waitFor();
          await screenshot(page, `screens-ticket-details-${lang}-${width}`);
        } else {
          await page.getByTestId('side-group').waitFor();
          await expectAccessible(page);
          await screenshot(page, `screens-ticket-${lang}-${width}`);
        }

        await page.goto(`${MINE}/servicecontracts`);
        await settled(page);
        await page.getByTestId('contract-badge').first().waitFor();
        await screenshot(page, `screens-contracts-${lang}-${width}`);
        await context.close();
      });

  for (const [locale, heading] of [
    ['it-IT', 'Accesso'],
    ['en-GB', 'Login'],
    ['es-ES', 'Acceso'],
  ] as const)
    it(`signs in in the browser's language, ${locale}, until the user picks one`, async () => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/demo/login`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await screenshot(page, `screens-login-${locale}-360`);
      await context.close();
    });
});
