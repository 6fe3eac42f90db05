import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, screenshot } from './browser';
import { login } from './kit';

// Demo data (apps/api/src/modules/admin/demo-data.ts): user `demo` holds contact 11 (Marco Rossi, Rossi
// Impianti Srl, every permission, administrator). Dates in the demo are relative to today.
const HOME = `${baseUrl}/demo/11`;
const ZONE = 'Europe/Rome';

/** A signed-in context in the given language, in the portal's time zone. */
async function signedIn(
  browser: Browser,
  token: string,
  language = 'en-EN',
  width = 1280,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    timezoneId: ZONE,
    locale: 'en-GB',
  });
  await context.addInitScript(
    ([t, lang]) => {
      // Runs in every frame too; the sandboxed file previews have no storage.
      if (window.top !== window || !window.localStorage) return;
      localStorage.setItem('token', t!);
      if (!localStorage.getItem('language')) localStorage.setItem('language', lang!);
    },
    [token, language],
  );
  return context;
}

/** No serious or critical axe violation on the page as it is now. */
async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.any[0]?.message ?? ''})`).join(', ')}`,
    );
  expect(bad).toEqual([]);
}

/** Opens a list screen and waits for its heading and for the loading skeleton to go. */
async function open(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(`${HOME}/${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
  expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
}

/** DD/MM/YYYY of a day relative to today in the portal's zone. */
function dayInRome(offset: number): string {
  const d = new Date(Date.now() + offset * 86_400_000);
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(d);
  return parts; // en-GB formats as DD/MM/YYYY
}

/** Types a range into the date picker of the page and closes it. */
async function typeRange(page: Page, label: string, from: string, to: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${label}`) }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'From', exact: true }).fill(from);
  await dialog.getByRole('textbox', { name: 'To', exact: true }).fill(to);
  await dialog.getByRole('textbox', { name: 'To', exact: true }).press('Enter');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

const rows = (page: Page, testId: string): Locator => page.getByTestId(testId);

