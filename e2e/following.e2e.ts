/**
 * Following a ticket from the customer side (issue 16): the overview, tickets waiting for the customer
 * and unread, sort and filters kept in the address across Back, followers, the timeline, rating and
 * reopening, the new ticket's number, and drafts that survive a reload and an expired session.
 * Works on tickets it creates (the demo's own stay as the other journeys expect them).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import { contextWith, expectAccessible, login, PASSWORD } from './kit';

const ADMIN_KEY = 'e2e-admin-key-0123456789';
const MINE = `${baseUrl}/demo/11`;
const stamp = Date.now();
const WAITING = `Waiting for the customer ${stamp}`;
const CLOSED = `Closed and rated ${stamp}`;
const LANGS = ['it-IT', 'en-EN', 'es-ES'] as const;

async function api<T>(method: string, path: string, token: string, body?: unknown, status = 200): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** Mantine's rating: each star is a hidden radio under a visible label, which is what a user clicks. */
async function star(box: ReturnType<Page['getByTestId']>, n: number): Promise<void> {
  const id = await box.getByRole('radio', { name: `${n} stars` }).getAttribute('id');
  await box.locator(`label[for="${id}"]`).click();
}

describe('following a ticket', () => {
  let browser: Browser;
  let token: string;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  let waitingId = 0;
  let closedId = 0;

  beforeAll(async () => {
    browser = await launch();
    token = await login('demo');
    const create = (title: string) =>
      api<{ id: number }>(
        'POST',
        '/api/demo/11/tickets',
        token,
        { title, taskTypeId: 1, description: `<p>${title}</p>`, attachments: [] },
        201,
      );
    closedId = (await create(CLOSED)).id;
    waitingId = (await create(WAITING)).id;
    await api('POST', `/api/demo/11/tickets/${closedId}/close`, token);
    // An agent answers through the integration API: the ticket now waits for the customer, unread.
    const key = await api<{ secret: string }>(
      'POST',
      '/api/admin/portals/demo/keys',
      ADMIN_KEY,
      { name: 'e2e following', scopes: ['write'] },
      201,
    );
    await api(
      'POST',
      `/api/integration/v1/tickets/${waitingId}/comments`,
      key.secret,
      { senderAgentId: 1, message: '<p>Could you send us a photo of the display?</p>' },
      201,
    );
    context = await contextWith(browser, {
      contactToken: token,
      width: 1366,
      language: 'en-EN',
      firstLoadOnly: true,
    });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(() => browser?.close());

  it('gathers what waits for the customer on the overview, in three languages and two widths', async () => {
    await page.goto(`${MINE}/overview`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const waiting = page.getByTestId('overview-waiting');
    await waiting.getByRole('link', { name: new RegExp(WAITING) }).waitFor();
    await page.getByTestId('overview-open').waitFor();
    await page.getByTestId('overview-invoices').waitFor();
    await expectAccessible(page);
    for (const [index, width] of [1366, 360].entries())
      for (const lang of languagesAt(LANGS, index)) {
        const c = await contextWith(browser, {
          contactToken: token,
          width: width,
          language: lang,
          firstLoadOnly: true,
        });
        const p = await c.newPage();
        await p.goto(`${MINE}/overview`);
        await p
          .getByTestId('overview-waiting')
          .getByRole('link', { name: new RegExp(WAITING) })
          .waitFor();
        await expectAccessible(p);
        await screenshot(p, `following-overview-${lang}-${width}`);
        await c.close();
      }
    expect(errors).toEqual([]);
  }, 240_000);

  it('marks the waiting ticket and its unread answer, sorts by activity and keeps the list in the address', async () => {
    await page.goto(`${MINE}/tickets`);
    const row = page.getByTestId('ticket-row').filter({ hasText: WAITING });
    await row.getByTestId('ticket-waiting').waitFor();
    await row.getByTestId('ticket-unread').waitFor();
    expect(await row.getAttribute('data-waiting')).toBe('true');

    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Last activity' }).click();
    await page.waitForURL(/sort=activity/);
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'All', exact: true }).click();
    await page.waitForURL(/status=all/);
    // The agent's answer is the newest activity of all: first under "last activity".
    await expect.poll(() => page.getByTestId('ticket-row').first().innerText()).toContain(WAITING);
    await expectAccessible(page);
    await screenshot(page, 'following-list-1366');

    await row.getByRole('link', { name: WAITING }).click();
    await page.getByRole('heading', { level: 1, name: WAITING }).waitFor();
    await page.goBack();
    await page.waitForURL(/status=all/);
    expect(page.url()).toContain('sort=activity');
    expect(await page.getByRole('combobox', { name: 'Sort by' }).inputValue()).toBe('Last activity');
    // Opened, so read: the marker is gone (the ticket still waits for an answer).
    await row.getByTestId('ticket-waiting').waitFor();
    await expect.poll(() => row.getByTestId('ticket-unread').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the next planned activity and the followers; the reply draft survives a reload and an expired session', async () => {
    await page.goto(`${MINE}/tickets/${waitingId}`);
    await page.getByRole('heading', { level: 1, name: WAITING }).waitFor();
    expect(await page.getByTestId('side-next-activity').innerText()).toMatch(/None planned/);

    const followers = page.getByTestId('followers');
    await followers.getByText('No colleague follows this ticket.').waitFor();
    await followers.getByRole('button', { name: /Add colleagues/ }).click();
    await page.getByRole('option', { name: /Giulia/ }).click();
    await page.keyboard.press('Escape');
    await followers.getByTestId('followers-list').filter({ hasText: 'Giulia' }).waitFor();

    const reply = page.getByRole('textbox', { name: /^Reply/ });
    await reply.click();
    await page.keyboard.type('Here is the photo of the display.');
    await page.reload();
    await page.getByTestId('draft-restored').waitFor();
    // The editor that shows the draft is built after the conversation (ui/html-editor.tsx, `onDemand`).
    await expect
      .poll(() => page.getByRole('textbox', { name: /^Reply/ }).innerText())
      .toContain('Here is the photo of the display.');

    // The session ends (the token is revoked): sending asks to sign in again, in a dialog over the page.
    await page.evaluate(() => localStorage.setItem('token', 'revoked-token'));
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Your session has expired' });
    await dialog.waitFor();
    expect(page.url()).toBe(`${MINE}/tickets/${waitingId}`);
    await expectAccessible(page);
    await screenshot(page, 'following-session-expired-1366');
    await dialog.getByLabel(/^Password/).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Login' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('textbox', { name: /^Reply/ }).innerText()).toContain(
      'Here is the photo of the display.',
    );
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page
      .getByTestId('ticket-comment')
      .filter({ hasText: 'Here is the photo of the display.' })
      .waitFor();
    await page.reload();
    await page.getByRole('textbox', { name: /^Reply/ }).waitFor();
    expect(await page.getByTestId('draft-restored').count()).toBe(0);

    // Giulia follows: she may open the ticket.
    const giulia = await login('giulia.bianchi');
    const seen = await api<{ title: string }>('GET', `/api/demo/12/tickets/${waitingId}`, giulia);
    expect(seen.title).toBe(WAITING);
    await followers.getByRole('button', { name: /Add colleagues/ }).click();
    await page.getByRole('option', { name: /Giulia/ }).click();
    await page.keyboard.press('Escape');
    await followers.getByText('No colleague follows this ticket.').waitFor();
    expect(errors).toEqual([]);
  });

  it('rates a closed ticket, shows its timeline, and reopens it with the button', async () => {
    for (const [index, width] of [1366, 360].entries())
      for (const lang of languagesAt(LANGS, index)) {
        const c = await contextWith(browser, {
          contactToken: token,
          width: width,
          language: lang,
          firstLoadOnly: true,
        });
        const p = await c.newPage();
        await p.goto(`${MINE}/tickets/${closedId}`);
        await p.getByTestId('rating-box').waitFor();
        await p.getByTestId('timeline-entry').first().waitFor();
        await expectAccessible(p);
        await screenshot(p, `following-closed-${lang}-${width}`);
        await c.close();
      }

    await page.goto(`${MINE}/tickets/${closedId}`);
    const box = page.getByTestId('rating-box');
    await box.waitFor();
    expect(await page.getByTestId('timeline-entry').first().innerText()).toMatch(/Ticket closed/);
    await star(box, 4);
    await box.getByRole('textbox', { name: /Comment/ }).fill('Quick and kind.');
    await box.getByRole('button', { name: 'Send the rating' }).click();
    await box.getByTestId('rating-value').filter({ hasText: '4 of 5' }).waitFor();
    await box.getByRole('button', { name: 'Change the rating' }).click();
    await star(box, 5);
    await box.getByRole('button', { name: 'Send the rating' }).click();
    await box.getByTestId('rating-value').filter({ hasText: '5 of 5' }).waitFor();
    await expectAccessible(page);

    const notice = page.getByTestId('reopen-notice');
    expect(await notice.innerText()).toContain('sending a reply reopens it');
    await notice.getByRole('button', { name: 'Reopen the ticket' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.getByTestId('timeline-entry').filter({ hasText: 'Ticket reopened' }).waitFor();
    await page.getByRole('button', { name: 'Close the ticket' }).waitFor();
    await screenshot(page, 'following-reopened-1366');
    expect(errors).toEqual([]);
  }, 240_000);

  it('keeps the new ticket as a draft until sent, then shows its number', async () => {
    await page.goto(`${MINE}/tickets/new`);
    const subject = `Drafted ticket ${stamp}`;
    await page.getByRole('textbox', { name: /^Subject/ }).fill(subject);
    await page.getByRole('combobox', { name: /^Type/ }).click();
    await page.getByRole('option', { name: 'Guasto' }).click();
    await page.reload();
    await page.getByTestId('draft-restored').waitFor();
    expect(await page.getByRole('textbox', { name: /^Subject/ }).inputValue()).toBe(subject);
    await page.getByRole('textbox', { name: /^Description/ }).click();
    await page.keyboard.type('The display flickers.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForURL(`${MINE}/tickets`);
    const created = page.getByTestId('ticket-created');
    await created.waitFor();
    expect(await created.innerText()).toMatch(/^Ticket \d{4}\/\d{4} sent$/);
    await expectAccessible(page);
    await screenshot(page, 'following-new-ticket-number-1366');
    await page.goto(`${MINE}/tickets/new`);
    await page.getByRole('textbox', { name: /^Subject/ }).waitFor();
    expect(await page.getByRole('textbox', { name: /^Subject/ }).inputValue()).toBe('');
    expect(errors).toEqual([]);
  });
});
