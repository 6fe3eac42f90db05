// The desk's reports (issue 28 item 14): the charts' code never loads before the reports page; an admin
// opens it from the header, changes the range and the filters (the URL follows), reads a table that
// says what the API says, downloads a CSV; an agent sees no agents' figures; axe; screens.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import { contextWith, DEMO_ADMIN, DEMO_AGENT, expectAccessible, get, staffLogin } from './kit';

const DESK = `${baseUrl}/demo/staff`;
const WIDTHS = [1366, 360] as const;
const LANGUAGES = [
  ['it-IT', 'it'],
  ['en-EN', 'en'],
  ['es-ES', 'es'],
] as const;

/** The scripts the page has fetched so far. */
const scriptsOf = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((r) => new URL(r.name).pathname)
      .filter((p) => p.endsWith('.js')),
  );
const CHARTS_CHUNK = /\/assets\/reports-[\w-]+\.js$/;

interface Volume {
  buckets: { start: string; created: number; solved: number; backlog: number }[];
  totals: { created: number };
}

describe('reports', () => {
  let browser: Browser;
  let adminToken: string;
  let agentToken: string;

  beforeAll(async () => {
    browser = await launch();
    adminToken = await staffLogin(DEMO_ADMIN);
    agentToken = await staffLogin(DEMO_AGENT);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('loads the charts only with the page; range and filters in the URL; table and CSV as the API', async () => {
    const context = await contextWith(browser, { language: 'en-EN', staffToken: adminToken });
    const page = await context.newPage();
    await page.goto(DESK);
    await page.getByTestId('inbox-row').first().waitFor();
    // The inbox and the desk's other pages (here the administration) never ask for the charts' chunk.
    await page.getByRole('link', { name: 'Administration' }).click();
    await page.waitForURL(/\/staff\/admin/);
    await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
    expect((await scriptsOf(page)).filter((s) => CHARTS_CHUNK.test(s))).toEqual([]);

    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    await page.waitForURL(/\/staff\/reports$/);
    // Beside its chart, a report's table is folded until asked for.
    await page.getByTestId('report-volume-table').waitFor({ state: 'attached' });
    expect(await page.getByTestId('report-volume-table').isVisible()).toBe(false);
    expect((await scriptsOf(page)).some((s) => CHARTS_CHUNK.test(s))).toBe(true);

    // A range of its own (the URL holds it), by week, broken down by group.
    await page.getByLabel('From').fill('2026-01-05');
    await page.getByLabel('To').fill('2026-11-29');
    await expect.poll(() => page.url()).toMatch(/from=2026-01-05&to=2026-11-29/);
    await page.getByLabel('Show by').selectOption('week');
    await expect.poll(() => page.url()).toMatch(/granularity=week/);
    await page.getByLabel('Priority').selectOption('normal');
    await page.getByLabel('Break down by').selectOption('group');
    await expect.poll(() => page.url()).toMatch(/priority=normal&breakdown=group/);
    await page.getByTestId('report-by-volume-table').waitFor({ state: 'attached' });

    const q = 'from=2026-01-05&to=2026-11-29&granularity=week&priority=normal';
    const api = await get<Volume>(`/api/staff/portals/demo/reports/volume?${q}`, adminToken);
    await page.getByTestId('report-volume-figures').getByText('The figures, as a table').click();
    const table = page.getByTestId('report-volume-table');
    await table.waitFor();
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(api.buckets.length);
    const busiest = api.buckets.reduce((a, b) => (b.created > a.created ? b : a));
    const row = table.locator('tbody tr', { has: page.getByRole('rowheader', { name: busiest.start }) });
    expect(await row.locator('td').allInnerTexts()).toEqual([
      String(busiest.created),
      String(busiest.solved),
      String(busiest.backlog),
    ]);
    expect(api.totals.created).toBeGreaterThan(0);

    // The CSV is the API's, with the page's filters.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('report-volume').getByRole('button', { name: /CSV/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('volume-demo-2026-01-05-2026-11-29.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toBe('bucket_start,created,solved,open_at_end');
    expect(lines).toContain(`${busiest.start},${busiest.created},${busiest.solved},${busiest.backlog}`);
    expect(lines).toHaveLength(api.buckets.length + 1);

    await expectAccessible(page);
    // Reloading the address draws the same report (the state is the URL's).
    await page.reload();
    await page.getByTestId('report-by-volume-table').waitFor({ state: 'attached' });
    expect(await page.getByLabel('Show by').inputValue()).toBe('week');
    await context.close();
  }, 180_000);

  it("an agent sees the reports without the agents' figures", async () => {
    const context = await contextWith(browser, { language: 'en-EN', staffToken: agentToken });
    const page = await context.newPage();
    await page.goto(`${DESK}/reports?breakdown=agent&agent=1`);
    await page.getByTestId('report-volume-table').waitFor({ state: 'attached' });
    await expect.poll(() => page.getByLabel('Agent', { exact: true }).count()).toBe(0);
    expect(await page.getByTestId('report-by-volume').count()).toBe(0);
    await expectAccessible(page);
    await context.close();
  }, 120_000);

  it('at both widths in every language', async () => {
    for (const [index, width] of WIDTHS.entries())
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const context = await contextWith(browser, { width, language, staffToken: adminToken });
        const page = await context.newPage();
        await page.goto(`${DESK}/reports?from=2026-01-05&to=2026-11-29&granularity=week&breakdown=type`);
        await page.getByTestId('report-by-volume-table').waitFor({ state: 'attached' });
        await page.locator('.recharts-surface').first().waitFor();
        await expectAccessible(page);
        await screenshot(page, `desk-reports-${width}-${short}`);
        await context.close();
      }
  }, 300_000);
});
