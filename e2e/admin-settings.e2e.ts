import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import {
  DEMO_ADMIN,
  DEMO_AGENT,
  expectAccessible,
  json,
  login,
  mailsTo,
  pageWith,
  post,
  settled,
  signedIn,
  staffLogin,
  waitForMail,
} from './kit';

const SETTINGS_API = `${baseUrl}/api/staff/portals/demo/admin/settings`;
const BRANDING_URL = `${baseUrl}/demo/staff/admin/branding`;
const SETUP_URL = `${baseUrl}/demo/staff/admin/ticket-setup`;
const TRIAGE_API = '/api/staff/portals/demo/admin/triage';
const WIDTHS = [1366, 360] as const;
const LANGUAGES = ['it-IT', 'en-EN', 'es-ES'] as const;
const PURPLE = { hex: '#6a1b9a', rgb: 'rgb(106, 27, 154)' };

/** The computed background of the portal header inside the preview frame. */
const previewHeader = (page: Page) =>
  page
    .frameLocator('[data-testid="branding-preview-frame"]')
    .getByTestId('app-header')
    .evaluate((el) => getComputedStyle(el).backgroundColor);

describe('desk administration: branding, settings and ticket setup', () => {
  let browser: Browser;
  let token: string;
  let original: string | null;

  beforeAll(async () => {
    browser = await launch();
    token = await staffLogin(DEMO_ADMIN);
    const res = await fetch(SETTINGS_API, { headers: { authorization: `Bearer ${token}` } });
    original = ((await res.json()) as { baseColor: string | null }).baseColor;
  });
  afterAll(async () => {
    // The other journeys know the demo portal in its own colour, and its admins told of unrouted tickets.
    if (token) {
      await fetch(SETTINGS_API, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ baseColor: original }),
      });
      await json(TRIAGE_API, token, { groupId: null }, 'PUT');
    }
    await browser?.close();
  });

  it('changes the portal colour: the preview takes it at once, and after saving the customer portal wears it', async () => {
    const page = await pageWith(browser, { staffToken: token });
    await page.goto(BRANDING_URL);
    await page.getByRole('heading', { level: 1, name: 'Branding and settings' }).waitFor();
    await expect.poll(() => previewHeader(page)).not.toBe(PURPLE.rgb);

    const color = page.getByTestId('base-color');
    await color.fill(PURPLE.hex);
    await color.blur();
    await expect.poll(() => previewHeader(page)).toBe(PURPLE.rgb);
    await expect
      .poll(() => page.getByTestId('contrast-check').innerText())
      .toMatch(/Header text in white: contrast \d+\.\d:1/);
    // The custom CSS applies to the preview only, never to the desk.
    await page.getByLabel('Custom CSS').fill('.portal-footer { outline: 3px solid rgb(255, 0, 0); }');
    await expect
      .poll(() =>
        page
          .frameLocator('[data-testid="branding-preview-frame"]')
          .locator('.portal-footer')
          .evaluate((el) => getComputedStyle(el).outlineColor),
      )
      .toBe('rgb(255, 0, 0)');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => previewHeader(page)).not.toBe(PURPLE.rgb);

    await color.fill(PURPLE.hex);
    await color.blur();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved' }).waitFor();
    await page.context().close();

    const customer = await signedIn(browser, await login('demo'), { language: 'en-EN' });
    const portal = await customer.newPage();
    await portal.goto(`${baseUrl}/demo`);
    await settled(portal);
    expect(
      await portal.getByTestId('app-header').evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe(PURPLE.rgb);
    await customer.close();
  });

  it("adds a status and a ticket type that the desk's pickers then offer, and removes them", async () => {
    const page = await pageWith(browser, { staffToken: token });
    await page.goto(SETUP_URL);
    await page.getByRole('heading', { level: 1, name: 'Ticket setup' }).waitFor();
    const add = async (field: string, name: string) => {
      const form = page.locator('form').filter({ has: page.getByLabel(field, { exact: true }) });
      await form.getByLabel(field, { exact: true }).fill(name);
      await form.getByRole('button', { name: 'Add' }).click();
      await page.getByLabel(`Name of ${name}`).waitFor();
    };
    await add('New status', 'Waiting for parts');
    await add('New ticket type', 'Installation');
    const res = await fetch(`${baseUrl}/api/staff/portals/demo/options`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const options = (await res.json()) as { steps: { name: string }[]; types: { name: string }[] };
    expect(options.steps.map((s) => s.name)).toContain('Waiting for parts');
    expect(options.types.map((s) => s.name)).toContain('Installation');
    for (const [table, name] of [
      ['setup-steps', 'Waiting for parts'],
      ['setup-types', 'Installation'],
    ] as const) {
      const row = page
        .getByTestId(table)
        .getByRole('row')
        .filter({ has: page.getByLabel(`Name of ${name}`) });
      await row.getByRole('button', { name: 'Remove' }).click();
      await row.getByRole('button', { name: 'Confirm removal' }).click();
      await page.getByLabel(`Name of ${name}`).waitFor({ state: 'detached' });
    }
    await page.context().close();
  });

  it("chooses the group told of unrouted tickets: a customer's new ticket e-mails its members, not the admin", async () => {
    const page = await pageWith(browser, { staffToken: token });
    await page.goto(SETUP_URL);
    const block = page.getByTestId('setup-triage');
    const select = block.getByRole('combobox', { name: 'Notify' });
    await expect.poll(() => select.inputValue()).toBe("The portal's admins");
    await select.click();
    // Manutenzione impianti (group 2): Sara's, not Marco's.
    await page.getByRole('option', { name: 'Manutenzione impianti' }).click();
    await block.getByRole('button', { name: 'Save' }).click();
    await block.getByRole('status').filter({ hasText: 'unrouted tickets now go' }).waitFor();
    expect(await json<{ group: { name: string } | null }>(TRIAGE_API, token)).toEqual({
      group: { id: 2, name: 'Manutenzione impianti' },
    });
    await page.context().close();

    const words = `Triage journey ${Date.now()}`;
    await post('/api/demo/11/tickets', await login('demo'), {
      title: words,
      taskTypeId: 1,
      description: `<p>${words}</p>`,
      attachments: [],
    });
    await waitForMail(DEMO_AGENT, words);
    expect(mailsTo(DEMO_ADMIN, words)).toEqual([]);
  });

  it('the branding and ticket setup screens at both widths in their languages, axe clean', async () => {
    for (const [i, width] of WIDTHS.entries())
      for (const language of languagesAt(LANGUAGES, i)) {
        const page = await pageWith(browser, { staffToken: token, width, language });
        await page.goto(BRANDING_URL);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.frameLocator('[data-testid="branding-preview-frame"]').getByTestId('app-header').waitFor();
        await expectAccessible(page);
        await screenshot(page, `admin-branding-${width}-${language}`);
        await page.goto(SETUP_URL);
        await page.getByTestId('setup-steps').waitFor();
        await page.getByTestId('setup-triage').getByRole('combobox').waitFor();
        await expectAccessible(page);
        await screenshot(page, `admin-ticket-setup-${width}-${language}`);
        await page.context().close();
      }
    // Six passes with E2E_ALL_LANGUAGES=1, each with axe twice: more than the default minute under load.
  }, 240_000);
});
