// Service levels (issue 28 item 13): the admin saves a policy, a customer's new ticket shows its
// countdown in the inbox, the "Breaching soon" view lists it; made urgent (one minute to the first
// answer) it breaches, and the breach sweep rings its assignee's bell; the admin gives the customer's
// company targets of its own and its ticket's due time follows; screens of the view, the policy (with
// the company's targets, checked with axe) and the bell.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import { contextWith, DEMO_ADMIN, expectAccessible, json, login, staffLogin } from './kit';

const DESK = `${baseUrl}/demo/staff`;
const WIDTHS = [1366, 360] as const;
const LANGUAGES = [
  ['it-IT', 'it'],
  ['en-EN', 'en'],
  ['es-ES', 'es'],
] as const;
const always = [['00:00', '24:00']];
/** The demo customer's company (contact 11's: apps/api/src/modules/admin/demo-rossi.ts). */
const ROSSI = { id: 1, name: 'Rossi Impianti Srl' };

describe('service levels', () => {
  let browser: Browser;
  let adminToken: string;
  let customerToken: string;
  let ticket = 0;

  beforeAll(async () => {
    browser = await launch();
    adminToken = await staffLogin(DEMO_ADMIN);
    customerToken = await login('demo');
  });
  afterAll(async () => {
    // The other journeys share the server: Rossi's tickets keep the portal's targets after this one.
    if (adminToken)
      await fetch(`${baseUrl}/api/staff/portals/demo/admin/sla/companies/${ROSSI.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${adminToken}` },
      });
    await browser?.close();
  });

  it('an admin saves a policy; a new ticket is in "Breaching soon" with its countdown', async () => {
    await json(
      '/api/staff/portals/demo/admin/sla',
      adminToken,
      {
        enabled: true,
        hours: Array(7).fill(always),
        holidays: ['2026-12-25', '2026-12-26'],
        targets: {
          low: { firstResponse: 1440, resolution: 4800 },
          normal: { firstResponse: 30, resolution: 960 },
          high: { firstResponse: 20, resolution: 480 },
          urgent: { firstResponse: 1, resolution: 240 },
        },
      },
      'PUT',
    );
    const title = `SLA journey ${Date.now()}`;
    ticket = (
      await json<{ id: number }>('/api/demo/11/tickets', customerToken, {
        title,
        taskTypeId: 1,
        description: '<p>The VPN is down.</p>',
        attachments: [],
      })
    ).id;
    const context = await contextWith(browser, { language: 'en-EN', staffToken: adminToken });
    const page = await context.newPage();
    await page.goto(`${DESK}?view=breaching`);
    const badge = page.getByTestId('inbox-row').filter({ hasText: title }).getByTestId('sla-badge').first();
    await badge.waitFor();
    // The badges read the clock to the half minute (sla-badge.tsx): a ticket "soon" from the instant it
    // was opened may read "ok" for up to 30 s first.
    await expect.poll(() => badge.getAttribute('data-sla'), { timeout: 45_000 }).toBe('soon');
    expect(await badge.innerText()).toContain('First response: Due soon');
    await context.close();
  });

  it('a breached ticket rings the bell of its assignee', async () => {
    const desk = '/api/staff/portals/demo';
    const me = (await json<{ me: { agentId: number } }>(`${desk}/options`, adminToken)).me.agentId;
    await json(`${desk}/notifications/read`, adminToken, { all: true });
    // The admin takes it and makes it urgent: one business minute (all hours are) to the first answer.
    await json(`${desk}/tickets/${ticket}`, adminToken, { assigneeId: me, priority: 'urgent' }, 'PATCH');
    // The sweep looks every second here (e2e/run.mjs): told as the minute ends.
    const breachOf = async () =>
      (
        await json<{ items: { kind: string; ticketId: number }[] }>(`${desk}/notifications`, adminToken)
      ).items.find((n) => n.kind === 'sla_breach' && n.ticketId === ticket);
    await expect.poll(breachOf, { timeout: 90_000, interval: 1_000 }).toBeTruthy();
    const context = await contextWith(browser, { language: 'en-EN', staffToken: adminToken });
    const page = await context.newPage();
    await page.goto(DESK);
    await page.getByTestId('bell').click();
    const item = page.getByTestId('bell-panel').getByTestId('bell-item-sla_breach').first();
    await item.waitFor();
    expect(await item.innerText()).toContain('breached its service level');
    // The notice names the target and its due time.
    expect(await item.getByTestId('bell-item-sla').innerText()).toMatch(
      /^First response: was due \d\d\/\d\d\/\d{4} \d\d:\d\d$/,
    );
    await context.close();
  }, 120_000);

  it("an admin gives the customer's company its own target; its ticket's due time follows", async () => {
    const desk = '/api/staff/portals/demo';
    const title = `SLA Gold ${Date.now()}`;
    const gold = (
      await json<{ id: number }>('/api/demo/11/tickets', customerToken, {
        title,
        taskTypeId: 1,
        description: '<p>The printer is down.</p>',
        attachments: [],
      })
    ).id;
    const dueOf = async () =>
      (await json<{ sla: { firstResponseDueAt: string } }>(`${desk}/tickets/${gold}`, adminToken)).sla
        .firstResponseDueAt;
    // Normal tickets: the portal's thirty minutes to the first answer.
    const portalDue = Date.parse(await dueOf());
    const context = await contextWith(browser, { language: 'en-EN', staffToken: adminToken });
    const page = await context.newPage();
    await page.goto(`${DESK}/admin/sla`);
    const section = page.getByTestId('sla-companies');
    await section.getByRole('button', { name: 'Add a company' }).click();
    await section
      .locator('input:visible')
      .and(page.getByLabel(/^Company/))
      .click();
    await page.keyboard.type('Rossi');
    // Picked with the keyboard: the page is long and its end is near, where a pointer meets the page
    // under the list while it settles.
    await expect.poll(() => page.getByRole('option').first().innerText()).toBe(ROSSI.name);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        section
          .getByLabel(/^Company/)
          .first()
          .inputValue(),
      )
      .toBe(ROSSI.name);
    // Empty fields show the portal's targets; Rossi buys twenty business hours for a normal first answer.
    const normal = section.getByLabel('Normal: First response');
    expect(await normal.getAttribute('placeholder')).toBe('0.5 h');
    await normal.fill('20');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByRole('cell', { name: ROSSI.name, exact: true }).waitFor();
    expect(await section.getByRole('row').nth(1).innerText()).toContain('Normal: First response 20 h');
    await expectAccessible(page, { label: 'the SLA page with a company of its own' });

    // The breach sweep (every second here) recomputes Rossi's open tickets: twenty hours, every hour
    // being a business one.
    await expect
      .poll(async () => Date.parse(await dueOf()) - portalDue, { timeout: 30_000 })
      .toBe((20 * 60 - 30) * 60_000);
    await page.goto(`${DESK}/tickets/${gold}`);
    await expect.poll(() => page.getByTestId('sla-badge').first().getAttribute('data-sla')).toBe('ok');
    expect(await page.getByTestId('sla-badge').first().innerText()).toMatch(
      /First response: Due in (19|20) h/,
    );
    await context.close();
  }, 90_000);

  it('the view and the policy at both widths in every language', async () => {
    for (const [index, width] of WIDTHS.entries())
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const context = await contextWith(browser, { width, language, staffToken: adminToken });
        const page = await context.newPage();
        await page.goto(`${DESK}?view=breaching`);
        await page.getByTestId('sla-badge').first().waitFor();
        await screenshot(page, `sla-breaching-${width}-${short}`);
        await page.goto(`${DESK}/tickets/${ticket}`);
        await page.getByTestId('sla-badge').first().waitFor();
        await screenshot(page, `sla-ticket-${width}-${short}`);
        await page.goto(`${DESK}/admin/sla`);
        await page.getByRole('button', { name: /Salva|Save|Guardar/ }).waitFor();
        await page
          .getByTestId('sla-companies')
          .getByRole('cell', { name: ROSSI.name, exact: true })
          .waitFor();
        await screenshot(page, `sla-policy-${width}-${short}`);
        // The company's targets in their editor.
        await page
          .getByTestId('sla-companies')
          .getByRole('button', { name: new RegExp(ROSSI.name) })
          .first()
          .click();
        await page.getByTestId('sla-companies').getByRole('table').last().waitFor();
        await expectAccessible(page, { label: `the company's targets at ${width} px in ${language}` });
        // The editor's first field has the focus, the page scrolled to it: a whole-page capture of a
        // scrolled page draws the fixed elements (the skip link, the menu) where they stood.
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, `sla-company-${width}-${short}`);
        await page.goto(DESK);
        await page.getByTestId('bell').click();
        await page.getByTestId('bell-panel').getByTestId('bell-item-sla_breach').first().waitFor();
        await screenshot(page, `sla-bell-${width}-${short}`);
        await context.close();
      }
  }, 180_000);
});
