// An agent's morning (issue 28's done-when), one story in the browser as the demo agent: the bell's
// notices, a ticket breaching its service level opened from "Breaching soon", answered with a macro,
// two tickets closed at once, a duplicate merged, a low rating read, a breach told by the SLA sweep,
// the reports opened.
// What the customer and the admin do meanwhile goes through their own APIs. Axe checks every screen of
// it, and while the urgent ticket's minute runs, the inbox and the answered ticket are checked again
// under every portal colour of lib/branding-samples.ts, each set through the branding API as an admin
// sets it, in the light and the dark scheme (the badges' words once failed contrast on some of them).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_COLOURS } from '../apps/web/src/lib/branding-samples';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import { contextWith, DEMO_ADMIN, DEMO_AGENT, expectAccessible, json, login, staffLogin } from './kit';

const DESK = `${baseUrl}/demo/staff`;
const API = '/api/staff/portals/demo';
const CUSTOMER = '/api/demo/11';
const WIDTHS = [1366, 360] as const;
const LANGUAGES = [
  ['it-IT', 'it'],
  ['en-EN', 'en'],
  ['es-ES', 'es'],
] as const;
const ALWAYS = Array(7).fill([['00:00', '24:00']]);

interface Opened {
  id: number;
  ticketNumber: string;
  title: string;
}
interface SlaPolicy {
  enabled: boolean;
  hours: unknown;
  holidays: string[];
  targets: unknown;
}

