// The desk's catalogue administration (issue 14 items 2 and 4) on the demo portal: an admin creates a
// booking link with weekly hours and the booking page offers those hours; cancels a booking and the
// customer's cancellation e-mail is in the outbox; creates an hour contract and a service contract with
// a package that the contact then sees; adds a tag of the portal that the service contract picks.
// Screenshots of the sections at 1366 and 360 px in it/en/es, each checked with axe.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import {
  contextWith,
  DEMO_ADMIN,
  expectAccessible,
  get,
  login,
  mailsTo,
  post,
  settled,
  signedIn,
  staffLogin,
} from './kit';

const ADMIN_URL = `${baseUrl}/demo/staff/admin`;
const RUN = Date.now().toString(36);
const PDF = Buffer.from('%PDF-1.4\n% condizioni\n%%EOF\n');
const LANGUAGES = [
  ['it-IT', 'it'],
  ['en-EN', 'en'],
  ['es-ES', 'es'],
] as const;

describe('catalogue administration', () => {
  let browser: Browser;
  let staffToken: string;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  const linkTitle = `Consulenza ${RUN}`;
  const contractName = `Monte ore ${RUN}`;
  const serviceName = `Manutenzione impianti ${RUN}`;
  const packageName = `Pacchetto interventi ${RUN}`;
  let eventKey = '';

  beforeAll(async () => {
    browser = await launch();
    staffToken = await staffLogin(DEMO_ADMIN);
    context = await contextWith(browser, { staffToken });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('creates a booking link with weekly hours; the booking page offers exactly those hours', async () => {
    await page.goto(`${ADMIN_URL}/appointments`);
    await page.getByRole('heading', { level: 1, name: 'Appointments' }).waitFor();
    await page.getByRole('button', { name: 'New booking link' }).click();
    await page.getByLabel('Title').fill(linkTitle);
    // Every day 09:00–13:00 (the default of "Add hours"), so the next days always offer slots.
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])
      await page.getByRole('button', { name: `Add hours on ${day}` }).click();
    await page.getByLabel('Monday to').fill('12:00');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: linkTitle }).waitFor();

    const links = await get<{
      items: { eventKey: string; title: string; weeklyHours: Record<string, string[][]> }[];
    }>('/api/staff/portals/demo/admin/appointment-links', staffToken);
    const link = links.items.find((l) => l.title === linkTitle)!;
    expect(link.weeklyHours.mon).toEqual([['09:00', '12:00']]);
    expect(link.weeklyHours.sun).toEqual([['09:00', '13:00']]);
    eventKey = link.eventKey;

    const booking = await context.newPage();
    await booking.goto(`${baseUrl}/appointments/demo/${eventKey}`);
    await booking.getByRole('heading', { level: 1, name: linkTitle }).waitFor();
    // The title is drawn by the server before the app (public-frame.e2e.ts): the calendar is the app's.
    await booking.getByRole('heading', { name: 'Times in Europe/Rome' }).waitFor();
    await booking.getByText('Loading free times…').waitFor({ state: 'hidden' });
    const day = booking
      .locator('table button[aria-label]:not([disabled]):not([data-disabled]):not([data-outside])')
      .first();
    await day.click();
    const slots = booking.getByRole('group', { name: /Times in Europe\/Rome/ }).getByRole('button');
    await slots.first().waitFor();
    const times = (await slots.allTextContents()).map((s) => s.trim().slice(0, 5));
    expect(times.length).toBeGreaterThan(0);
    for (const time of times) {
      expect(time >= '09:00' && time <= '12:30', time).toBe(true);
    }
    await booking.close();
  });

  it('cancels a booking after confirmation; the customer gets the cancellation e-mail', async () => {
    const email = `catalog-${RUN}@example.com`;
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const free = await (
      await fetch(`${baseUrl}/api/appointments/demo/${eventKey}/slots?from=${day(0)}&to=${day(14)}`)
    ).json();
    const first = (free as { days: { slots: { start: string }[] }[] }).days.flatMap((d) => d.slots)[0]!;
    await post('/api/appointments/demo/' + eventKey, '', {
      start: first.start,
      durationMinutes: 30,
      firstName: 'Elena',
      lastName: `Catalogo ${RUN}`,
      phone: '+39 333 0000000',
      email,
    });

    await page.getByRole('tab', { name: 'Bookings' }).click();
    await page.getByLabel('Link', { exact: true }).selectOption({ label: linkTitle });
    const row = page.getByRole('row').filter({ hasText: `Catalogo ${RUN}` });
    await row.getByText('Booked').waitFor();
    await row.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking?' });
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('Cancelled').waitFor();
    await expect.poll(() => mailsTo(email, 'METHOD:CANCEL').length, { timeout: 20_000 }).toBeGreaterThan(0);
  });

  it('creates an hour contract with an activity that the contact then sees', async () => {
    await page.goto(`${ADMIN_URL}/contracts?company=1`);
    await page.getByRole('heading', { name: 'Hour and unit contracts' }).waitFor();
    await page.getByRole('button', { name: 'New contract' }).click();
    await page.getByLabel('Name').fill(contractName);
    await page.getByLabel('Hours').fill('12');
    await page.getByRole('button', { name: 'Add activity' }).click();
    await page.getByLabel('Activity type').fill('Assistenza remota');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: contractName }).waitFor();

    const customer = await signedIn(browser, await login('demo'), { language: 'en-EN' });
    const mine = await customer.newPage();
    await mine.goto(`${baseUrl}/demo/11/activitycontracts`);
    await settled(mine);
    await mine.getByText(contractName).first().waitFor();
    await customer.close();
    expect(errors).toEqual([]);
  });

  it('creates a service contract with a package that the contact then sees', async () => {
    // The demo portal's service-contracts switch is on: the customer's Contracts are service contracts.
    await page.goto(`${ADMIN_URL}/contracts?company=1`);
    await page.getByRole('heading', { name: 'Service contracts' }).waitFor();
    await page.getByRole('button', { name: 'New service contract' }).click();
    await page.getByLabel('Name').fill(serviceName);
    await page.getByRole('button', { name: 'Add package' }).click();
    await page.getByLabel('Package name').fill(packageName);
    await page.getByLabel('Includes').fill('10 interventi');
    await page.getByLabel('Remaining').fill('9 interventi');
    await page.getByRole('button', { name: 'Add activity' }).click();
    await page.getByLabel('Activity type').fill('Intervento programmato');
    // A document of the contract, dropped as a file (uploaded with its progress, sent by reference).
    await page
      .getByLabel('Drop documents of the contract here or click to choose (several at once)')
      .setInputFiles({ name: 'condizioni-servizio.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.getByLabel('Name of the document condizioni-servizio.pdf').fill(`Condizioni ${RUN}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: serviceName, exact: true }).waitFor();
    await page.getByRole('cell', { name: packageName, exact: true }).waitFor();

    const customer = await signedIn(browser, await login('demo'), { language: 'en-EN' });
    const mine = await customer.newPage();
    await mine.goto(`${baseUrl}/demo/11/servicecontracts`);
    await settled(mine);
    const card = mine.getByTestId('service-contract').filter({ hasText: serviceName });
    await card.waitFor();
    await card.getByText(packageName).waitFor();
    await card.getByRole('link', { name: new RegExp(`Condizioni ${RUN}`) }).waitFor();
    await customer.close();
    expect(errors).toEqual([]);
  });

  it('adds a tag of the portal in Contracts; the service contract picks it and the contact sees it; a tag in use stays', async () => {
    const tagName = `Caldaia ${RUN}`;
    await page.goto(`${ADMIN_URL}/contracts?company=1`);
    const panel = page.getByTestId('tags-panel');
    await panel.getByRole('heading', { name: "The portal's tags" }).waitFor();
    const form = panel.getByTestId('tag-new');
    await form.getByLabel(/^New tag/).fill(tagName);
    await form.getByLabel('Group').fill('Impianti');
    await form.getByRole('button', { name: 'Add tag' }).click();
    await panel.getByRole('cell', { name: tagName, exact: true }).waitFor();

    // The service contract's tag picker offers it at once.
    await page.getByRole('row').filter({ hasText: serviceName }).getByRole('button').first().click();
    await page.locator('input:visible').and(page.getByLabel('Tags')).click();
    await page.getByRole('option', { name: `Impianti: ${tagName}` }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: serviceName, exact: true }).waitFor();

    const customer = await signedIn(browser, await login('demo'), { language: 'en-EN' });
    const mine = await customer.newPage();
    await mine.goto(`${baseUrl}/demo/11/servicecontracts`);
    await settled(mine);
    const card = mine.getByTestId('service-contract').filter({ hasText: serviceName });
    await card.getByRole('group', { name: 'Tags' }).getByText(tagName).waitFor();
    await customer.close();

    // In use by that contract: the desk keeps it and says why.
    await panel.getByRole('button', { name: `Delete the tag ${tagName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete the tag ${tagName}` });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/is used by service contracts/)
      .waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await panel.getByRole('cell', { name: tagName, exact: true }).waitFor();
    expect(errors).toEqual([]);
  });

  // Each width in its languages (browser.ts languagesAt: one per width by default, all three with
  // npm run test:e2e:all-languages), axe on every screen.
  it('screens at 1366 and 360 px in their languages, accessible', async () => {
    for (const [index, width] of [1366, 360].entries())
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const c = await contextWith(browser, { staffToken, language, width });
        const p = await c.newPage();
        await p.goto(`${ADMIN_URL}/appointments`);
        await p.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
        await p.getByRole('button', { name: linkTitle }).waitFor();
        await expectAccessible(p);
        await screenshot(p, `admin-appointments-${short}-${width}`);
        await p.getByRole('tab').nth(1).click();
        await p.getByText(`Catalogo ${RUN}`).first().waitFor();
        await expectAccessible(p);
        await screenshot(p, `admin-bookings-${short}-${width}`);
        await p.goto(`${ADMIN_URL}/contracts?company=1`);
        await p.getByRole('cell', { name: contractName }).waitFor();
        await p.getByRole('cell', { name: serviceName, exact: true }).waitFor();
        await p
          .getByTestId('tags-panel')
          .getByRole('cell', { name: `Caldaia ${RUN}`, exact: true })
          .waitFor();
        await expectAccessible(p);
        // Wide tables scroll in their own region: the page itself never scrolls sideways.
        expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(p, `admin-contracts-${short}-${width}`);
        // The service contract's editor with its package.
        await p.getByRole('row').filter({ hasText: serviceName }).getByRole('button').first().click();
        await p.getByRole('group', { name: packageName }).waitFor();
        await expectAccessible(p);
        await screenshot(p, `admin-service-contract-${short}-${width}`);
        await p.goto(`${ADMIN_URL}/wiki?company=1`);
        await p.getByRole('main').getByRole('table').waitFor();
        await expectAccessible(p);
        await screenshot(p, `admin-wiki-${short}-${width}`);
        await c.close();
      }
  }, 240_000);
});
