import { crc32, deflateSync } from 'node:zlib';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launch, screenshot } from './browser';
import { contextWith, expectAccessible, login } from './kit';

// Demo data (apps/api/src/modules/admin/demo-data.ts): user `demo` holds contact 11 (Marco Rossi, Rossi
// Impianti Srl, administrator); `giulia.bianchi` holds contact 12 of the same company (not administrator).
const MINE = `${baseUrl}/demo/11`;
const TITLES = {
  open1001: 'Il gestionale non si avvia dopo l’aggiornamento',
  open1003: 'Nuova postazione per la collega in arrivo',
  closed1004: 'Backup notturno non completato',
  closed1009: 'Sostituzione lampade ufficio tecnico',
  giulia1006: 'Stampante del magazzino non stampa le etichette',
  agent1005: 'Manutenzione programmata quadro elettrico',
};
const HOSTILE =
  '<p>Hostile text</p><img src=x onerror="window.__xss=1"><script>window.__xss=1</script>' +
  '<a href="javascript:window.__xss=1">link</a><iframe src="javascript:window.__xss=1"></iframe>';

/** A real PNG (a small gradient), so the thumbnail has something to show. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++)
      rows.push(Math.round((x / width) * 255), 120, Math.round((y / height) * 255));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function apiPost<T>(token: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as T;
}

async function titlesOfRows(page: Page): Promise<string[]> {
  const rows = page.getByTestId('ticket-row');
  const n = await rows.count();
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(await rows.nth(i).getByRole('link').first().innerText());
  return out;
}

async function chooseStatus(page: Page, option: 'All' | 'Open or pending'): Promise<void> {
  await page.getByRole('combobox', { name: 'Status', exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Rome's calendar day `offset` days from today, as DD/MM/YYYY and YYYY-MM-DD. */
function romeDay(offset: number): { typed: string; iso: string } {
  const d = new Date(Date.now() + offset * 86_400_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Rome',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return {
    typed: `${parts.day}/${parts.month}/${parts.year}`,
    iso: `${parts.year}-${parts.month}-${parts.day}`,
  };
}