describe('list screens', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await launch();
    token = await login('demo');
    context = await signedIn(browser, token);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(() => browser?.close());

  it('activity reports: rows, name / date / wiki filters, ticket links and the 900 px document', async () => {
    await open(page, 'activityreports', 'Reports');
    await expect.poll(() => rows(page, 'report-row').count()).toBe(4);
    // The administrator sees every ticket of the company: each linked report keeps its ticket link.
    await expect.poll(() => page.getByTestId('report-ticket-link').count()).toBe(4);
    const first = rows(page, 'report-row').filter({ hasText: 'Ripristino servizio database' });
    expect(await first.getByRole('link').getAttribute('href')).toBe('/demo/11/tickets/1001');

    await page.getByLabel('Search by name').fill('nas');
    await expect.poll(() => rows(page, 'report-row').count()).toBe(1);
    await page.getByLabel('Search by name').fill('');

    // The open picker: presets beside a two-month calendar, and accessible.
    await page.getByRole('button', { name: /^Period/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Last month' }).waitFor();
    await page.waitForTimeout(400); // the panel fades in
    await screenshot(page, 'lists-date-picker');
    await expectAccessible(page);
    expect(await page.getByRole('dialog').evaluate((d) => Math.round(d.getBoundingClientRect().width))).toBe(
      692,
    );
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await typeRange(page, 'Period', dayInRome(-20), dayInRome(0));
    await expect.poll(() => rows(page, 'report-row').count()).toBe(2);
    await page.getByRole('button', { name: /^Period/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => rows(page, 'report-row').count()).toBe(4);

    await page.getByRole('button', { name: /^Wiki item/ }).click();
    await page.getByPlaceholder('search among wiki items').fill('NAS');
    await page.getByRole('option', { name: 'Server e rete - NAS-01 Backup' }).click();
    await expect.poll(() => rows(page, 'report-row').count()).toBe(1);
    await expect.poll(() => rows(page, 'report-row').first().textContent()).toContain('Backup NAS');

    const row = rows(page, 'report-row').first().getByRole('button');
    await row.focus();
    await page.keyboard.press('Enter');
    expect(await row.getAttribute('aria-pressed')).toBe('true');
    const frame = page.locator('iframe');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toMatch(/^\/api\/files\/\d+\/.+\.pdf\?e=/);
    expect(await frame.evaluate((f) => f.getBoundingClientRect().height)).toBe(900);
    const pdf = await page.request.get(`${baseUrl}${await frame.getAttribute('src')}`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    await screenshot(page, 'lists-reports');
    await expectAccessible(page);
    await row.press('Enter');
    await frame.waitFor({ state: 'detached' });
    expect(await row.getAttribute('aria-pressed')).toBe('false');
  });

  it('activity contracts: only active by default, expired faded under all, activities on expand', async () => {
    // Beside service contracts (the demo portal has them) the page is named as its menu item.
    await open(page, 'activitycontracts', 'Hour and unit contracts');
    await expect.poll(() => rows(page, 'activity-contract').count()).toBe(2);
    const hours = rows(page, 'activity-contract').filter({ hasText: 'Monte ore assistenza IT' });
    expect(await hours.getByTestId('contract-residual').textContent()).toBe(
      'Remaining time 35:00 of 40 hours',
    );
    const units = rows(page, 'activity-contract').filter({ hasText: 'Pacchetto interventi impianti' });
    expect(await units.getByTestId('contract-residual').textContent()).toBe('Remaining 7 of 10 units');
    expect(await units.getByTestId('contract-validity').textContent()).toMatch(
      /^Valid from \d\d\/\d\d\/\d{4} to \d\d\/\d\d\/\d{4}$/,
    );

    await page.getByRole('combobox', { name: 'Show' }).click();
    await page.getByRole('option', { name: 'All' }).click();
    await expect.poll(() => rows(page, 'activity-contract').count()).toBe(3);
    expect(await page.locator('[data-testid="activity-contract"][data-expired]').count()).toBe(1);

    await hours.first().getByRole('button', { expanded: false }).click();
    const activities = hours.first().getByTestId('contract-activity');
    await expect.poll(() => activities.count()).toBe(3);
    const onSite = activities.filter({ hasText: 'Intervento on-site' });
    expect(await onSite.textContent()).toContain('Via Emilia 120, 41121 Modena');
    expect(await onSite.getByRole('link', { name: 'Download the report' }).getAttribute('href')).toMatch(
      /&download=1$/,
    );
    expect(await activities.filter({ hasText: 'Assistenza remota' }).textContent()).not.toContain(
      'Via Emilia',
    );
    await screenshot(page, 'lists-activity-contracts');
    await expectAccessible(page);
  });

  it('service contracts: badges in the language shown, tag and asset filters, packages and none', async () => {
    await open(page, 'servicecontracts', 'Contracts');
    await expect.poll(() => rows(page, 'service-contract').count()).toBe(2);
    const badge = (name: string) =>
      rows(page, 'service-contract').filter({ hasText: name }).getByTestId('contract-badge').textContent();
    expect(await badge('Manutenzione server e backup')).toBe('ACTIVE');
    expect(await badge('Manutenzione climatizzazione')).toBe('EXPIRING');

    await page.getByRole('combobox', { name: 'Show' }).click();
    await page.getByRole('option', { name: 'All' }).click();
    await expect.poll(() => rows(page, 'service-contract').count()).toBe(3);
    const expired = rows(page, 'service-contract').filter({ hasText: 'Verifica impianto elettrico' });
    expect(await expired.getByTestId('contract-badge').textContent()).toBe('EXPIRED');
    expect(await expired.getByTestId('no-packages').textContent()).toBe('No packages');
    expect(await expired.getByRole('link', { name: 'Verbale di verifica.pdf' }).getAttribute('href')).toMatch(
      /^\/api\/files\//,
    );

    await page.getByRole('button', { name: /^Tags/ }).click();
    await page.getByRole('option', { name: 'Climatizzazione' }).click();
    await expect.poll(() => rows(page, 'service-contract').count()).toBe(1);
    // Tags are grouped under their tag group, and the open list passes axe.
    await page.getByRole('group', { name: 'Impianti' }).waitFor();
    await screenshot(page, 'lists-tags-open');
    await expectAccessible(page);
    expect(await page.getByRole('button', { name: /^Tags/ }).textContent()).toContain('1 tag');
    await page.keyboard.press('Escape');
    // The list must be closed before the button is pressed again, or that press closes it instead.
    await page.getByRole('option', { name: 'Climatizzazione' }).waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: /^Tags/ }).click();
    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => rows(page, 'service-contract').count()).toBe(3);

    await page.getByRole('button', { name: /^Assets/ }).click();
    await page.getByRole('option', { name: 'NAS-01 Backup' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => rows(page, 'service-contract').count()).toBe(1);
    const server = rows(page, 'service-contract').first();
    expect(await server.textContent()).toContain('SRV-01 Server gestionale');
    expect(await server.textContent()).toContain('NAS-01 Backup');
    const pkg = server.getByTestId('service-package').filter({ hasText: 'Interventi on-site' });
    expect(await pkg.textContent()).toContain('Units: 12 interventi');
    expect(await pkg.textContent()).toContain('Residual: 9 interventi');
    await pkg.getByRole('button').click();
    await expect.poll(() => pkg.getByTestId('contract-activity').count()).toBe(1);
    await screenshot(page, 'lists-service-contracts');
    await expectAccessible(page);
  });

  it('documents: search, pdf and image previews, upload with progress', async () => {
    await open(page, 'documents', 'Company files');
    // The demo's two documents of contact 11 (other runs may have uploaded more).
    await rows(page, 'file-row').filter({ hasText: 'Visura camerale.pdf' }).waitFor();
    await rows(page, 'file-row').filter({ hasText: 'Planimetria uffici.png' }).waitFor();
    expect(await rows(page, 'file-row').filter({ hasText: 'Visura camerale.pdf' }).textContent()).toMatch(
      /Uploaded on \d\d\/\d\d\/\d{4}/,
    );
    await page.getByLabel('Search by name').fill('visura');
    await expect.poll(() => rows(page, 'file-row').count()).toBe(1);
    await rows(page, 'file-row').first().getByRole('button').click();
    const frame = page.locator('iframe');
    await frame.waitFor();
    expect(await frame.evaluate((f) => f.getBoundingClientRect().height)).toBe(800);
    expect(await page.getByRole('link', { name: 'Download' }).getAttribute('href')).toMatch(/&download=1$/);
    await page.getByLabel('Search by name').fill('');
    await rows(page, 'file-row').filter({ hasText: 'Planimetria' }).getByRole('button').click();
    const img = page.locator('main img[alt="planimetria-uffici.png"]');
    await img.waitFor();
    expect(await img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);

    // Slow the upload down so the progress bar is seen moving.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    const name = `e2e-upload-${Date.now()}.pdf`;
    const body = Buffer.concat([
      Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n'),
      Buffer.alloc(768 * 1024, 0x20),
      Buffer.from('\ntrailer <<>>\n%%EOF\n'),
    ]);
    await page.getByTestId('document-dropzone').locator('input[type=file]').setInputFiles({
      name,
      mimeType: 'application/pdf',
      buffer: body,
    });
    const progress = page.getByRole('progressbar', { name: `Upload of ${name}` });
    await progress.waitFor();
    await expect
      .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await screenshot(page, 'lists-documents-uploading');
    await page.locator('[data-testid="upload-item"][data-status="done"]').waitFor({ timeout: 20_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect.poll(() => rows(page, 'file-row').filter({ hasText: name }).count()).toBe(1);
    await screenshot(page, 'lists-documents');
    await expectAccessible(page);
  });

  it('public files: search and preview', async () => {
    await open(page, 'publicfiles', 'Public files');
    await expect.poll(() => rows(page, 'file-row').count()).toBe(2);
    await page.getByLabel('Search by file name').fill('listino');
    await expect.poll(() => rows(page, 'file-row').count()).toBe(1);
    await rows(page, 'file-row').first().getByRole('button').click();
    await page.locator('iframe').waitFor();
    await expectAccessible(page);
  });

  it('invoices: search by number, date range, euro totals and the 900 px document', async () => {
    await open(page, 'invoices', 'Invoices');
    await expect.poll(() => rows(page, 'invoice-row').count()).toBe(3);
    const first = rows(page, 'invoice-row').filter({ hasText: '/0412' });
    expect(await first.textContent()).toContain('€219.60');
    expect(await first.textContent()).toContain(`Date ${dayInRome(-5)}`);
    expect(await rows(page, 'invoice-row').filter({ hasText: '/0366' }).textContent()).toContain('€1,464.00');
    // The payment as the back office tracks it: due, overdue (in bold red, in words), paid.
    const payment = (number: string) =>
      rows(page, 'invoice-row').filter({ hasText: number }).getByTestId('invoice-payment').textContent();
    expect(await payment('/0412')).toBe(`Due by ${dayInRome(25)}`);
    expect(await payment('/0366')).toBe(`Overdue: due ${dayInRome(-6)}`);
    expect(await payment('/0301')).toBe(`Paid on ${dayInRome(-40)}`);
    // In red-9 (#c92a2a), not the text's colour: the build's light-dark() needs the declared scheme.
    const overdue = rows(page, 'invoice-row').filter({ hasText: '/0366' }).getByTestId('invoice-payment');
    expect(await overdue.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(201, 42, 42)');
    await page.getByLabel('Search by number').fill('0366');
    await expect.poll(() => rows(page, 'invoice-row').count()).toBe(1);
    await page.getByLabel('Search by number').fill('');
    await typeRange(page, 'Period', dayInRome(-40), dayInRome(-30));
    await expect.poll(() => rows(page, 'invoice-row').count()).toBe(1);
    await rows(page, 'invoice-row').first().getByRole('button').click();
    const frame = page.locator('iframe');
    await frame.waitFor();
    expect(await frame.evaluate((f) => f.getBoundingClientRect().height)).toBe(900);
    expect(await page.getByRole('link', { name: 'Download' }).getAttribute('href')).toMatch(/&download=1$/);
    await page.waitForTimeout(1500); // let the PDF viewer paint before the picture
    await screenshot(page, 'lists-invoices');
    await expectAccessible(page);
  });

  it('estimates: revision when above 0, totals with 2 decimals', async () => {
    await open(page, 'estimates', 'Estimates');
    await expect.poll(() => rows(page, 'estimate-row').count()).toBe(3);
    const revised = rows(page, 'estimate-row').filter({ hasText: '€2,640.50' });
    expect(await revised.getByTestId('estimate-revision').textContent()).toBe('Rev. 1');
    expect(
      await rows(page, 'estimate-row')
        .filter({ hasText: '€2,890.00' })
        .getByTestId('estimate-revision')
        .count(),
    ).toBe(0);
    await page.getByLabel('Search by name').fill('climatizzazione');
    await expect.poll(() => rows(page, 'estimate-row').count()).toBe(1);
    await rows(page, 'estimate-row').first().getByRole('button').click();
    await page.locator('iframe').waitFor();
    await expectAccessible(page);
  });

  it('wiki: open folders that toggle, name search, property panel with its own search', async () => {
    await open(page, 'wiki', 'Wiki');
    await expect.poll(() => rows(page, 'wiki-folder').count()).toBe(2);
    await expect.poll(() => rows(page, 'wiki-element').count()).toBe(5);
    const folder = page.getByRole('button', { name: 'Impianti', exact: true });
    expect(await folder.getAttribute('aria-expanded')).toBe('true');
    await folder.click();
    expect(await folder.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => page.getByRole('button', { name: 'Quadro elettrico generale' }).count()).toBe(0);
    await folder.click();

    await page.getByLabel('Search by name').fill('srv');
    await expect.poll(() => rows(page, 'wiki-element').count()).toBe(1);
    await page.getByRole('button', { name: 'SRV-01 Server gestionale' }).click();
    const panel = page.getByTestId('wiki-panel');
    await panel.waitFor();
    expect(await panel.getByRole('link', { name: 'scheda-srv-01.pdf' }).getAttribute('href')).toMatch(
      /^\/api\/files\//,
    );
    expect(await panel.getByTestId('wiki-contracts').textContent()).toContain('Manutenzione server e backup');
    expect(await panel.textContent()).toContain('Windows Server 2022');
    await panel.getByLabel('Search properties by typology').fill('indirizzo');
    await expect.poll(() => panel.locator('dt').count()).toBe(1);
    await screenshot(page, 'lists-wiki');
    await expectAccessible(page);
  });

  it('recurring subscriptions: recurrence texts in English and Italian, search by code', async () => {
    await open(page, 'recurringAdvances', 'Active subscriptions');
    await expect.poll(() => rows(page, 'subscription-row').count()).toBe(3);
    const text = (code: string) =>
      rows(page, 'subscription-row').filter({ hasText: code }).getByTestId('recurrence-text').textContent();
    expect(await text('PUL-FILTRI')).toBe('Every 2 weeks on WED');
    expect(await text('CAN-IT')).toMatch(/^Every month on day \d{1,2}$/);
    expect(await text('DOM-PEC')).toBe('Every year on 15 March');
    await page.getByLabel('Search by description or code').fill('pec');
    await expect.poll(() => rows(page, 'subscription-row').count()).toBe(1);
    await expectAccessible(page);

    await page.evaluate(() => localStorage.setItem('language', 'it-IT'));
    await open(page, 'recurringAdvances', 'Abbonamenti attivi');
    await expect.poll(() => rows(page, 'subscription-row').count()).toBe(3);
    expect(await text('PUL-FILTRI')).toBe('Ogni 2 settimane il MER');
    expect(await text('CAN-IT')).toMatch(/^Ogni mese il giorno \d{1,2}$/);
    expect(await text('DOM-PEC')).toBe('Ogni anno il 15 marzo');
    expect(await rows(page, 'subscription-row').filter({ hasText: 'CAN-IT' }).textContent()).toMatch(
      /219,60\s€/,
    );
    await screenshot(page, 'lists-subscriptions-it');
    await page.evaluate(() => localStorage.setItem('language', 'en-EN'));
  });

  it('works on a 375 px phone: no sideways scroll, the preview opens in a drawer', async () => {
    const phone = await signedIn(browser, token, 'en-EN', 375);
    const p = await phone.newPage();
    await open(p, 'invoices', 'Invoices');
    await expect.poll(() => rows(p, 'invoice-row').count()).toBe(3);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(p, 'lists-invoices-375');
    await rows(p, 'invoice-row').first().getByRole('button').click();
    const drawer = p.getByRole('dialog');
    await drawer.locator('iframe').waitFor();
    await screenshot(p, 'lists-invoices-375-preview');
    await expectAccessible(p);
    await p.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await open(p, 'servicecontracts', 'Contracts');
    await expect.poll(() => rows(p, 'service-contract').count()).toBe(2);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(p, 'lists-service-contracts-375');
    // The date picker stacks its presets above a one-month calendar and stays inside the screen.
    await p.getByRole('button', { name: /^Period/ }).click();
    const picker = p.getByRole('dialog');
    await picker.getByRole('button', { name: 'Last month' }).waitFor();
    await p.waitForTimeout(400);
    expect(await picker.evaluate((d) => d.getBoundingClientRect().right)).toBeLessThanOrEqual(375);
    expect(await picker.locator('table').count()).toBe(1);
    await screenshot(p, 'lists-date-picker-375');
    await expectAccessible(p);
    await p.keyboard.press('Escape');
    await phone.close();
  });

  it('raised no page errors', () => {
    expect(errors).toEqual([]);
  });
});
