import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_LANGUAGES, baseUrl, languagesAt, launch, screenshot } from './browser';
import { expectAccessible, LANGS, login, post, settled, signedIn, waitForMail } from './kit';

// Demo data: `giulia.bianchi` (giulia.bianchi@rossi-impianti.example) holds contact 12 of Rossi Impianti,
// not an administrator; `demo` holds contact 11, its administrator, who may close any of its tickets.
const GIULIA = `${baseUrl}/demo/12`;
const GIULIA_MAIL = 'giulia.bianchi@rossi-impianti.example';

const unreadOf = async (page: Page) => {
  const count = page.getByTestId('bell-count');
  return (await count.count()) === 0 ? 0 : Number(await count.innerText());
};

describe('notifications', () => {
  let browser: Browser;
  let demo: string;
  let giulia: string;
  beforeAll(async () => {
    browser = await launch();
    demo = await login('demo');
    giulia = await login('giulia.bianchi');
  });
  afterAll(() => browser?.close());

  it('rings the bell without a reload when an administrator closes my ticket, and e-mails me', async () => {
    const title = `Bell journey ${Date.now()}`;
    const ticket = await post<{ id: number }>('/api/demo/12/tickets', giulia, {
      title,
      taskTypeId: 2,
      description: '<p>Please close it when done</p>',
      attachments: [],
    });
    const context = await signedIn(browser, giulia, { language: 'it-IT' });
    const page = await context.newPage();
    await page.goto(`${GIULIA}/tickets`);
    await settled(page);
    await page.getByTestId('notification-bell').waitFor();
    const before = await unreadOf(page);

    await post(`/api/demo/11/tickets/${ticket.id}/close`, demo, {});
    // The bell polls: the count moves on the open page.
    await expect.poll(() => unreadOf(page), { timeout: 40_000, interval: 500 }).toBe(before + 1);

    // The change's e-mail, not the confirmation sent when the ticket was opened (both link to it).
    const mail = await waitForMail(GIULIA_MAIL, `Il tuo ticket «${title}» ora è:`);
    expect(mail).toContain(`/demo/12/tickets/${ticket.id}`);
    expect(mail).toContain('Sportello Assistenza');

    await page.getByTestId('notification-bell').click();
    const item = page.getByTestId('notification-item').first();
    await item.waitFor();
    expect(await item.innerText()).toContain(title);
    await expectAccessible(page);
    await screenshot(page, 'notifications-bell-it-1366');
    await item.click();
    await page.waitForURL(`${GIULIA}/tickets/${ticket.id}`);
    await expect.poll(() => unreadOf(page)).toBe(before);
    await context.close();
  }, 120_000); // up to one poll period of the bell, on a loaded machine

  it('keeps the e-mail switches: /demo/Notifications opens them for the contact in use', async () => {
    const context = await signedIn(browser, giulia, { language: 'en-EN' });
    const page = await context.newPage();
    await page.goto(`${GIULIA}/tickets`);
    await settled(page);
    await page.goto(`${baseUrl}/demo/Notifications`);
    await page.waitForURL(`${GIULIA}/notifications`);
    await settled(page);
    const toggle = page.getByRole('switch', { name: 'one of my tickets changes status' });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await expect.poll(() => toggle.isDisabled()).toBe(false);
    await page.reload();
    await settled(page);
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await toggle.click();
    await expect.poll(() => toggle.isDisabled()).toBe(false);
    await page.reload();
    await settled(page);
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await context.close();
  });

  it('offers the colour scheme in the user menu and remembers it', async () => {
    const context = await signedIn(browser, giulia, { language: 'en-EN', colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${GIULIA}/notifications`);
    await settled(page);
    const scheme = () =>
      page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
    expect(await scheme()).toBe('light');
    await page.getByTestId('user-badge').click();
    await page.getByTestId('color-scheme-dark').click();
    await expect.poll(scheme).toBe('dark');
    await page.reload();
    await settled(page);
    expect(await scheme()).toBe('dark');
    await expectAccessible(page);
    await screenshot(page, 'notifications-page-en-1366-dark-chosen');
    await page.getByTestId('user-badge').click();
    await page.getByTestId('color-scheme-auto').click();
    await expect.poll(scheme).toBe('light');
    await context.close();
  });

  for (const [index, width] of [1366, 360].entries())
    for (const [lang, language] of languagesAt(LANGS, index))
      for (const colorScheme of ['light', 'dark'] as const) {
        if (colorScheme === 'dark' && lang === 'en' && ALL_LANGUAGES) continue;
        it(`shows the Notifications page at ${width} px in ${lang}, ${colorScheme}`, async () => {
          const context = await signedIn(browser, giulia, { width, language, colorScheme });
          const page = await context.newPage();
          await page.goto(`${GIULIA}/notifications`);
          await settled(page);
          await page.getByRole('switch').first().waitFor();
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
          await expectAccessible(page);
          await screenshot(page, `notifications-page-${lang}-${width}-${colorScheme}`);
          if (width === 360) {
            await page.getByTestId('notification-bell').click();
            await page.getByRole('dialog').waitFor();
            await expectAccessible(page);
            await screenshot(page, `notifications-bell-${lang}-${width}-${colorScheme}`);
          }
          await context.close();
        });
      }
});