describe('tickets', () => {
  let browser: Browser;
  let demoToken: string;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  /** The ticket created through the form (its detail URL). */
  let createdUrl = '';
  const subject = `Printer on fire ${Date.now()}`;

  beforeAll(async () => {
    browser = await launch();
    demoToken = await login('demo');
    context = await contextWith(browser, { contactToken: demoToken, width: 1280 });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(() => browser?.close());

  it('lists my tickets: open or pending by default, all on request, and a date range', async () => {
    await page.goto(`${MINE}/tickets`);
    await page.getByRole('heading', { level: 1, name: 'My tickets' }).waitFor();
    await page.getByTestId('ticket-row').first().waitFor();

    let titles = await titlesOfRows(page);
    expect(titles).toContain(TITLES.open1001);
    expect(titles).toContain(TITLES.open1003);
    expect(titles).not.toContain(TITLES.closed1004);
    expect(titles).not.toContain(TITLES.giulia1006);
    await expect(page.getByTestId('ticket-step').allInnerTexts()).resolves.not.toContain('Chiuso');

    const row1001 = page.getByTestId('ticket-row').filter({ hasText: TITLES.open1001 });
    await expect(row1001.getByTestId('ticket-number').textContent()).resolves.toMatch(
      /^Ticket number \d{4}\/0118$/,
    );
    const type = row1001.getByTestId('ticket-type');
    expect(await type.innerText()).toBe('Guasto');
    const typeColours = await type.evaluate((el) => [
      getComputedStyle(el).backgroundColor,
      getComputedStyle(el).color,
    ]);
    expect(typeColours).toEqual(['rgb(224, 49, 49)', 'rgb(0, 0, 0)']);
    await expect(row1001.getByText(/^Next planned activity: Intervento in remoto/).count()).resolves.toBe(1);
    const report = row1001.getByRole('link', { name: /activity report/i });
    expect(await report.getAttribute('href')).toMatch(/^\/api\/files\/\d+\/rapporto-.*\.pdf\?e=\d+&s=/);
    await expect(row1001.getByText(/^\d{2}\/\d{2}\/\d{4} at \d{2}:\d{2}$/).count()).resolves.toBe(1);
    await expectAccessible(page);

    await chooseStatus(page, 'All');
    await page.getByTestId('ticket-row').filter({ hasText: TITLES.closed1004 }).waitFor();
    titles = await titlesOfRows(page);
    expect(titles).toEqual(expect.arrayContaining([TITLES.open1001, TITLES.closed1004, TITLES.closed1009]));
    // 1009 has no yearly number (internalAnnualProgressive 0): no badge.
    const row1009 = page.getByTestId('ticket-row').filter({ hasText: TITLES.closed1009 });
    expect(await row1009.getByTestId('ticket-number').count()).toBe(0);

    // Three days ago to yesterday: 1001 (2 days ago) and 1003 (yesterday) only; `to` is 23:59 of the end day.
    const from = romeDay(-3);
    const to = romeDay(-1);
    await page.getByRole('button', { name: /Created in/ }).click();
    await page.getByRole('textbox', { name: 'From' }).fill(from.typed);
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(to.typed);
    const listed = page.waitForRequest(
      (r) => r.url().includes('/api/demo/11/tickets?') && r.url().includes('from='),
    );
    await page.getByRole('textbox', { name: 'To', exact: true }).press('Enter');
    const url = new URL((await listed).url());
    expect(url.searchParams.get('from')).toBe(from.iso);
    expect(url.searchParams.get('to')).toBe(`${to.iso} 23:59`);
    await page.keyboard.press('Escape');
    await expect.poll(() => titlesOfRows(page)).toEqual([TITLES.open1003, TITLES.open1001]);
    await screenshot(page, 'tickets-list');
    expect(errors).toEqual([]);
  });

  it('lets an administrator filter all tickets by colleague, and says who created each', async () => {
    await page.goto(`${MINE}/alltickets`);
    await page.getByRole('heading', { level: 1, name: 'All tickets' }).waitFor();
    await chooseStatus(page, 'All');
    await page.getByTestId('ticket-row').filter({ hasText: TITLES.agent1005 }).waitFor();
    const creator = (title: string) =>
      page.getByTestId('ticket-row').filter({ hasText: title }).getByTestId('ticket-creator').innerText();
    expect(await creator(TITLES.giulia1006)).toBe('Created by Giulia Bianchi');
    expect(await creator(TITLES.open1001)).toBe('Created by Marco Rossi');
    expect(await creator(TITLES.agent1005)).toBe('Created by agent');
    await expectAccessible(page);

    await page.getByRole('button', { name: /^Colleagues/ }).click();
    const filtered = page.waitForRequest(
      (r) => r.url().includes('/tickets/all?') && r.url().includes('webUserIds='),
    );
    await page.getByRole('option', { name: 'Giulia Bianchi' }).click();
    expect(new URL((await filtered).url()).searchParams.get('webUserIds')).toMatch(/^\d+$/);
    await page.keyboard.press('Escape');
    await expect
      .poll(async () => new Set(await page.getByTestId('ticket-creator').allInnerTexts()))
      .toEqual(new Set(['Created by Giulia Bianchi']));
    const titles = await titlesOfRows(page);
    expect(titles).toContain(TITLES.giulia1006);
    expect(titles).not.toContain(TITLES.open1001);
    await expect(page.getByRole('button', { name: /^Colleagues.*1 user/ }).count()).resolves.toBe(1);
    await screenshot(page, 'all-tickets');
  });

  it('shows a non-administrator only their own tickets and no all-tickets entry', async () => {
    const giulia = await contextWith(browser, { contactToken: await login('giulia.bianchi'), width: 1280 });
    const p = await giulia.newPage();
    await p.goto(`${baseUrl}/demo/12/tickets`);
    await p.getByTestId('ticket-row').first().waitFor();
    const titles = await titlesOfRows(p);
    expect(titles).toContain(TITLES.giulia1006);
    expect(titles).not.toContain(TITLES.open1001);
    expect(await p.getByTestId('ticket-creator').count()).toBe(0);
    expect(await p.getByRole('link', { name: 'All tickets' }).count()).toBe(0);
    await giulia.close();
  });

  it('shows a demo ticket: conversation with agents, attachments and the side panel', async () => {
    await page.goto(`${MINE}/tickets`);
    await page.getByRole('link', { name: TITLES.open1001 }).click();
    await page.getByRole('heading', { level: 1, name: TITLES.open1001 }).waitFor();
    expect(await page.getByTestId('ticket-description').getByTestId('message-author').innerText()).toBe(
      'You',
    );
    const comments = page.getByTestId('ticket-comment');
    // The conversation draws its first messages, then the rest a batch per frame.
    await expect
      .poll(() => comments.getByTestId('message-author').allInnerTexts())
      .toEqual(['You', 'Marco Ferri', 'Marco Ferri', 'You']);
    // The agent's profile image, and the screenshot the customer attached as a thumbnail.
    const avatar = comments.nth(1).locator('.mantine-Avatar-image');
    await expect
      .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await comments.nth(0).getByRole('img', { name: 'errore-gestionale.png' }).waitFor();
    expect(await comments.nth(2).getByRole('link', { name: 'LOG-SERVIZIO-DATABA...' }).count()).toBe(1);
    expect(await page.getByTestId('side-group').innerText()).toContain('Helpdesk IT');
    expect(await page.getByTestId('side-assignee').innerText()).toContain('Marco Ferri');
    expect(await page.getByTestId('side-step').innerText()).toContain('In lavorazione');
    const report = page.getByTestId('side-report');
    expect(await report.innerText()).toMatch(/Rapporto n\. \d{4}\/118[\s\S]*\d{2}\/\d{2}\/\d{4}/);
    expect(await report.getByRole('link', { name: /Open/ }).getAttribute('href')).toMatch(/^\/api\/files\//);
    await expectAccessible(page);
    await screenshot(page, 'ticket-detail-demo');
  });

  it('refuses a new ticket without the required fields, then sends one with a description and attachments', async () => {
    await page.goto(`${MINE}/tickets`);
    await page.getByRole('link', { name: 'New ticket' }).click();
    await page.getByRole('heading', { level: 1, name: 'New ticket' }).waitFor();
    const editor = page.getByRole('textbox', { name: /^Description/ });
    await editor.waitFor();
    expect(await editor.getAttribute('contenteditable')).toBe('true');
    const posts: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/demo\/11\/tickets$/.test(new URL(r.url()).pathname)) posts.push(r);
    });

    await page.getByRole('button', { name: 'Send' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Please fill in all required fields' }).count(),
    ).resolves.toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'new-ticket-required');

    await page.getByRole('combobox', { name: /^Type/ }).click();
    await page.getByRole('option', { name: 'Guasto' }).click();
    await page.getByRole('textbox', { name: /^Subject/ }).fill(subject);
    // Subject and type alone are still not enough: the description is required too.
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please fill in all required fields' }).waitFor();
    expect(posts).toHaveLength(0);

    await editor.click();
    await page.keyboard.type('The printer ');
    await page.getByRole('button', { name: 'Bold', exact: true }).click();
    await page.keyboard.type('smokes');
    await page.getByRole('button', { name: 'Bold', exact: true }).click();
    await page.keyboard.type(' since this morning ');
    await page.getByRole('button', { name: 'Emoticons' }).click();
    await page.getByRole('button', { name: '🔧' }).click();
    expect(await editor.innerHTML()).toContain('<strong>smokes</strong>');

    await page.locator('input[type=file]').setInputFiles([
      { name: 'photo.png', mimeType: 'image/png', buffer: png(96, 64) },
      {
        name: 'quarterly-maintenance-report.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
      },
    ]);
    for (const name of ['photo.png', 'quarterly-maintenance-report.pdf'])
      await expect
        .poll(() =>
          page.getByRole('progressbar', { name: `Upload of ${name}` }).getAttribute('aria-valuenow'),
        )
        .toBe('100');
    await screenshot(page, 'new-ticket-filled');

    // Hold the answer back a moment so the 'sending' state can be seen.
    await page.route('**/api/demo/11/tickets', async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Sending ticket…').waitFor();
    await page.waitForURL(`${MINE}/tickets`);
    await page.unroute('**/api/demo/11/tickets');
    expect(posts).toHaveLength(1);
    const body = posts[0]!.postDataJSON() as {
      title: string;
      taskTypeId: number;
      description: string;
      attachments: number[];
    };
    expect(body.title).toBe(subject);
    expect(body.taskTypeId).toBe(1);
    expect(body.attachments).toHaveLength(2);
    expect(body.description).toContain('<strong>smokes</strong>');

    const row = page.getByTestId('ticket-row').filter({ hasText: subject });
    await row.waitFor();
    await row.getByRole('link', { name: subject }).click();
    await page.getByRole('heading', { level: 1, name: subject }).waitFor();
    createdUrl = page.url();
    const description = page.getByTestId('ticket-description');
    expect(await description.getByTestId('message-author').innerText()).toBe('You');
    expect(await description.getByTestId('message-body').innerHTML()).toContain('<strong>smokes</strong>');
    const thumb = description.getByRole('img', { name: 'photo.png' });
    await thumb.waitFor();
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(96);
    // A long non-image name: upper case, cut to 19 characters plus '...'.
    const file = description.getByRole('link', { name: 'QUARTERLY-MAINTENAN...' });
    expect(await file.getAttribute('title')).toBe('quarterly-maintenance-report.pdf');
    expect(await page.getByTestId('side-step').innerText()).toContain('Nuovo');
    await expectAccessible(page);
    await screenshot(page, 'ticket-detail');
    expect(errors).toEqual([]);
  });

  it('sends a reply with an attachment and clears the reply box afterwards', async () => {
    await page.goto(createdUrl);
    const reply = page.getByRole('textbox', { name: /^Reply/ });
    await reply.waitFor();
    await reply.click();
    await page.keyboard.type('Here is the log of the printer.');
    await page.locator('input[type=file]').setInputFiles({
      name: 'printer.log',
      mimeType: 'text/plain',
      buffer: Buffer.from('E42 paper jam\n'),
    });
    await expect
      .poll(() =>
        page.getByRole('progressbar', { name: 'Upload of printer.log' }).getAttribute('aria-valuenow'),
      )
      .toBe('100');
    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && /\/api\/demo\/11\/comments$/i.test(r.url()),
    );
    await page.getByRole('button', { name: 'Send' }).click();
    const body = (await sent).postDataJSON() as {
      taskId: number;
      commentType: number;
      attachments: number[];
      message: string;
    };
    expect(body.commentType).toBe(0);
    expect(body.attachments).toHaveLength(1);
    expect(body.message).toContain('Here is the log of the printer.');

    const comment = page.getByTestId('ticket-comment').filter({ hasText: 'Here is the log of the printer.' });
    await comment.waitFor();
    expect(await comment.getByTestId('message-author').innerText()).toBe('You');
    // The file's name as it was given, not in capitals.
    expect(await comment.getByRole('link', { name: 'printer.log' }).count()).toBe(1);
    await expect.poll(() => reply.textContent()).toBe('');
    expect(await page.getByRole('progressbar', { name: 'Upload of printer.log' }).count()).toBe(0);
    // The reply box's list of uploads is empty: the name shows once, as the sent comment's link.
    expect(await page.getByText('printer.log', { exact: true }).count()).toBe(1);
  });

  it('never runs script from ticket HTML, whether the server or the browser removes it', async () => {
    const ticket = await apiPost<{ id: number }>(demoToken, '/api/demo/11/tickets', {
      title: 'Hostile HTML',
      taskTypeId: 2,
      description: HOSTILE,
    });
    await apiPost(demoToken, '/api/demo/11/Comments', {
      taskId: ticket.id,
      message: HOSTILE,
      commentType: 0,
    });

    const scriptsBefore = await page.evaluate(() => document.scripts.length);
    await page.goto(`${MINE}/tickets/${ticket.id}`);
    await page.getByTestId('ticket-comment').waitFor();
    const check = async () => {
      const conversation = page.getByTestId('conversation');
      expect(await conversation.getByText('Hostile text').count()).toBe(2);
      expect(await conversation.locator('script, iframe, [onerror], a[href^="javascript"]').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
      expect(await page.evaluate(() => document.scripts.length)).toBe(scriptsBefore);
    };
    await check();

    // A server that failed to clean: the browser's own DOMPurify pass must still stop it.
    await page.route(`**/api/demo/11/tickets/${ticket.id}`, async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as { description: string; comments: { message: string }[] };
      json.description = HOSTILE;
      for (const c of json.comments) c.message = HOSTILE;
      await route.fulfill({ response, json });
    });
    await page.reload();
    await page.getByTestId('ticket-comment').waitFor();
    await check();
    await page.unroute(`**/api/demo/11/tickets/${ticket.id}`);
  });

  it('closes a ticket after a confirmation, and then shows the closing step', async () => {
    await page.goto(createdUrl);
    await page.getByRole('button', { name: 'Close the ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close the ticket?' });
    await dialog.waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Close the ticket' }).click();
    await expect.poll(() => page.getByTestId('side-step').innerText()).toContain('Chiuso');
    expect(await page.getByRole('button', { name: 'Close the ticket' }).count()).toBe(0);
    // A reply would reopen it: the page says so before anything is sent.
    await page.getByText('This ticket is closed: sending a reply reopens it.').waitFor();

    await page.goto(`${MINE}/tickets`);
    await page.getByTestId('ticket-row').first().waitFor();
    expect(await titlesOfRows(page)).not.toContain(subject);
  });

  it('fits a 375 px phone: the folded details, then the conversation, nothing wider than the screen', async () => {
    const phone = await contextWith(browser, { contactToken: demoToken, width: 375 });
    const p = await phone.newPage();
    await p.goto(createdUrl);
    await p.getByRole('textbox', { name: /^Reply/ }).waitFor();
    const [conversation, fold] = await Promise.all([
      p.getByTestId('conversation').boundingBox(),
      p.getByTestId('details-fold').boundingBox(),
    ]);
    // The ticket's status first, as one folded line: a phone shows it, then the conversation at once.
    expect(fold!.y).toBeLessThan(conversation!.y);
    expect(conversation!.y).toBeLessThan(740);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(p);
    await screenshot(p, 'ticket-detail-375');

    await p.goto(`${MINE}/tickets/new`);
    await p.getByRole('textbox', { name: /^Description/ }).waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(p, 'new-ticket-375');

    await p.goto(`${MINE}/tickets`);
    await p.getByTestId('ticket-row').first().waitFor();
    // The rows can be drawn under the portal's 200 ms settling spinner: the picture is taken after it.
    await p.getByTestId('full-screen-spinner').waitFor({ state: 'detached' });
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(p, 'tickets-list-375');
    await phone.close();
  });
});
