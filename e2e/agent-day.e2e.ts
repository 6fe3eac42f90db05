// The agent's day (issue 28): the agent's own profile (name, photo, signature) as customers see it.
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import { contextWith, DEMO_ADMIN, DEMO_AGENT as AGENT, json, login, mailsWith, staffLogin } from './kit';

const DESK = `${baseUrl}/demo/staff`;
const WIDTHS = [1366, 360] as const;
const LANGUAGES = [
  ['it-IT', 'it'],
  ['en-EN', 'en'],
  ['es-ES', 'es'],
] as const;
const PHOTO = new URL('../apps/web/public/icon-192.png', import.meta.url);

describe('the agent’s day', () => {
  let browser: Browser;
  let staffToken: string;
  let customerToken: string;

  beforeAll(async () => {
    browser = await launch();
    staffToken = await staffLogin(AGENT);
    customerToken = await login('demo');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the agent sets a photo and a signature; the customer sees them on the reply, not on a note', async () => {
    const context = await contextWith(browser, { language: 'en-EN', staffToken });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(DESK);
    await page.getByRole('button', { name: /Sara Conti/ }).click();
    await page.getByRole('menuitem', { name: 'My profile' }).click();
    await page.getByRole('heading', { name: 'My profile' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/demo/staff/profile');
    await expect.poll(() => page.getByLabel('Display name').inputValue()).toBe('Sara Conti');

    const signature = `Sara Conti\nHelpdesk IT ${Date.now()}`;
    await page.getByLabel('Signature').fill(signature);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose a photo' }).click();
    await (await chooser).setFiles({ name: 'sara.png', mimeType: 'image/png', buffer: readFileSync(PHOTO) });
    await page.getByRole('button', { name: 'Use initials' }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Profile saved.').waitFor();
    const saved = await json<{ signature: string; avatarUrl: string | null }>(
      '/api/staff/portals/demo/profile',
      staffToken,
    );
    expect(saved.signature).toBe(signature);
    expect(saved.avatarUrl).not.toBeNull();

    // A reply and a note on a customer's new ticket: the reply carries the signature, the note not.
    const created = await json<{ id: number }>('/api/demo/11/tickets', customerToken, {
      title: `Profile journey ${Date.now()}`,
      taskTypeId: 1,
      description: '<p>The scanner is offline.</p>',
      attachments: [],
    });
    const base = `/api/staff/portals/demo/tickets/${created.id}/comments`;
    const reply = await json<{ message: string }>(base, staffToken, {
      message: '<p>We restarted the scanner.</p>',
      internal: false,
    });
    expect(reply.message).toContain('Helpdesk IT');
    const note = await json<{ message: string }>(base, staffToken, { message: 'Note only', internal: true });
    expect(note.message).not.toContain('Helpdesk IT');

    const customer = await contextWith(browser, { language: 'en-EN', contactToken: customerToken });
    const cp = await customer.newPage();
    await cp.goto(`${baseUrl}/demo/11/tickets/${created.id}`);
    const comment = cp.getByTestId('ticket-comment').filter({ hasText: 'We restarted the scanner.' });
    await comment.waitFor();
    expect(await comment.innerText()).toContain('Sara Conti');
    expect(await comment.innerText()).toContain('Helpdesk IT');
    await expect.poll(() => comment.locator('img').count()).toBeGreaterThan(0);
    await screenshot(cp, 'agent-profile-customer-sees-reply');
    expect(errors).toEqual([]);
    await customer.close();
    await context.close();
  });

  it('the profile page at both widths in every language', async () => {
    for (const [index, width] of WIDTHS.entries())
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const context = await contextWith(browser, { width, language, staffToken });
        const page = await context.newPage();
        await page.goto(`${DESK}/profile`);
        await page.getByTestId('profile-preview').waitFor();
        await expect.poll(() => page.getByTestId('profile-preview').innerText()).toContain('Helpdesk IT');
        await screenshot(page, `agent-profile-${width}-${short}`);
        await context.close();
      }
  });

  it('priority, tags and due date: set on the ticket, shown, filtered and sorted in the inbox', async () => {
    const desk = '/api/staff/portals/demo';
    const created = await json<{ id: number }>('/api/demo/11/tickets', customerToken, {
      title: `Triage journey ${Date.now()}`,
      taskTypeId: 1,
      description: '<p>The boiler stops at night.</p>',
      attachments: [],
    });
    const context = await contextWith(browser, { language: 'en-EN', staffToken });
    const page = await context.newPage();
    await page.goto(`${DESK}/tickets/${created.id}`);
    await page.getByTestId('side-priority').click();
    await page.getByRole('option', { name: 'Urgent' }).click();
    await page.getByTestId('side-status').getByText('Saved.').waitFor();
    const tags = page.getByTestId('side-tags');
    await tags.fill('Caldaia');
    await tags.press('Enter');
    await expect
      .poll(
        async () =>
          (await json<{ tags: { name: string }[] }>(`${desk}/tickets/${created.id}`, staffToken)).tags,
      )
      .toEqual([expect.objectContaining({ name: 'Caldaia' })]);
    await page.getByTestId('side-due').fill('2020-03-04T10:00');
    await page.getByRole('button', { name: 'Save due date' }).click();
    await expect
      .poll(
        async () => (await json<{ dueAt: string | null }>(`${desk}/tickets/${created.id}`, staffToken)).dueAt,
      )
      .not.toBeNull();
    await screenshot(page, 'agent-triage-ticket');

    // The inbox by priority, filtered to urgent and overdue: the row says so in words.
    await page.goto(`${DESK}?sort=priority&priority=urgent&due=overdue`);
    const row = page.getByTestId('inbox-row').filter({ hasText: 'Triage journey' }).first();
    await row.waitFor();
    expect(await row.getByTestId('priority-badge').innerText()).toContain('Urgent');
    expect(await row.getByTestId('row-tags').innerText()).toContain('#Caldaia');
    expect(await row.getByTestId('row-due').innerText()).toContain('Overdue');
    await context.close();

    for (const [index, width] of WIDTHS.entries())
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const c = await contextWith(browser, { width, language, staffToken });
        const p = await c.newPage();
        await p.goto(`${DESK}?sort=priority&due=overdue`);
        await p.getByTestId('inbox-row').first().waitFor();
        await p.getByTestId('filter-panel').waitFor();
        await screenshot(p, `agent-triage-inbox-${width}-${short}`);
        await p.goto(`${DESK}/tickets/${created.id}`);
        await p.getByTestId('side-priority').waitFor();
        await screenshot(p, `agent-triage-ticket-${width}-${short}`);
        await c.close();
      }
  });

  it('bulk: select with a click, shift-click and x, give a priority, close; a ticket changed meanwhile is reported', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const title = `Bulk journey ${Date.now()} ${i}`;
      const created = await json<{ id: number }>('/api/demo/11/tickets', customerToken, {
        title,
        taskTypeId: 1,
        description: '<p>Part of a batch.</p>',
        attachments: [],
      });
      ids.push(created.id);
    }
    const context = await contextWith(browser, { language: 'en-EN', staffToken });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${DESK}?q=${encodeURIComponent('Bulk journey')}&sort=created`);
    const rows = page.getByTestId('inbox-row').filter({ hasText: 'Bulk journey' });
    await expect.poll(() => rows.count()).toBe(3);
    // Newest first: the rows show titles 2, 1, 0. A click on the first, shift-click on the third.
    await rows.nth(0).getByTestId('row-select').click();
    await rows
      .nth(2)
      .getByTestId('row-select')
      .click({ modifiers: ['Shift'] });
    await page.getByTestId('bulk-count').getByText('3 selected').waitFor();
    // x on the focused row (the first) takes it out again.
    await rows.nth(0).locator('[data-row-link]').focus();
    await page.keyboard.press('x');
    await page.getByTestId('bulk-count').getByText('2 selected').waitFor();
    await page.getByTestId('bulk-priority').click();
    await page.getByRole('option', { name: 'High' }).click();
    await page.getByTestId('bulk-result').getByText('2 changed, 0 not changed.').waitFor();
    await screenshotBoth(page, 'agent-bulk-done');

    // Another agent answers on one of them; closing both reports that one and closes the other.
    await json(`/api/staff/portals/demo/tickets/${ids[0]}/comments`, staffToken, {
      message: 'Answered meanwhile',
      internal: false,
    });
    await page.getByTestId('bulk-close').click();
    await page.getByTestId('bulk-result').getByText('1 changed, 1 not changed.').waitFor();
    expect(await page.getByTestId('bulk-result').innerText()).toContain('changed since the list was read');
    const [t0, t1] = await Promise.all(
      [ids[0], ids[1]].map((id) =>
        json<{ closed: boolean; priority: string }>(`/api/staff/portals/demo/tickets/${id}`, staffToken),
      ),
    );
    expect(t0).toMatchObject({ closed: false, priority: 'high' });
    expect(t1).toMatchObject({ closed: true, priority: 'high' });
    await screenshotBoth(page, 'agent-bulk-failed');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the bell shows an assignment and opens its ticket; a saved view is created and counted', async () => {
    const desk = '/api/staff/portals/demo';
    const adminToken = await staffLogin(DEMO_ADMIN);
    const sara = (await json<{ me: { agentId: number } }>(`${desk}/options`, staffToken)).me.agentId;
    await json(`${desk}/notifications/read`, staffToken, { all: true });
    const title = `Bell journey ${Date.now()}`;
    const created = await json<{ id: number }>('/api/demo/11/tickets', customerToken, {
      title,
      taskTypeId: 1,
      description: '<p>The badge reader is dead.</p>',
      attachments: [],
    });
    // The admin gives it to Sara and makes it urgent: her bell rings.
    await json(
      `${desk}/tickets/${created.id}`,
      adminToken,
      { assigneeId: sara, priority: 'urgent' },
      'PATCH',
    );

    const context = await contextWith(browser, { language: 'en-EN', staffToken });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(DESK);
    const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
    await bell.click();
    const item = page.getByTestId('bell-panel').getByTestId('bell-item-assigned').first();
    await item.waitFor();
    expect(await item.innerText()).toContain(title);
    await screenshotBoth(page, 'agent-bell-open');
    await item.click();
    await page.waitForURL(`**/demo/staff/tickets/${created.id}`);
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

    // A personal view of the urgent open tickets, counted as the inbox counts them.
    await page.goto(`${DESK}?priority=urgent`);
    await page.getByTestId('inbox-row').first().waitFor();
    await page.getByTestId('save-view').click();
    await page.getByTestId('saved-view-name').fill('Urgent');
    await page.getByTestId('saved-view-submit').click();
    const views = await json<{ items: { id: number; name: string; count: number }[] }>(
      `${desk}/views`,
      staffToken,
    );
    const view = views.items.find((v) => v.name === 'Urgent')!;
    const urgent = await json<{ items: unknown[] }>(
      `${desk}/tickets?view=open&priority=urgent&limit=100`,
      staffToken,
    );
    expect(view.count).toBe(urgent.items.length);
    const link = page.getByTestId(`saved-view-${view.id}`);
    await expect.poll(() => link.getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId(`saved-count-${view.id}`).innerText()).toBe(String(view.count));
    await screenshotBoth(page, 'agent-saved-view');
    expect(errors).toEqual([]);
    await context.close();

    for (const [index, width] of WIDTHS.entries())
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const c = await contextWith(browser, { width, language, staffToken });
        const p = await c.newPage();
        await p.goto(`${DESK}?priority=urgent`);
        await p.getByTestId(`saved-view-${view.id}`).waitFor();
        await screenshot(p, `agent-saved-views-${width}-${short}`);
        await p.getByTestId('bell').click();
        await p.getByTestId('bell-panel').waitFor();
        await screenshot(p, `agent-bell-${width}-${short}`);
        await c.close();
      }
    await json(`${desk}/views/${view.id}`, staffToken, undefined, 'DELETE');
  });

  it('a macro reply: Alt+M in the editor, the text filled for the customer, its changes sent with it', async () => {
    const desk = '/api/staff/portals/demo';
    const name = `Scanner ${Date.now()}`;
    const macro = await json<{ id: number }>(`${desk}/macros`, staffToken, {
      name,
      shared: false,
      texts: {
        'it-IT': '<p>Ciao {{customer.first_name}}, il ticket {{ticket.number}} è risolto. {{agent.name}}</p>',
        'en-EN': '<p>Hi {{customer.first_name}}, ticket {{ticket.number}} is solved. {{agent.name}}</p>',
      },
      actions: { priority: 'high', tags: ['Macro'] },
    });
    expect(macro.id).toBeGreaterThan(0);
    // A shared one by an admin, for the administration's screen.
    const adminToken = await staffLogin(DEMO_ADMIN);
    await json(`${desk}/macros`, adminToken, {
      name: `Shared ${name}`,
      shared: true,
      texts: { 'it-IT': '<p>Buongiorno {{customer.name}}</p>' },
      actions: { priority: 'low' },
    });
    const created = await json<{ id: number; ticketNumber: string }>('/api/demo/11/tickets', customerToken, {
      title: `Macro journey ${Date.now()}`,
      taskTypeId: 1,
      description: '<p>The scanner jams.</p>',
      attachments: [],
    });

    const context = await contextWith(browser, { language: 'en-EN', staffToken });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${DESK}/tickets/${created.id}`);
    const editor = page.getByTestId('composer').locator('[contenteditable="true"], textarea').first();
    await editor.click();
    await page.keyboard.press('Alt+KeyM');
    const search = page.getByTestId('macro-search');
    await search.waitFor();
    await search.fill(name);
    await page.getByTestId('macro-option').filter({ hasText: name }).first().waitFor();
    await screenshotBoth(page, 'agent-macro-picker');
    await search.press('Enter');
    await search.waitFor({ state: 'detached' });
    // The requester's language is the portal's (Italian): the Italian text, filled for them.
    await expect
      .poll(() => editor.innerText())
      .toMatch(/^Ciao \S+, il ticket \d+\/\d+ è risolto\. Sara Conti/);
    const bar = page.getByTestId('macro-actions');
    await bar.getByText('Set priority to High').waitFor();
    await screenshotBoth(page, 'agent-macro-inserted');
    // The agent keeps the priority and drops the tags.
    await page.getByRole('button', { name: /Do not apply: Set tags/ }).click();
    await page.getByTestId('composer-send').click();
    await page.getByTestId('composer-notice').getByText(/sent/i).waitFor();
    const after = await json<{
      priority: string;
      tags: { name: string }[];
      comments: { message: string; internal: boolean }[];
    }>(`${desk}/tickets/${created.id}`, staffToken);
    expect(after.priority).toBe('high');
    expect(after.tags).toEqual([]);
    const last = after.comments.at(-1)!;
    expect(last.internal).toBe(false);
    expect(last.message).toContain('ticket');
    expect(last.message).toContain('Sara Conti');
    // The customer beside it: an agent sees the requester and the company's contracts, no invoices.
    const panel = page.getByTestId('customer-panel');
    await panel.getByTestId('customer-contracts').waitFor();
    expect(await panel.getByTestId('customer-invoices').count()).toBe(0);
    expect(await panel.innerText()).toContain('Other open tickets');
    expect(errors).toEqual([]);
    await context.close();

    // The lists to manage them: the agent's own under the profile, the shared ones in the administration.
    for (const [index, width] of WIDTHS.entries())
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const c = await contextWith(browser, { width, language, staffToken });
        const p = await c.newPage();
        await p.goto(`${DESK}/profile`);
        await p.getByTestId('macros-mine').getByTestId('macro-row').first().waitFor();
        await screenshot(p, `agent-macros-mine-${width}-${short}`);
        await c.close();
        const a = await contextWith(browser, { width, language, staffToken: adminToken });
        const ap = await a.newPage();
        // The customer beside the ticket, as an admin sees it (invoices included); below the
        // conversation on a phone.
        await ap.goto(`${DESK}/tickets/${created.id}`);
        const panel = ap.getByTestId('customer-panel');
        await panel.getByTestId('customer-invoices').waitFor();
        await panel.getByTestId('customer-contracts').waitFor();
        await screenshot(ap, `agent-customer-panel-${width}-${short}`);
        await ap.goto(`${DESK}/admin/macros`);
        await ap.getByTestId('macros-shared').getByTestId('macro-row').first().waitFor();
        await screenshot(ap, `agent-macros-shared-${width}-${short}`);
        await ap.getByTestId('macro-row').first().getByRole('button').first().click();
        await ap.getByTestId('macro-form').locator('[contenteditable="true"]').waitFor();
        await screenshot(ap, `agent-macros-editor-${width}-${short}`);
        await a.close();
      }
  }, 240_000);

  it('merge: a duplicate into the first ticket, the customer told and sent there; time logged; undone by an admin', async () => {
    const stamp = Date.now();
    const open = (title: string) =>
      json<{ id: number; ticketNumber: string }>('/api/demo/11/tickets', customerToken, {
        title,
        taskTypeId: 1,
        description: '<p>The printer on the first floor jams.</p>',
        attachments: [],
      });
    const first = await open(`Merge journey first ${stamp}`);
    const duplicate = await open(`Merge journey duplicate ${stamp}`);
    await json('/api/demo/11/comments', customerToken, {
      taskId: duplicate.id,
      message: '<p>Still jamming this morning.</p>',
    });
    const context = await contextWith(browser, { language: 'en-EN', staffToken });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${DESK}/tickets/${duplicate.id}`);

    // Time with a reply, from the composer.
    await page.getByTestId('composer').getByTestId('time-minutes').fill('25');
    const editor = page.getByRole('textbox', { name: /^Reply/ });
    await editor.waitFor();
    await editor.click();
    await page.keyboard.type('We are sending a technician.');
    await page.getByTestId('composer-send').click();
    await page.getByTestId('composer-notice').getByText('Reply sent to the customer.').waitFor();
    await page.getByTestId('time-sums').getByText('Total 0:25').waitFor();

    // Merge into the first ticket: the picker finds it by number, the confirmation says what happens.
    await page.getByTestId('merge-open').click();
    await page.getByTestId('merge-search').fill(first.ticketNumber);
    await page
      .getByTestId('merge-option')
      .filter({ hasText: `Merge journey first ${stamp}` })
      .click();
    const confirm = page.getByTestId('merge-confirm');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('2 messages');
    // The time logged with the reply goes with it: the dialog says so, and the notice what moved.
    expect(await confirm.getByTestId('merge-time').innerText()).toBe(
      "1 time entry logged on it (0:25 h) moves too, and counts in the chosen ticket's time spent.",
    );
    await screenshotBoth(page, 'agent-merge-confirm');
    await page.getByTestId('merge-confirm-button').click();
    await page.getByTestId('merged-banner').waitFor();
    expect(await page.getByTestId('merged-banner').innerText()).toContain(first.ticketNumber);
    // Said once every list of the portal is read again (the merge's answer counts what moved).
    await page.getByTestId('merge-notice').getByText('and 1 time entry moved there.').waitFor();
    const target = await json<{ comments: { message: string }[] }>(
      `/api/staff/portals/demo/tickets/${first.id}`,
      staffToken,
    );
    expect(target.comments.map((c) => c.message).join(' ')).toContain('Still jamming this morning.');
    // The customer is told (the outbox writes the message a moment after the merge).
    await expect
      .poll(() => mailsWith(`Merge journey duplicate ${stamp}`).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();

    // The customer's duplicate says where it went and links there.
    for (const [index, width] of WIDTHS.entries())
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const c = await contextWith(browser, { width, language, contactToken: customerToken });
        const cp = await c.newPage();
        await cp.goto(`${baseUrl}/demo/11/tickets/${duplicate.id}`);
        await cp.getByTestId('merged-into').waitFor();
        await screenshot(cp, `agent-merge-customer-${width}-${short}`);
        if (index === 0 && short === 'en') {
          await cp.getByTestId('merged-into').getByRole('link', { name: first.ticketNumber }).click();
          await cp.getByText('Still jamming this morning.').waitFor();
        }
        await c.close();
        const d = await contextWith(browser, { width, language, staffToken });
        const dp = await d.newPage();
        await dp.goto(`${DESK}/tickets/${duplicate.id}`);
        await dp.getByTestId('merged-banner').waitFor();
        await dp.getByTestId('time-sums').waitFor();
        await screenshot(dp, `agent-merge-desk-${width}-${short}`);
        await d.close();
      }

    // An admin undoes it within the day: the reply goes back.
    const adminToken = await staffLogin(DEMO_ADMIN);
    const admin = await contextWith(browser, { language: 'en-EN', staffToken: adminToken });
    const ap = await admin.newPage();
    await ap.goto(`${DESK}/tickets/${duplicate.id}`);
    await ap.getByTestId('merge-undo').click();
    await ap.getByTestId('merge-notice').getByText('Merge undone').waitFor();
    expect(await ap.getByTestId('merge-notice').innerText()).toContain(
      '1 time entry are back on this ticket',
    );
    await ap.getByTestId('merge-open').waitFor();
    const back = await json<{ comments: { message: string }[]; closed: boolean }>(
      `/api/staff/portals/demo/tickets/${duplicate.id}`,
      staffToken,
    );
    expect(back.comments.map((c) => c.message).join(' ')).toContain('Still jamming this morning.');
    expect(back.closed).toBe(false);
    await admin.close();
  }, 300_000);
});

/** The page as it is at 1366 px, and again at 360 px. */
async function screenshotBoth(page: import('playwright-core').Page, name: string): Promise<void> {
  await screenshot(page, `${name}-1366`);
  await page.setViewportSize({ width: 360, height: 900 });
  await screenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1366, height: 900 });
}
