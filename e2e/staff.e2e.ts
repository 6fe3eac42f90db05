import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import {
  contextWith,
  DEMO_AGENT as AGENT,
  expectAccessible,
  json,
  login,
  mailsTo,
  PASSWORD,
  staffLogin,
  waitForMail,
} from './kit';

const CUSTOMER_EMAIL = 'demo@sportello.example';
const DESK = `${baseUrl}/demo/staff`;
const WIDTHS = [1366, 360] as const;
const LANGUAGES = [
  ['it-IT', 'it'],
  ['en-EN', 'en'],
  ['es-ES', 'es'],
] as const;

/** The desk's texts in a language, as the app has them. */
const staffTexts = (lang: string) =>
  JSON.parse(
    readFileSync(new URL(`../apps/web/src/features/staff/i18n/${lang}.json`, import.meta.url), 'utf8'),
  ) as { views: { open: string } };

/** Types into the rich editor named `name` (tiptap loads after the page: wait for it). */
async function typeInEditor(page: Page, name: RegExp, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name });
  await editor.waitFor();
  await editor.click();
  await page.keyboard.type(text);
}

describe('staff desk', () => {
  let browser: Browser;
  let customerToken: string;
  let ticket: { id: number; title: string };

  beforeAll(async () => {
    browser = await launch();
    customerToken = await login('demo');
    const title = `Desk journey ${Date.now()}`;
    const created = await json<{ id: number }>('/api/demo/11/tickets', customerToken, {
      title,
      taskTypeId: 1,
      description: '<p>The office printer shows error E42.</p>',
      attachments: [],
    });
    ticket = { id: created.id, title };
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('an agent signs in, takes the new ticket, writes a note and a reply; the customer sees only the reply', async () => {
    const context = await contextWith(browser, { language: 'en-EN' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // The desk without a session sends the agent to the portal's branded staff sign-in.
    await page.goto(`${DESK}?view=unassigned`);
    await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/demo/staff/login');
    // The portal's branding arrives with its settings, a moment after the page.
    await expect.poll(() => page.getByTestId('auth-header').innerText()).toContain('Sportello Assistenza');
    await page.getByLabel('E-mail').fill(AGENT);
    await page.locator('input[name=password]').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Wrong e-mail or password.').waitFor();
    await page.locator('input[name=password]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Back to the view asked for: Unassigned, newest activity first, the new ticket unread on top.
    const row = page.getByTestId('inbox-row').filter({ hasText: ticket.title });
    await row.waitFor();
    expect(new URL(page.url()).search).toBe('?view=unassigned');
    expect(await page.getByTestId('view-unassigned').getAttribute('aria-current')).toBe('page');
    expect(await row.getAttribute('data-unread')).toBe('true');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('staffToken'))).toBeTruthy();

    // Search by number finds it; Back restores the view without the search.
    const number = (await row.getByTestId('row-number').innerText()).trim();
    await page.keyboard.press('/');
    await page.keyboard.type(number);
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(number);
    await expect.poll(() => page.getByTestId('inbox-row').count()).toBe(1);
    await page.goBack();
    await expect.poll(() => new URL(page.url()).search).toBe('?view=unassigned');

    // Keyboard: j focuses the first row (the newest: ours), Enter opens it.
    await row.waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('j');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toContain(ticket.title);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: new RegExp(ticket.title) }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/demo/staff/tickets/${ticket.id}`);

    // Assign to me.
    await page.getByTestId('assign-to-me').click();
    await page.getByTestId('side-status').getByText('Assigned to you.').waitFor();
    await expect.poll(() => page.getByTestId('side-assignee').inputValue()).toBe('Sara Conti');

    // An internal note (n), clearly marked, then a public reply (r).
    const note = `Checked the toner, note ${Date.now()}`;
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('n');
    await expect.poll(() => page.getByTestId('composer').getAttribute('data-mode')).toBe('note');
    await typeInEditor(page, /^Internal note/, note);
    await page.getByRole('button', { name: 'Add internal note' }).click();
    const noteBox = page.getByTestId('note').filter({ hasText: note });
    await noteBox.waitFor();
    expect(await noteBox.getByTestId('internal-label').innerText()).toBe(
      'Internal — the customer does not see this',
    );
    // Sent, the note leaves the composer: nothing of it may go out with the reply typed next.
    await expect
      .poll(async () => (await page.getByRole('textbox', { name: /^Internal note/ }).innerText()).trim())
      .toBe('');
    const reply = `Please restart the printer, reply ${Date.now()}`;
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('r');
    await expect.poll(() => page.getByTestId('composer').getAttribute('data-mode')).toBe('reply');
    await typeInEditor(page, /^Reply/, reply);
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByTestId('message').filter({ hasText: reply }).waitFor();
    await page.getByTestId('composer-notice').getByText('Reply sent to the customer.').waitFor();
    // The assignment is in the conversation's timeline.
    await page.getByTestId('timeline-entry').filter({ hasText: 'Sara Conti' }).first().waitFor();
    await expectAccessible(page);
    await screenshot(page, 'staff-ticket-after-reply');
    expect(errors).toEqual([]);

    // The customer sees the reply, not the note, and has the reply by e-mail (the note by none).
    const customer = await contextWith(browser, { language: 'en-EN', contactToken: customerToken });
    const cp = await customer.newPage();
    await cp.goto(`${baseUrl}/demo/11/tickets/${ticket.id}`);
    await cp.getByTestId('ticket-comment').filter({ hasText: reply }).waitFor();
    expect(await cp.locator('main').innerText()).not.toContain(note);
    await screenshot(cp, 'staff-customer-sees-reply');
    const mail = await waitForMail(CUSTOMER_EMAIL, 'Please restart the printer');
    expect(mail).toContain(`/demo/11/tickets/${ticket.id}`);
    expect(mailsTo(CUSTOMER_EMAIL, note)).toEqual([]);
    expect(mail).not.toContain(note);

    // The customer replies; the agent's inbox, left open, shows the ticket unread without a reload.
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByTestId('view-mine').click();
    const mine = page.getByTestId('inbox-row').filter({ hasText: ticket.title });
    await mine.waitFor();
    expect(await mine.getAttribute('data-unread')).toBeNull();
    await json('/api/demo/11/comments', customerToken, {
      taskId: ticket.id,
      message: '<p>Restarted, it prints again. Thanks!</p>',
      commentType: 0,
      attachments: [],
    });
    await expect.poll(() => mine.getAttribute('data-unread'), { timeout: 60_000 }).toBe('true');
    await page.getByTestId('unread-mine').waitFor();
    await customer.close();
    await context.close();
  });

  /** The ticket an agent opened for the phoning customer (next test), and its shared task page link. */
  let phoned: { id: number; title: string } | undefined;

  it('an agent opens a ticket for a customer who phoned (c); the customer sees it; a task page link is shared and revoked', async () => {
    const token = await staffLogin(AGENT);
    const context = await contextWith(browser, { language: 'en-EN', staffToken: token });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${DESK}?view=open`);
    await page.getByTestId('inbox-row').first().waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('c');
    await page.getByRole('heading', { level: 1, name: 'New ticket for a customer' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/demo/staff/tickets/new');

    const title = `Phoned: boiler pressure ${Date.now()}`;
    const form = page.getByTestId('new-ticket-form');
    await form
      .locator('input:visible')
      .and(page.getByLabel(/^Company/))
      .click();
    await page.keyboard.type('Rossi');
    await page.getByRole('option', { name: 'Rossi Impianti Srl' }).click();
    await page.getByTestId('contact-picker').click();
    await page.getByRole('option', { name: /^Marco Rossi/ }).click();
    await page.getByTestId('new-ticket-type').click();
    await page.getByRole('option', { name: 'Guasto' }).click();
    await form.getByLabel(/^Title/).fill(title);
    await typeInEditor(page, /^Description/, 'The customer phoned: the boiler loses pressure overnight.');
    await page.getByTestId('new-ticket-assignee').click();
    await page.getByRole('option', { name: 'Sara Conti' }).click();
    await form.getByLabel('Next planned activity').fill('Call back at 9');
    // The agent attaches the photo the customer sent by other means; Create waits for the upload.
    await form.getByLabel('Attachments').setInputFiles({
      name: 'pressure-log.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('1.2 bar at 22:00, 0.4 bar at 07:00'),
    });
    await form.getByRole('button', { name: 'Create ticket' }).and(page.locator(':enabled')).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create ticket' }).click();

    // The new ticket opens on the desk, numbered by the portal, for the customer, assigned.
    await page.getByRole('heading', { level: 1, name: new RegExp(title) }).waitFor();
    const created = await page.getByTestId('ticket-created').innerText();
    expect(created).toMatch(/^Ticket \d{4}\/\d{4} created for Marco Rossi\.$/);
    const id = Number(/\/tickets\/(\d+)$/.exec(new URL(page.url()).pathname)![1]);
    phoned = { id, title };
    await expect.poll(() => page.getByTestId('side-assignee').inputValue()).toBe('Sara Conti');
    // The description names who typed it and carries the file; the customer is told, naming Sara.
    await page.getByText('Opened by Sara Conti for Marco Rossi', { exact: true }).waitFor();
    await page
      .getByRole('link', { name: /pressure-log\.txt/ })
      .first()
      .waitFor();
    // In Marco's language (Italian: his user has none, the portal's).
    expect(await waitForMail('marco.rossi@rossi-impianti.example', title)).toContain(
      'Sara Conti ha aperto per te il ticket',
    );

    // Share a task page link: the full address, which opens the read-only page without signing in.
    const panel = page.getByTestId('task-links');
    await panel.getByRole('button', { name: 'Share a task page link' }).click();
    const first = panel.getByRole('textbox', { name: 'Link 1' });
    await first.waitFor();
    const url = await first.inputValue();
    expect(url).toMatch(new RegExp(`^${baseUrl}/tasks/demo/[A-Za-z0-9_-]{24}$`));
    await panel.getByRole('button', { name: 'Share a task page link' }).click();
    await panel.getByRole('textbox', { name: 'Link 2' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'staff-ticket-task-links');
    const visitor = await browser.newContext();
    const pub = await visitor.newPage();
    await pub.goto(url);
    await pub.getByText(title).first().waitFor();
    // Revoked: the page answers as for an unknown key.
    await panel.getByRole('button', { name: 'Revoke link 1' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke this link?' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await panel.getByTestId('task-links-status').getByText('Link revoked.').waitFor();
    await expect.poll(() => panel.getByTestId('task-link').count()).toBe(1);
    await pub.reload();
    await expect.poll(async () => (await pub.locator('body').innerText()).includes(title)).toBe(false);
    await visitor.close();

    // The customer finds it in their list and opens it.
    const customer = await contextWith(browser, { language: 'en-EN', contactToken: customerToken });
    const cp = await customer.newPage();
    await cp.goto(`${baseUrl}/demo/11/tickets`);
    await cp.getByText(title).first().waitFor();
    await cp.goto(`${baseUrl}/demo/11/tickets/${id}`);
    await cp.getByText('The customer phoned: the boiler loses pressure overnight.').waitFor();
    await screenshot(cp, 'staff-customer-sees-phoned-ticket');
    await customer.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  /** A recovery link opens the set-password page (the invitation's page): asked once, so it stays valid. */
  let accept: string | undefined;
  async function acceptLink(): Promise<string> {
    if (accept) return accept;
    await json('/api/staff/auth/recovery', '', { email: AGENT, company: 'demo' });
    const recovery = await waitForMail(AGENT, '/staff/accept?token=');
    accept = /(\/demo\/staff\/accept\?token=[A-Za-z0-9_%-]+)/.exec(recovery)![1]!;
    return accept;
  }

  // The desk's texts come a language at a time (features/staff/i18n): the stored language's with the
  // desk, another's when it is picked, before the switch.
  it('the desk opens in the stored language and switches language without ever showing a key', async () => {
    const token = await staffLogin(AGENT);
    const context = await contextWith(browser, { language: 'es-ES', staffToken: token });
    // Any text of the page that is one of the desk's keys (`views.open`, `staff:inbox.empty`), as drawn.
    const sections = Object.keys(staffTexts('it-IT'));
    await context.addInitScript((names) => {
      const key = new RegExp(`(^|\\s)(staff:)?(${names.join('|')})\\.[A-Za-z][\\w.]*(\\s|$)`);
      const w = window as unknown as { __keys: string[] };
      w.__keys = [];
      new MutationObserver(() => {
        const text = document.body?.innerText ?? '';
        const m = key.exec(text);
        if (m) w.__keys.push(m[0].trim());
      }).observe(document, { childList: true, subtree: true, characterData: true });
    }, sections);
    const page = await context.newPage();
    const keysShown = () => page.evaluate(() => (window as unknown as { __keys: string[] }).__keys);
    await page.goto(DESK);
    await page.getByTestId('inbox-row').first().waitFor();
    const openView = () => page.getByTestId('view-open').innerText();
    await expect.poll(openView).toContain(staffTexts('es-ES').views.open);
    for (const [label, lang] of [
      ['English', 'en-EN'],
      ['Italiano', 'it-IT'],
    ] as const) {
      await page.getByRole('button', { name: /^.+: (Español|English|Italiano)$/ }).click();
      await page.getByRole('menuitemradio', { name: label }).click();
      await expect.poll(openView).toContain(staffTexts(lang).views.open);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
    }
    expect(await keysShown()).toEqual([]);
    await context.close();
  });

  // Each width in its languages (browser.ts languagesAt): nine screens each, axe on the English ones
  // (on every pass when there is one language per width).
  it.each(WIDTHS.map((width, index) => [width, index] as const))(
    'every desk screen at %i px, in its languages, has no serious axe finding',
    async (width, index) => {
      const token = await staffLogin(AGENT);
      const link = await acceptLink();

      const languages = languagesAt(LANGUAGES, index);
      for (const [language, short] of languages) {
        const name = (screen: string) => `staff-${screen}-${width}-${short}`;
        const checkAxe = short === 'en' || languages.length === 1;
        const signedOut = await contextWith(browser, { width, language });
        const out = await signedOut.newPage();
        await out.goto(`${DESK}/login`);
        await out.locator('form button[type=submit]').waitFor();
        if (checkAxe) await expectAccessible(out);
        await screenshot(out, name('login'));
        await out.goto(`${DESK}/login?recover`);
        await out.locator('form input[type=email]').waitFor();
        await screenshot(out, name('recovery'));
        await out.goto(`${baseUrl}${link}`);
        await out.locator('input[autocomplete="new-password"]').first().waitFor();
        if (checkAxe) await expectAccessible(out);
        await screenshot(out, name('accept'));
        await signedOut.close();

        const signedIn = await contextWith(browser, { width, language, staffToken: token });
        const page = await signedIn.newPage();
        await page.goto(`${DESK}?view=open`);
        await page.getByTestId('inbox-row').first().waitFor();
        await page.getByTestId('count-open').waitFor();
        if (checkAxe) await expectAccessible(page);
        await screenshot(page, name('inbox'));
        await page.getByTestId('filters-toggle').click();
        await page.getByTestId('filter-panel').waitFor();
        if (checkAxe) await expectAccessible(page);
        await screenshot(page, name('inbox-filters'));
        await page.locator('body').click({ position: { x: 1, y: 1 } });
        await page.keyboard.press('?');
        await page.getByRole('dialog').waitFor();
        if (checkAxe) await expectAccessible(page);
        await screenshot(page, name('shortcuts'));
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        await page.goto(`${DESK}/tickets/${ticket.id}`);
        await page.getByTestId('note').first().waitFor();
        await page.getByTestId('composer').locator('[contenteditable="true"]').waitFor();
        if (checkAxe) await expectAccessible(page);
        await screenshot(page, name('ticket'));
        // The new ticket's form, and a ticket opened for a customer with its shared task page link.
        await page.goto(`${DESK}/tickets/new`);
        await page.getByTestId('new-ticket-form').waitFor();
        await page.locator('[contenteditable="true"]').waitFor();
        if (checkAxe) await expectAccessible(page);
        await screenshot(page, name('new-ticket'));
        await page.goto(`${DESK}/tickets/${phoned!.id}`);
        await page.getByTestId('task-link').first().waitFor();
        if (checkAxe) await expectAccessible(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, name('ticket-task-links'));
        await signedIn.close();
      }
    },
    240_000,
  );
});
