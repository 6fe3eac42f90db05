import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_LANGUAGES, baseUrl, languagesAt, launch, screenshot } from './browser';
import { expectAccessible, LANGS, login, settled, signedIn } from './kit';

// Demo data: `demo` holds contact 11 (administrator of Rossi Impianti, every flag); `giulia.bianchi`
// holds contact 12 of the same company (tickets and reports only, not an administrator).
const MINE = `${baseUrl}/demo/11`;

describe('one search', () => {
  let browser: Browser;
  let demo: string;
  let giulia: string;
  beforeAll(async () => {
    browser = await launch();
    demo = await login('demo');
    giulia = await login('giulia.bianchi');
  });
  afterAll(() => browser?.close());

  it('opens with Ctrl+K, groups what the contact may see, and walks the results with the keyboard', async () => {
    const context = await signedIn(browser, demo, { language: 'en-EN' });
    const page = await context.newPage();
    await page.goto(`${MINE}/tickets`);
    await settled(page);
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await dialog.waitFor();
    await page.getByLabel('Search the portal').fill('backup');
    const groups = dialog.locator('[data-search-group]');
    await expect
      .poll(async () => groups.evaluateAll((els) => els.map((e) => e.getAttribute('data-search-group'))))
      .toEqual(expect.arrayContaining(['tickets', 'wiki', 'serviceContracts']));
    expect(
      await dialog.locator('[data-search-group="tickets"] [data-search-result]').allInnerTexts(),
    ).toEqual([expect.stringContaining('Backup notturno non completato')]);
    await expectAccessible(page);
    // Down from the box to the first row (the ticket), Enter opens it.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Backup notturno');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/demo\/11\/tickets\/\d+$/);
    await dialog.waitFor({ state: 'hidden' });

    // An invoice by a fragment of its number: a link to its file.
    await page.keyboard.press('Control+k');
    await page.getByLabel('Search the portal').fill('0412');
    const invoice = dialog.locator('[data-search-group="invoices"] a[data-search-result]');
    await invoice.first().waitFor();
    expect(await invoice.first().getAttribute('href')).toMatch(/^\/api\/files\//);
    await context.close();
  });

  it("finds nothing of a colleague's tickets nor of a list the contact may not see", async () => {
    const context = await signedIn(browser, giulia, { language: 'en-EN' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/demo/12/tickets`);
    await settled(page);
    await page.getByTestId('ticket-search-button').click();
    await page.getByLabel('Search the portal').fill('backup');
    await page.getByText('Nothing found for “backup”.').waitFor();
    await page.getByLabel('Search the portal').fill('magazzino');
    await page.locator('[data-search-group="tickets"] [data-search-result]').first().waitFor();
    expect(await page.locator('[data-search-group]').count()).toBe(1);
    await context.close();
  });

  for (const [index, width] of [1366, 360].entries())
    for (const [lang, language] of languagesAt(LANGS, index))
      for (const colorScheme of ['light', 'dark'] as const) {
        // Dark once per width: in Italian when every language runs, else in the width's one language.
        if (colorScheme === 'dark' && lang !== 'it' && ALL_LANGUAGES) continue;
        it(`reads well at ${width} px in ${lang}, ${colorScheme}`, async () => {
          const context = await signedIn(browser, demo, { width, language, colorScheme });
          const page = await context.newPage();
          await page.goto(`${MINE}/tickets`);
          await settled(page);
          await page.getByTestId('ticket-search-button').click();
          await page.locator('#portal-search-input').fill('server');
          await page.locator('[data-search-group]').first().waitFor();
          // Nothing wider than the screen.
          const overflow = await page.evaluate(() => {
            const d = document.querySelector('[role="dialog"]')!;
            return d.scrollWidth - d.clientWidth;
          });
          expect(overflow).toBeLessThanOrEqual(0);
          await expectAccessible(page);
          await screenshot(page, `search-${lang}-${width}-${colorScheme}`);
          await context.close();
        });
      }
});