describe('an agent’s morning', () => {
  let browser: Browser;
  let agentToken: string;
  let adminToken: string;
  let customerToken: string;
  let colourBefore: string | null = null;
  let slaBefore: SlaPolicy | null = null;
  const stamp = Date.now();
  const t: Record<
    'overdue' | 'breaching' | 'replied' | 'rated' | 'batch1' | 'batch2' | 'first' | 'again',
    Opened
  > = {} as never;

  const open = async (title: string, description: string): Promise<Opened> => {
    const created = await json<Opened>(`${CUSTOMER}/tickets`, customerToken, {
      title,
      taskTypeId: 1,
      description: `<p>${description}</p>`,
      attachments: [],
    });
    return { ...created, title };
  };

  beforeAll(async () => {
    browser = await launch();
    [agentToken, adminToken, customerToken] = await Promise.all([
      staffLogin(DEMO_AGENT),
      staffLogin(DEMO_ADMIN),
      login('demo'),
    ]);
    colourBefore = (await json<{ baseColor: string | null }>(`${API}/admin/settings`, adminToken)).baseColor;
    const sla = await json<SlaPolicy>(`${API}/admin/sla`, adminToken);
    slaBefore = { enabled: sla.enabled, hours: sla.hours, holidays: sla.holidays, targets: sla.targets };
  });
  afterAll(async () => {
    // The other journeys know the demo portal in its own colour and service levels.
    if (adminToken) {
      await json(`${API}/admin/settings`, adminToken, { baseColor: colourBefore }, 'PATCH');
      if (slaBefore) await json(`${API}/admin/sla`, adminToken, slaBefore, 'PUT');
    }
    await browser?.close();
  });

  /** The page at each width in its languages (browser.ts languagesAt), as `show` leaves it. */
  async function moment(name: string, show: (page: Page) => Promise<void>): Promise<void> {
    for (const [index, width] of WIDTHS.entries())
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const context = await contextWith(browser, { width, language, staffToken: agentToken });
        const page = await context.newPage();
        await show(page);
        await screenshot(page, `${name}-${width}-${short}`);
        await context.close();
      }
  }

  /**
   * The inbox and the answered ticket checked for colour contrast under each portal colour of
   * lib/branding-samples.ts, set through the branding API as an admin sets it, in the light and the dark
   * scheme (the browser's preference, which the desk follows until the agent picks one); the portal's own
   * colour put back after.
   */
  async function everyPortalColour(): Promise<void> {
    // The morning's open tickets (the step, "last reply ours", priority and service-level badges, a
    // focused row), and the answered ticket (its step, "last reply ours", the paused clock, the composer):
    // loaded side by side after each colour, checked in the light scheme, then in the dark one the
    // browser's preference switches them to without a reload (as a phone's evening setting does).
    const context = await contextWith(browser, {
      language: 'en-EN',
      staffToken: agentToken,
      colorScheme: 'light',
    });
    const inbox = await context.newPage();
    const ticket = await context.newPage();
    const load = {
      inbox: async () => {
        await inbox.goto(`${DESK}?view=open&q=${encodeURIComponent(`Morning ${stamp}`)}`);
        await inbox.getByTestId('inbox-row').filter({ hasText: t.breaching.title }).waitFor();
        // A focused row is tinted: j puts the cursor on the first one.
        await inbox.locator('body').click({ position: { x: 1, y: 1 } });
        await inbox.keyboard.press('j');
      },
      ticket: async () => {
        await ticket.goto(`${DESK}/tickets/${t.breaching.id}`);
        await ticket.getByTestId('composer').locator('[contenteditable="true"]').waitFor();
        await ticket.getByTestId('ticket-step').locator('..').getByTestId('sla-badge').waitFor();
      },
    };
    const failures: string[] = [];
    const inScheme = async (page: Page, colorScheme: 'light' | 'dark') => {
      await page.emulateMedia({ colorScheme });
      await page.waitForFunction(
        (s) => document.documentElement.getAttribute('data-mantine-color-scheme') === s,
        colorScheme,
      );
    };
    for (const colour of PORTAL_COLOURS) {
      await json(`${API}/admin/settings`, adminToken, { baseColor: colour }, 'PATCH');
      // Each colour's pages load in the light scheme, then turn dark in place.
      await Promise.all([
        inbox.emulateMedia({ colorScheme: 'light' }),
        ticket.emulateMedia({ colorScheme: 'light' }),
      ]);
      await Promise.all([load.inbox(), load.ticket()]);
      for (const colorScheme of ['light', 'dark'] as const) {
        const label = `portal colour ${colour ?? '(none)'}, ${colorScheme}`;
        await Promise.all([inScheme(inbox, colorScheme), inScheme(ticket, colorScheme)]);
        // Each page has its own renderer process: the two checks take a core each. Every colour is
        // checked before the test fails, so one run names every failure.
        const checks = await Promise.allSettled([
          expectAccessible(inbox, { rules: ['color-contrast'], label: `the inbox, ${label}` }),
          expectAccessible(ticket, { rules: ['color-contrast'], label: `the ticket, ${label}` }),
        ]);
        for (const c of checks) if (c.status === 'rejected') failures.push(String(c.reason));
      }
    }
    await context.close();
    await json(`${API}/admin/settings`, adminToken, { baseColor: colourBefore }, 'PATCH');
    expect(failures).toEqual([]);
  }

  it('the bell, a breaching ticket answered with a macro, a bulk close, a merge, a low rating, a breach, the reports; every portal colour', async () => {
    // --- Before the agent sits down: the admin's service levels, the customer's tickets. ---
    // Half an hour to a first answer: a new normal ticket is "soon" from the start (under a business hour);
    // an urgent one has a minute, so the morning sees one breach.
    await json(
      `${API}/admin/sla`,
      adminToken,
      {
        enabled: true,
        hours: ALWAYS,
        holidays: [],
        targets: {
          low: { firstResponse: null, resolution: null },
          normal: { firstResponse: 30, resolution: 960 },
          high: { firstResponse: 20, resolution: 480 },
          urgent: { firstResponse: 1, resolution: 240 },
        },
      },
      'PUT',
    );
    await json(`${API}/notifications/read`, agentToken, { all: true });
    // The urgent one first: its minute runs while the agent works.
    t.overdue = await open(
      `Morning server room hot ${stamp}`,
      'The air conditioning of the server room stopped.',
    );
    t.breaching = await open(`Morning VPN down ${stamp}`, 'Nobody can reach the file server from home.');
    t.replied = await open(`Morning printer ${stamp}`, 'The printer on the second floor is offline.');
    t.rated = await open(`Morning badge reader ${stamp}`, 'The badge reader at the door is dead.');
    t.batch1 = await open(`Morning batch ${stamp} one`, 'A toner to order.');
    t.batch2 = await open(`Morning batch ${stamp} two`, 'Another toner to order.');
    t.first = await open(`Morning scanner ${stamp}`, 'The scanner jams.');
    t.again = await open(`Morning scanner again ${stamp}`, 'The scanner jams, still.');
    const sara = (await json<{ me: { agentId: number } }>(`${API}/options`, agentToken)).me.agentId;
    // The admin hands four of them to Sara; the customer replies on one, closes and rates another.
    await json(
      `${API}/tickets/${t.overdue.id}`,
      adminToken,
      { assigneeId: sara, priority: 'urgent' },
      'PATCH',
    );
    for (const ticket of [t.breaching, t.replied, t.rated])
      await json(`${API}/tickets/${ticket.id}`, adminToken, { assigneeId: sara }, 'PATCH');
    await json(`${CUSTOMER}/comments`, customerToken, {
      taskId: t.replied.id,
      message: '<p>It is on the network again but prints blank pages.</p>',
    });
    await json(`${CUSTOMER}/tickets/${t.rated.id}/close`, customerToken, {});
    const complaint = `Two days without a badge reader ${stamp}.`;
    await json(
      `${CUSTOMER}/tickets/${t.rated.id}/rating`,
      customerToken,
      { rating: 1, comment: complaint },
      'PUT',
    );
    const macro = `Morning VPN ${stamp}`;
    await json(`${API}/macros`, agentToken, {
      name: macro,
      shared: false,
      texts: {
        'it-IT': '<p>Ciao {{customer.first_name}}, abbiamo riavviato la VPN. {{agent.name}}</p>',
        'en-EN': '<p>Hi {{customer.first_name}}, we restarted the VPN. {{agent.name}}</p>',
      },
      actions: {},
    });
    // Four assignments, the reply, the low rating (and whatever else rang meanwhile).
    const { unread } = await json<{ unread: number }>(`${API}/notifications/count`, agentToken);
    expect(unread).toBeGreaterThanOrEqual(6);

    // --- The desk: the bell first. ---
    const context = await contextWith(browser, { language: 'en-EN', staffToken: agentToken });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(DESK);
    await page.getByTestId('inbox-row').first().waitFor();
    await expectAccessible(page);
    const bell = page.getByTestId('bell');
    await expect.poll(() => bell.getAttribute('aria-label')).toMatch(/^Notifications, \d+ unread$/);
    expect(Number(/\d+/.exec((await bell.getAttribute('aria-label'))!)![0])).toBeGreaterThanOrEqual(unread);
    await bell.click();
    const panel = page.getByTestId('bell-panel');
    const notice = (kind: string, ticket: Opened) =>
      panel.getByTestId(`bell-item-${kind}`).filter({ hasText: ticket.title });
    await notice('assigned', t.breaching).waitFor();
    await notice('customer_reply', t.replied).waitFor();
    expect(await notice('low_rating', t.rated).innerText()).toContain(`rated ${t.rated.ticketNumber} 1/5`);
    await expectAccessible(page);
    await page.getByTestId('bell').click();
    await panel.waitFor({ state: 'hidden' });
    await moment('morning-bell', async (p) => {
      await p.goto(DESK);
      await p.getByTestId('bell').click();
      await p.getByTestId('bell-panel').getByTestId('bell-item-low_rating').first().waitFor();
    });

    // --- A ticket breaching its first answer, from "Breaching soon". ---
    await page.getByTestId('view-breaching').click();
    const row = page.getByTestId('inbox-row').filter({ hasText: t.breaching.title });
    await row.getByTestId('sla-badge').waitFor();
    await expectAccessible(page);
    await row.locator('[data-row-link]').click();
    await page.waitForURL(`**/demo/staff/tickets/${t.breaching.id}`);
    const badge = page.getByTestId('sla-badge');
    // The badges read the clock to the half minute (sla-badge.tsx): "soon" from the instant the ticket
    // was opened may read "ok" for up to 30 s first.
    await expect.poll(() => badge.getAttribute('data-sla'), { timeout: 45_000 }).toBe('soon');
    expect(await badge.innerText()).toContain('First response: Due soon');
    await expectAccessible(page);
    await moment('morning-sla-ticket', async (p) => {
      await p.goto(`${DESK}/tickets/${t.breaching.id}`);
      await p.locator('[data-testid="sla-badge"][data-sla="soon"]').waitFor();
      await p.getByTestId('composer').locator('[contenteditable="true"]').waitFor();
    });

    // --- Answered with a macro: Alt+M in the editor. ---
    const editor = page.getByTestId('composer').locator('[contenteditable="true"], textarea').first();
    await editor.click();
    await page.keyboard.press('Alt+KeyM');
    const search = page.getByTestId('macro-search');
    await search.fill(macro);
    await page.getByTestId('macro-option').filter({ hasText: macro }).first().waitFor();
    await expectAccessible(page);
    await search.press('Enter');
    await search.waitFor({ state: 'detached' });
    // The requester's language is the portal's (Italian): the Italian text, filled for them.
    await expect.poll(() => editor.innerText()).toMatch(/^Ciao \S+, abbiamo riavviato la VPN\. Sara Conti/);
    await page.getByTestId('composer-send').click();
    await page.getByTestId('composer-notice').getByText('Reply sent to the customer.').waitFor();
    // Answered: the first-response clock is met, the resolution's waits with the customer.
    await page
      .getByTestId('ticket-step')
      .locator('..')
      .getByText('Last reply ours', { exact: true })
      .waitFor();
    await expect.poll(() => badge.getAttribute('data-sla')).toBe('paused');
    await expectAccessible(page);

    // --- While the urgent ticket's minute runs: these two screens under every portal colour. ---
    await everyPortalColour();

    // --- Back in the inbox: two tickets of a batch closed at once. ---
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByTestId('view-open').click();
    const searchBox = page.getByRole('combobox', { name: 'Search tickets' });
    await searchBox.fill(`Morning batch ${stamp}`);
    await searchBox.press('Enter');
    const batch = page.getByTestId('inbox-row').filter({ hasText: `Morning batch ${stamp}` });
    // The search's answer after the colour sweep's reloads: on a loaded machine, more than a second.
    await expect.poll(() => batch.count(), { timeout: 15_000 }).toBe(2);
    await batch.nth(0).getByTestId('row-select').click();
    await batch.nth(1).getByTestId('row-select').click();
    await page.getByTestId('bulk-count').getByText('2 selected').waitFor();
    await expectAccessible(page);
    await page.getByTestId('bulk-close').click();
    await page.getByTestId('bulk-result').getByText('2 changed, 0 not changed.').waitFor();
    for (const ticket of [t.batch1, t.batch2])
      expect(
        (await json<{ closed: boolean }>(`${API}/tickets/${ticket.id}`, agentToken)).closed,
        ticket.title,
      ).toBe(true);
    await expectAccessible(page);

    // --- A duplicate merged into the first ticket. ---
    await searchBox.fill(t.again.title);
    await searchBox.press('Enter');
    await page.getByTestId('inbox-row').filter({ hasText: t.again.title }).locator('[data-row-link]').click();
    await page.waitForURL(`**/demo/staff/tickets/${t.again.id}`);
    await page.getByTestId('merge-open').click();
    await page.getByTestId('merge-search').fill(t.first.ticketNumber);
    await page.getByTestId('merge-option').filter({ hasText: t.first.title }).click();
    await page.getByTestId('merge-confirm').waitFor();
    await expectAccessible(page);
    await page.getByTestId('merge-confirm-button').click();
    await page.getByTestId('merged-banner').getByText(t.first.ticketNumber).waitFor();
    await expectAccessible(page);

    // --- The low rating, from the bell: the stars and the customer's words. ---
    await page.getByTestId('bell').click();
    await notice('low_rating', t.rated).click();
    await page.waitForURL(`**/demo/staff/tickets/${t.rated.id}`);
    const rating = page.getByTestId('ticket-rating');
    await rating.waitFor();
    expect(await rating.getAttribute('data-low')).toBe('true');
    const said = await rating.innerText();
    expect(said).toContain('1 out of 5');
    expect(said).toContain('Low rating');
    expect(said).toContain(complaint);
    await expectAccessible(page);

    // --- Later: nobody answered the urgent ticket within its minute, and the breach sweep says so. ---
    // It looks every second here (SLA_SWEEP_SECONDS of e2e/run.mjs): the notice comes as the minute ends.
    const breached = async () =>
      (
        await json<{ items: { kind: string; ticketId: number }[] }>(
          `${API}/notifications?limit=50`,
          agentToken,
        )
      ).items.some((n) => n.kind === 'sla_breach' && n.ticketId === t.overdue.id);
    await expect.poll(breached, { timeout: 75_000, interval: 1_000 }).toBe(true);
    await page.reload();
    await page.getByTestId('bell').click();
    const breach = notice('sla_breach', t.overdue);
    expect(await breach.innerText()).toContain(`${t.overdue.ticketNumber} breached its service level`);
    expect(await breach.getByTestId('bell-item-sla').innerText()).toMatch(/^First response: was due /);
    await expectAccessible(page);
    await breach.click();
    await page.waitForURL(`**/demo/staff/tickets/${t.overdue.id}`);
    const overdue = page.getByTestId('sla-badge');
    await expect.poll(() => overdue.getAttribute('data-sla')).toBe('breached');
    expect(await overdue.innerText()).toContain('First response: Overdue by');
    await expectAccessible(page);

    // --- The reports: today's row counts the morning's tickets and its low rating. ---
    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    await page.waitForURL(/\/staff\/reports$/);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome' }).format(new Date());
    // Each chart's figures are folded beneath it until asked for: today's cells, once opened.
    const todayOf = async (report: string) => {
      await page.getByTestId(`${report}-figures`).getByText('The figures, as a table').click();
      const cells = page
        .getByTestId(`${report}-table`)
        .locator('tbody tr', { has: page.getByRole('rowheader', { name: today, exact: true }) })
        .locator('td');
      return async (column: number) => Number((await cells.allInnerTexts())[column] ?? 0);
    };
    // Volume: created, solved, open at the end; ratings: count, average, low.
    const volume = await todayOf('report-volume');
    await expect.poll(() => volume(0)).toBeGreaterThanOrEqual(Object.keys(t).length);
    const ratings = await todayOf('report-ratings');
    await expect.poll(() => ratings(2)).toBeGreaterThanOrEqual(1);
    await page.locator('.recharts-surface').first().waitFor();
    await expectAccessible(page);

    expect(errors).toEqual([]);
    await context.close();
  }, 600_000);
});
