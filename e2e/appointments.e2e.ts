import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import ICAL from 'ical.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, dataDir, launch, screenshot as fullScreenshot } from './browser';

// The demo's booking and task links (apps/api/src/modules/admin/demo-data.ts: DEMO_KEYS), portal `demo`,
// agent Davide Galli, Mon–Fri hours in Europe/Rome, 30-minute steps, 60 minutes by default.
const BOOKING_URL = `${baseUrl}/appointments/demo/demo-sopralluogo-8c1e4b2a6d3f`;
const API_LINK = `${baseUrl}/api/appointments/demo/demo-sopralluogo-8c1e4b2a6d3f`;
const TASK_URL = `${baseUrl}/tasks/demo/demo-intervento-3d7f9e1a5c2b`;
const BOOKER = 'e2e.booker@example.com';

/** No serious or critical axe violation on the page as it is now. */
async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}

/** From the top: a fixed element (the skip link) would otherwise land mid-page in a full-page shot. */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await fullScreenshot(page, name);
}

function englishFirst() {
  try {
    if (!localStorage.getItem('language')) localStorage.setItem('language', 'en-EN');
  } catch {
    // Not the app's frame.
  }
}

interface MimePart {
  type: string;
  body: string;
}

/** The leaf parts of an RFC 822 message as nodemailer writes it (multipart, base64 or quoted-printable). */
function mimeParts(eml: string): MimePart[] {
  const text = eml.replace(/\r\n/g, '\n');
  const boundaries = [...text.matchAll(/boundary="?([^";\n]+)"?/g)].map((m) => m[1]!);
  let chunks = [text];
  for (const b of boundaries) chunks = chunks.flatMap((c) => c.split(`--${b}`));
  const parts: MimePart[] = [];
  for (const chunk of chunks) {
    const split = chunk.indexOf('\n\n');
    if (split < 0) continue;
    const head = chunk.slice(0, split).replace(/\n[ \t]+/g, ' ');
    const type = /^Content-Type:\s*([^;\n]+)/im.exec(head)?.[1]?.trim().toLowerCase();
    if (!type || type.startsWith('multipart/')) continue;
    const encoding = /^Content-Transfer-Encoding:\s*(\S+)/im.exec(head)?.[1]?.toLowerCase() ?? '7bit';
    const raw = chunk.slice(split + 2).replace(/\n$/, '');
    let body: string;
    if (encoding === 'base64') body = Buffer.from(raw.replace(/\s+/g, ''), 'base64').toString('utf8');
    else if (encoding === 'quoted-printable') {
      const bytes = raw
        .replace(/=\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
      body = Buffer.from(bytes, 'latin1').toString('utf8');
    } else body = raw;
    parts.push({ type, body });
  }
  return parts;
}

/**
 * Polls DATA_DIR/outbox (the outbox worker writes `<id>-<time>.eml` per e-mail when no SMTP_URL is set)
 * for a message to `to` whose calendar part has the given METHOD.
 */
async function waitForMail(to: string, method: string): Promise<{ text: string; ics: string; raw: string }> {
  const dir = join(dataDir, 'outbox');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.eml'));
    } catch {
      // The worker creates the directory with its first message.
    }
    for (const name of names.sort((a, b) => Number(b.split('-')[0]) - Number(a.split('-')[0]))) {
      const raw = readFileSync(join(dir, name), 'utf8');
      if (!new RegExp(`^To: ${to.replace(/\./g, '\\.')}$`, 'm').test(raw)) continue;
      const parts = mimeParts(raw);
      const ics = parts.find((p) => p.type === 'text/calendar')?.body ?? '';
      if (!ics.includes(`\r\nMETHOD:${method}\r\n`)) continue;
      return { raw, ics, text: parts.find((p) => p.type === 'text/plain')?.body ?? '' };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no ${method} e-mail to ${to} in ${dir}`);
}

function readIcs(ics: string) {
  const comp = new ICAL.Component(ICAL.parse(ics));
  for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const vevent = comp.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return { comp, vevent, event: new ICAL.Event(vevent) };
}

const slotGroup = (page: Page) => page.getByRole('group', { name: /Times in Europe\/Rome/ });
const enabledDays = (page: Page) =>
  page.locator('table button[aria-label]:not([disabled]):not([data-disabled]):not([data-outside])');

/** Picks the first day (this month, else the next) offering at least `min` slots; answers its label. */
async function chooseDayWithSlots(page: Page, min: number): Promise<string> {
  for (let month = 0; month < 2; month++) {
    await page.getByText('Loading free times…').waitFor({ state: 'hidden' });
    const days = enabledDays(page);
    const count = await days.count();
    for (let i = 0; i < count; i++) {
      const day = days.nth(i);
      const label = (await day.getAttribute('aria-label')) ?? '';
      await day.click();
      await slotGroup(page).waitFor();
      if ((await slotGroup(page).getByRole('button').count()) >= min) return label;
    }
    await page.getByRole('button', { name: 'Next month' }).click();
  }
  throw new Error('no day with free slots in two months');
}

async function fillDetails(page: Page, email: string): Promise<void> {
  await page.getByLabel('First name').fill('Elena');
  await page.getByLabel('Last name').fill('Test; "E2E", Rossi');
  await page.getByLabel('Phone number').fill('+39 333 0000000');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Company name').fill('Prova Srl');
  await page.getByLabel('Notes').fill('Citofono 3\nsecondo piano');
}

describe('booking and cancelling an appointment, and the task page', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  let booked: { start: string; end: string; cancellationUrl: string };
  let bookedDay = '';
  let bookedLabel = '';

  beforeAll(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(englishFirst);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // A refused booking (409) is an expected answer the page handles.
      if (m.type() === 'error' && !/status of 409/.test(m.text())) errors.push(m.text());
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('books a slot through the page, with a 409 in between, and shows Appointment Confirmed', async () => {
    await page.goto(BOOKING_URL);
    await page.getByRole('heading', { level: 1, name: 'Sopralluogo tecnico' }).waitFor();
    await page.getByRole('heading', { name: 'Times in Europe/Rome' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please fill in the required fields' }).waitFor();

    bookedDay = await chooseDayWithSlots(page, 3);
    const slots = slotGroup(page).getByRole('button');
    const first = slots.nth(0);
    const firstLabel = (await first.textContent()) ?? '';
    // Keyboard: the slot buttons take focus and Space presses them.
    await first.focus();
    await page.keyboard.press('Space');
    expect(await first.getAttribute('aria-pressed')).toBe('true');
    await fillDetails(page, BOOKER);
    await screenshot(page, 'appointments-booking');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Check and confirm' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'appointments-confirm-step');

    // Someone else takes that slot meanwhile: the page says so and offers the refreshed slots.
    const pending = await page.evaluate(() => document.body.innerText);
    const whenMatch = /(\d{2}\/\d{2}\/\d{4}), (\d{2}:\d{2})–/.exec(pending);
    expect(whenMatch?.[2]).toBe(firstLabel.slice(0, 5));
    const taken = await takeSlotBehindThePagesBack(whenMatch![1]!, whenMatch![2]!);
    expect(taken).toBe(201);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alert').filter({ hasText: 'This time has just been taken' }).waitFor();
    await expect
      .poll(async () => slotGroup(page).getByRole('button', { name: firstLabel, exact: true }).count())
      .toBe(0);
    await screenshot(page, 'appointments-slot-taken');

    const second = slotGroup(page).getByRole('button').nth(0);
    bookedLabel = (await second.textContent()) ?? '';
    await second.click();
    await page.getByRole('button', { name: 'Continue' }).click();
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url() === API_LINK);
    await page.getByRole('button', { name: 'Confirm' }).click();
    const res = await answer;
    expect(res.status()).toBe(201);
    booked = (await res.json()) as typeof booked;
    await page.getByRole('heading', { name: 'Appointment Confirmed' }).waitFor();
    await page
      .getByText(`We have sent the confirmation, with a calendar invitation, to ${BOOKER}.`)
      .waitFor();
    await expectAccessible(page);
    await screenshot(page, 'appointments-confirmed');
  });

  it('e-mails the confirmation with an .ics that parses back to the booked instant and the cancellation link', async () => {
    const mail = await waitForMail(BOOKER, 'REQUEST');
    expect(mail.raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/);
    expect(mail.text).toContain(booked.cancellationUrl);
    // RFC 5545 form: CRLF lines of at most 75 octets, TZID local times backed by a VTIMEZONE.
    expect(mail.ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of mail.ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(mail.ics).toContain('\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Rome\r\n');
    expect(mail.ics).toMatch(/\r\nDTSTART;TZID=Europe\/Rome:\d{8}T\d{6}\r\n/);
    const { event, vevent } = readIcs(mail.ics);
    expect(event.startDate.toJSDate().toISOString()).toBe(booked.start);
    expect(event.endDate.toJSDate().toISOString()).toBe(booked.end);
    expect(event.startDate.toString().slice(11, 16)).toBe(bookedLabel.slice(0, 5));
    expect(event.description).toContain(booked.cancellationUrl);
    expect(vevent.getFirstPropertyValue('organizer')).toBe('mailto:davide.galli@sportello.example');
    expect(vevent.getFirstPropertyValue('attendee')).toBe(`mailto:${BOOKER}`);
  });

  it('cancels through the link of the e-mail, and the slot is free again', async () => {
    const mail = await waitForMail(BOOKER, 'REQUEST');
    const link = /https?:\/\/\S+\/appointments\/demo\/cancellation\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    await page.goto(`${baseUrl}${new URL(link!).pathname}`);
    await page.getByRole('heading', { level: 1, name: 'Sopralluogo tecnico' }).waitFor();
    await page.getByText('Booked', { exact: true }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Cancel appointment' }).click();
    await page.getByText('Do you really want to cancel this appointment?').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByText('Appointment cancelled', { exact: true }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'appointments-cancelled');

    const cancel = await waitForMail(BOOKER, 'CANCEL');
    const { event, vevent } = readIcs(cancel.ics);
    expect(event.uid).toBe(readIcs(mail.ics).event.uid);
    expect(vevent.getFirstPropertyValue('status')).toBe('CANCELLED');

    await page.reload();
    await page.getByText(/This appointment was cancelled on \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\./).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel appointment' }).count()).toBe(0);

    await page.goto(BOOKING_URL);
    await page.getByRole('heading', { level: 1, name: 'Sopralluogo tecnico' }).waitFor();
    // The title is drawn by the server before the app (public-frame.e2e.ts): the calendar is the app's.
    await page.getByRole('heading', { name: 'Times in Europe/Rome' }).waitFor();
    await page.getByText('Loading free times…').waitFor({ state: 'hidden' });
    const day = page.getByRole('button', { name: bookedDay, exact: true });
    if ((await day.count()) === 0) await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: bookedDay, exact: true }).click();
    await slotGroup(page).getByRole('button', { name: bookedLabel, exact: true }).waitFor();
  });

  it('is usable at 360 px wide', async () => {
    const narrow = await context.newPage();
    await narrow.setViewportSize({ width: 360, height: 800 });
    await narrow.goto(BOOKING_URL);
    await narrow.getByRole('heading', { level: 1, name: 'Sopralluogo tecnico' }).waitFor();
    await narrow.getByRole('heading', { name: 'Times in Europe/Rome' }).waitFor();
    await narrow.getByText('Loading free times…').waitFor({ state: 'hidden' });
    await enabledDays(narrow).first().click();
    await slotGroup(narrow).waitFor();
    const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(narrow);
    await screenshot(narrow, 'appointments-booking-360');
    await narrow.close();
  });

  it('shows the task page by its key, and a not-found page for an unknown key', async () => {
    await page.goto(TASK_URL);
    const h1 = page.getByRole('heading', { level: 1 });
    await h1.waitFor();
    expect((await h1.textContent())?.length).toBeGreaterThan(0);
    await page.getByRole('heading', { name: 'Updates' }).waitFor();
    expect(await page.getByRole('textbox').count()).toBe(0);
    const body = await page.evaluate(() => document.body.innerText);
    expect(body).not.toMatch(/@sportello\.example/);
    await expectAccessible(page);
    await screenshot(page, 'tasks-page');

    await page.goto(`${baseUrl}/tasks/demo/not-a-real-key`);
    await page.getByRole('heading', { level: 1, name: 'Ticket not found' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'tasks-not-found');
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
  });
});

/**
 * Books, straight through the API, the slot the page is about to confirm (`DD/MM/YYYY`, `HH:mm` in
 * Europe/Rome): the page's own POST must then meet a 409.
 */
async function takeSlotBehindThePagesBack(day: string, time: string): Promise<number> {
  const [dd, mm, yyyy] = day.split('/');
  const date = `${yyyy}-${mm}-${dd}`;
  const slots = (await (await fetch(`${API_LINK}/slots?from=${date}&to=${date}&duration=60`)).json()) as {
    days: { date: string; slots: { start: string }[] }[];
  };
  const fmt = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Rome',
    hour: '2-digit',
    minute: '2-digit',
  });
  const slot = slots.days[0]?.slots.find((s) => fmt.format(new Date(s.start)) === time);
  if (!slot) throw new Error(`no slot ${date} ${time}`);
  const res = await fetch(API_LINK, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      start: slot.start,
      durationMinutes: 60,
      firstName: 'Someone',
      lastName: 'Else',
      phone: '+39 02 000000',
      email: 'someone.else@example.com',
    }),
  });
  return res.status;
}
