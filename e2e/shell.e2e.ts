// Browser journeys of the shell: guard, sign-in, dashboard redirects, menu by permission, company
// switcher, branding, ticket search, language, logout, accessibility and the phone layout.
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, screenshot } from './browser';

const PASSWORD = 'Sportello-Demo-2026';
/** A portal of our own (created in beforeAll) with a contact that lacks manageTickets and no base colour. */
const SHELL_PORTAL = 'e2e-shell';
const SHELL_USER = 'shell.e2e';
const SHELL_PASSWORD = 'Shell-E2E-Password-1';

async function importShellPortal(): Promise<void> {
  const res = await fetch(`${baseUrl}/api/admin/import`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${process.env.PORTAL_ADMIN_KEY ?? ''}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      formatVersion: 1,
      portals: [
        {
          webPortalKey: SHELL_PORTAL,
          webPortalName: 'Shell Test Portal',
          baseColor: 'hsl(123,0%,0%)',
          statusSteps: [
            { id: 1, name: 'Aperto', taskStatus: 0, isDefault: true },
            { id: 2, name: 'Chiuso', taskStatus: 2, isClosing: true },
          ],
          companies: [
            {
              id: 1,
              companyName: 'Fatture Srl',
              contacts: [
                {
                  contactId: 501,
                  referentName: 'Franca Fatture',
                  permissions: { viewContactInvoices: true, viewContactDocuments: true },
                },
              ],
            },
          ],
        },
      ],
      users: [
        {
          userName: SHELL_USER,
          email: 'shell.e2e@example.com',
          password: SHELL_PASSWORD,
          contacts: [{ webPortalKey: SHELL_PORTAL, contactId: 501 }],
        },
      ],
    }),
  });
  if (!res.ok) throw new Error(`import failed: ${res.status} ${await res.text()}`);
}

