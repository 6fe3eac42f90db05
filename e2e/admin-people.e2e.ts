import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import { contextWith, DEMO_ADMIN, expectAccessible, mailsTo, staffLogin } from './kit';

const ADMIN_AREA = `${baseUrl}/demo/staff/admin/companies`;
const LANGUAGES = [
  ['it-IT', 'it'],
  ['en-EN', 'en'],
  ['es-ES', 'es'],
] as const;

describe('administration: companies, contacts and users', () => {
  let browser: Browser;
  let token: string;
  const stamp = Date.now();
  const companyName = `Journey Srl ${stamp}`;
  const contactName = `Chiara Journey ${stamp}`;
  const email = `chiara.${stamp}@example.com`;
  let contactUrl = '';

  beforeAll(async () => {
    browser = await launch();
    token = await staffLogin(DEMO_ADMIN);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a company and a contact, invites a user who sets a password and signs in', async () => {
    const context = await contextWith(browser, { staffToken: token });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(ADMIN_AREA);
    await page.getByRole('heading', { name: 'Companies and contacts', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New company' }).click();
    await page.getByRole('dialog').getByLabel('Company name').fill(companyName);
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: companyName, level: 1 }).waitFor();

    await page.getByRole('link', { name: 'New contact' }).click();
    await page.getByRole('heading', { name: 'New contact', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: /^Name/ }).fill(contactName);
    await page.getByRole('textbox', { name: /^E-mail/ }).fill(email);
    // Each permission says what it allows.
    await page.getByText('Opens tickets and replies in their conversations.').waitFor();
    await page.getByRole('checkbox', { name: /^Tickets/ }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: contactName, level: 1 }).waitFor();
    await expect.poll(() => /\/contacts\/\d+$/.test(page.url())).toBe(true);
    contactUrl = page.url();

    await page.getByRole('button', { name: 'Invite' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('textbox', { name: /^E-mail/ }).inputValue()).toBe(email);
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await page.getByText('Invitation sent.').waitFor();
    await page.getByRole('cell', { name: email }).first().waitFor();
    await page.getByText('Invited', { exact: true }).waitFor();

    // The invitation e-mail, its link opened in a browser without any session.
    await expect.poll(() => mailsTo(email, '/confirm?token=').length, { timeout: 20_000 }).toBeGreaterThan(0);
    const link = /\/confirm\?token=[^\s"<>]+/
      .exec(mailsTo(email, '/confirm?token=')[0]!)![0]
      .replace(/&amp;/g, '&');
    const customer = await browser.newContext({
      viewport: { width: 1366, height: 900 },
      reducedMotion: 'reduce',
    });
    await customer.addInitScript(() => localStorage.setItem('language', 'en-EN'));
    const cp = await customer.newPage();
    await cp.goto(`${baseUrl}${link}`);
    await cp.getByRole('heading', { name: 'Set your password' }).waitFor();
    await cp.getByLabel('New password').fill('Journey-Password-2026');
    await cp.getByLabel('Repeat the password').fill('Journey-Password-2026');
    await cp.getByRole('button', { name: 'Confirm' }).click();
    // Signed in: the portal as the new contact sees it.
    await cp.getByTestId('app-header').waitFor();
    await cp.getByTestId('full-screen-spinner').waitFor({ state: 'detached' });
    await expect.poll(() => new URL(cp.url()).pathname).toMatch(/^\/demo\/\d+\/tickets$/);
    await customer.close();

    // The user is active now.
    await page.reload();
    await page.getByText('Active', { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('sees the portal as the contact: a read-only tab with its banner, writes refused', async () => {
    const context = await contextWith(browser, { staffToken: token });
    const page = await context.newPage();
    await page.goto(contactUrl);
    await page.getByRole('heading', { name: contactName, level: 1 }).waitFor();
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'See as this contact' }).click(),
    ]);
    await tab.getByText(`Viewing the portal as ${contactName} (read-only)`).waitFor();
    await tab.getByTestId('full-screen-spinner').waitFor({ state: 'detached' });
    // The one-time code never stays in the address.
    expect(new URL(tab.url()).hash).toBe('');
    expect(new URL(tab.url()).pathname).toMatch(/^\/demo\/\d+\//);
    const refused = await tab.evaluate(async () => {
      const contact = location.pathname.split('/')[2];
      const res = await fetch(`/api/demo/${contact}/tickets`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${sessionStorage.getItem('token')}`,
        },
        body: JSON.stringify({ title: 'x', taskTypeId: 1, description: '<p>x</p>', attachments: [] }),
      });
      return { status: res.status, code: ((await res.json()) as { code: string }).code };
    });
    expect(refused).toEqual({ status: 403, code: 'read_only_session' });
    await expectAccessible(tab);
    await screenshot(tab, 'admin-people-view-as-1366-en');
    await context.close();
  }, 60_000);

  it.each([
    [1366, 0],
    [360, 1],
  ])(
    'the screens at %i px in their languages, axe clean',
    async (width, index) => {
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const context = await contextWith(browser, { staffToken: token, width, language });
        const page: Page = await context.newPage();
        const name = (s: string) => `admin-people-${s}-${width}-${short}`;
        await page.goto(ADMIN_AREA);
        await page.getByRole('table').waitFor();
        await expectAccessible(page);
        await screenshot(page, name('companies'));
        await page.goto(contactUrl);
        await page.getByRole('heading', { name: contactName, level: 1 }).waitFor();
        await page.getByRole('table').waitFor();
        await expectAccessible(page);
        await screenshot(page, name('contact'));
        await context.close();
      }
    },
    120_000,
  );
});