describe('the shell', () => {
  let browser: Browser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await launch();
    await importShellPortal();
  });
  afterAll(async () => {
    await browser?.close();
    expect(pageErrors).toEqual([]);
  });

  /** A fresh context (empty localStorage) per journey. */
  async function newPage(width = 1280, height = 800): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    return page;
  }

  const settled = (page: Page) => page.getByTestId('full-screen-spinner').waitFor({ state: 'detached' });
  /** The shell has settled and the (lazy) page has drawn its heading: ready for a screenshot or axe. */
  const pageShown = async (page: Page) => {
    await settled(page);
    await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
  };

  async function signIn(page: Page, userName: string, password = PASSWORD, company = 'demo'): Promise<void> {
    await page.goto(`${baseUrl}/${company}/Login`);
    // The app's form, once the drawn one it replaces is gone (both are in the document until then).
    await page.waitForFunction(() => !document.getElementById('sign-in-shell'));
    await page.getByLabel('Nome utente o e-mail').fill(userName);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Accedi' }).click();
    await page.waitForURL((url) => !/\/login/i.test(url.pathname));
    await settled(page);
  }

  const menuNames = (page: Page) =>
    page.getByRole('navigation', { name: 'Menu principale' }).getByRole('link').allTextContents();

  async function seriousViolations(page: Page) {
    const result = await new AxeBuilder({ page }).analyze();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  it('sends a deep link without a token to /demo/Login, and to /Login without a company', async () => {
    const page = await newPage();
    await page.goto(`${baseUrl}/demo/11/tickets`);
    await page.waitForURL(`${baseUrl}/demo/Login`);
    await page.getByRole('heading', { level: 1, name: 'Accesso' }).waitFor();
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(`${baseUrl}/Login`);
    await page.close();
  });

  it('shows the login page branded, accessible, and refuses wrong credentials with the A8 message', async () => {
    const page = await newPage();
    await page.goto(`${baseUrl}/demo/login`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByTestId('auth-header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(11, 114, 133)',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'shell-login');

    // English texts are the SPEC's: switch language on the login page itself.
    await page.getByRole('button', { name: /^Lingua/ }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
    // An unknown name: the answer is the same as for a wrong password, and no demo account gets throttled.
    await page.getByLabel('Username or e-mail').fill('nobody.e2e');
    await page.getByLabel(/^Password/).fill('wrong-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong username or password');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.close();
  });

  it('signs demo in, opens tickets from the dashboard and paints the header in the portal colour', async () => {
    const page = await newPage();
    await signIn(page, 'demo');
    await page.goto(`${baseUrl}/demo/11`);
    await page.waitForURL(`${baseUrl}/demo/11/tickets`);
    await settled(page);
    const header = page.getByTestId('app-header');
    expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(11, 114, 133)');
    expect(await header.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');
    expect(await page.getByRole('link', { name: 'I miei ticket' }).getAttribute('aria-current')).toBe('page');
    // The portal's custom footer, sanitised: its markup shows, nothing executable.
    await expect.poll(() => page.locator('footer').textContent()).toContain('Sportello Assistenza Srl');
    expect(await page.locator('footer script').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('company'))).toBe('demo');
    expect(await page.evaluate(() => localStorage.getItem('contactId'))).toBe('11');
    await pageShown(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'shell-layout');
    await page.close();
  });

  it('shows the menu by permission: everything for demo, tickets and reports for giulia.bianchi', async () => {
    const demo = await newPage();
    await signIn(demo, 'demo');
    await demo.goto(`${baseUrl}/demo/11/tickets`);
    await settled(demo);
    await expect
      .poll(() => menuNames(demo))
      .toEqual([
        'Panoramica',
        'I miei ticket',
        'Tutti i ticket',
        'Contratti',
        'Contratti a ore e a unità',
        'Abbonamenti attivi',
        'Rapportini',
        'Wiki',
        'Preventivi',
        'Fatture',
        'Documenti aziendali',
        'Documenti pubblici',
      ]);
    // The portal enables service contracts: Contracts points there.
    expect(await demo.getByRole('link', { name: 'Contratti', exact: true }).getAttribute('href')).toBe(
      '/demo/11/servicecontracts',
    );
    // ...and hour and unit contracts keep an item of their own.
    expect(await demo.getByRole('link', { name: 'Contratti a ore e a unità' }).getAttribute('href')).toBe(
      '/demo/11/activitycontracts',
    );
    await demo.close();

    const giulia = await newPage();
    await signIn(giulia, 'giulia.bianchi');
    await giulia.waitForURL(`${baseUrl}/demo/12/tickets`);
    // Public files show for everyone while the portal has some.
    await expect
      .poll(() => menuNames(giulia))
      .toEqual(['Panoramica', 'I miei ticket', 'Rapportini', 'Documenti pubblici']);
    // A list route without its flag is refused: back to the first allowed section.
    await giulia.goto(`${baseUrl}/demo/12/invoices`);
    await giulia.waitForURL(`${baseUrl}/demo/12/tickets`);
    await giulia.close();
  });

  it('sends a contact without manageTickets to its first section and refuses my tickets', async () => {
    const page = await newPage();
    await signIn(page, SHELL_USER, SHELL_PASSWORD, SHELL_PORTAL);
    await page.waitForURL(`${baseUrl}/${SHELL_PORTAL}/501/invoices`);
    await expect.poll(() => menuNames(page)).toEqual(['Panoramica', 'Fatture', 'Documenti aziendali']);
    // The one search is for every contact (it finds only what the contact may see).
    expect(await page.getByTestId('ticket-search-button').count()).toBe(1);
    // The unset sentinel gives the default header colour.
    expect(await page.getByTestId('app-header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(32, 33, 36)',
    );
    await page.goto(`${baseUrl}/${SHELL_PORTAL}/501/tickets`);
    await page.waitForURL(`${baseUrl}/${SHELL_PORTAL}/501/invoices`);
    await page.close();
  });

  it('switches company from the logo and remembers the choice', async () => {
    const page = await newPage();
    await signIn(page, 'demo');
    await page.goto(`${baseUrl}/demo/11/tickets`);
    await settled(page);
    await page.getByTestId('company-switcher').click();
    const items = page.getByRole('menuitem');
    expect(await items.allTextContents()).toEqual(['Bottega Verdi Snc Sportello Assistenza']);
    await items.first().click();
    await page.waitForURL(`${baseUrl}/demo/22/tickets`);
    expect(await page.evaluate(() => localStorage.getItem('contactId'))).toBe('22');
    // The layout without a contact in the address goes back to the remembered one.
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(`${baseUrl}/demo/22/tickets`);
    await page.close();
  });

  it('searches my tickets by title in the one search popup and opens one', async () => {
    const page = await newPage();
    await signIn(page, 'demo');
    await page.goto(`${baseUrl}/demo/11/tickets`);
    await settled(page);
    await page.getByTestId('ticket-search-button').click();
    const dialog = page.getByRole('dialog', { name: 'Cerca' });
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(800);
    expect(box?.height).toBeLessThanOrEqual(600);
    // Escape closes the popup.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await page.getByTestId('ticket-search-button').click();
    await page.getByLabel('Cerca nel portale').fill('backup');
    await expect
      .poll(() => dialog.locator('[data-search-group="tickets"] [data-search-result]').allTextContents())
      .toEqual([expect.stringContaining('Backup notturno non completato')]);
    await screenshot(page, 'shell-ticket-search');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${baseUrl}/demo/11/tickets/1004`);
    await dialog.waitFor({ state: 'hidden' });
    await page.close();
  });

  it('keeps the chosen language after a reload and sets <html lang>', async () => {
    const page = await newPage();
    await signIn(page, 'demo');
    await page.goto(`${baseUrl}/demo/11/tickets`);
    await settled(page);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('it-IT');
    await page.getByRole('button', { name: /^Lingua/ }).click();
    await page.getByRole('menuitemradio', { name: 'Español' }).click();
    await page.getByRole('link', { name: 'Mis tickets' }).waitFor();
    await page.reload();
    await settled(page);
    await page.getByRole('link', { name: 'Mis tickets' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es-ES');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('es-ES');
    await page.close();
  });

  it('logs out from the user badge: the token is gone and the guard applies again', async () => {
    const page = await newPage();
    await signIn(page, 'demo');
    await page.goto(`${baseUrl}/demo/11/tickets`);
    await settled(page);
    await page.getByTestId('user-badge').click();
    expect(await page.getByTestId('user-name').textContent()).toBe('demo');
    await page.getByRole('menuitem', { name: 'Esci' }).click();
    await page.waitForURL(`${baseUrl}/demo/Login`);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto(`${baseUrl}/demo/11/invoices`);
    await page.waitForURL(`${baseUrl}/demo/Login`);
    await page.close();
  });

  it('is usable by keyboard: the skip link reaches the main content', async () => {
    const page = await newPage();
    await signIn(page, 'demo');
    await page.goto(`${baseUrl}/demo/11/tickets`);
    await settled(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Vai al contenuto principale',
    );
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    await page.close();
  });

  it('fits a 375 px phone: a burger opens the menu as a drawer', async () => {
    const page = await newPage(375, 812);
    await signIn(page, 'demo');
    await page.goto(`${baseUrl}/demo/11/tickets`);
    await settled(page);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await pageShown(page);
    const nav = page.getByRole('navigation', { name: 'Menu principale' });
    expect(await nav.isVisible()).toBe(false);
    await screenshot(page, 'shell-mobile');
    await page.getByRole('button', { name: 'Apri il menu' }).click();
    await nav.waitFor({ state: 'visible' });
    await screenshot(page, 'shell-mobile-menu');
    await nav.getByRole('link', { name: 'Fatture' }).click();
    await page.waitForURL(`${baseUrl}/demo/11/invoices`);
    await expect.poll(() => nav.isVisible()).toBe(false);
    await page.close();
  });
});
