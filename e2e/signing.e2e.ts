import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, dataDir, launch, screenshot } from './browser';

// The demo's OTP request (apps/api/src/modules/admin/demo-data.ts: DEMO_KEYS.signatureWithOtp), for
// contact 11 (Marco Rossi, user `demo`, phone +393331234567).
const OTP_KEY = 'demo-firma-contratto-4f9a2c7e1b8d3a60';
const SIGN_URL = `${baseUrl}/demo/documents/${OTP_KEY}`;
const PASSWORD = 'Sportello-Demo-2026';

/** No serious or critical axe violation on the page as it is now. */
async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}

/**
 * The code of the newest SMS written for `documentName`: without SMS_WEBHOOK_URL the outbox worker
 * writes each SMS as `DATA_DIR/outbox/<id>-<time>.sms.json`. Polls until one newer than `afterId` lands.
 */
async function readCodeFromOutbox(
  documentName: string,
  afterId: number,
): Promise<{ id: number; code: string }> {
  const dir = join(dataDir, 'outbox');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.sms.json'));
    } catch {
      // The worker creates the directory with the first message.
    }
    const found = names
      .map((n) => ({ id: Number(n.split('-')[0]), name: n }))
      .filter((f) => f.id > afterId)
      .sort((a, b) => b.id - a.id)
      .map((f) => ({
        ...f,
        sms: JSON.parse(readFileSync(join(dir, f.name), 'utf8')) as { to: string; text: string },
      }))
      .find((f) => f.sms.text.includes(`"${documentName}"`));
    if (found) {
      expect(found.sms.to).toBe('+393331234567');
      return { id: found.id, code: /(\d{6})/.exec(found.sms.text)![1]! };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no SMS for "${documentName}" in ${dir}`);
}

/** Runs in every frame, PDF viewer and sandboxed file frames included, where storage is off limits. */
function englishFirst() {
  try {
    if (!localStorage.getItem('language')) localStorage.setItem('language', 'en-EN');
  } catch {
    // Not the app's frame.
  }
}

async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Digit 1 of 6').click();
  await page.keyboard.type(code, { delay: 20 });
}

describe('signing a document with a code sent by SMS', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(englishFirst);
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterAll(() => browser?.close());

  let documentName = '';

  it('shows the document, its name and the signer, and asks for every field', async () => {
    await page.goto(SIGN_URL);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    documentName = (await heading.textContent()) ?? '';
    expect(documentName).toMatch(/^Contratto di manutenzione \d{4}$/);
    await expect.poll(() => page.getByTestId('signer-name').textContent()).toBe('Marco Rossi');
    expect(await page.locator(`iframe[title="${documentName}"]`).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'signing-1-review');

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Please fill in all fields').waitFor();
    await page.getByLabel('I have read the document and I accept it').check();
    await page.getByLabel('Full name').fill('Marco Rossi');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/confirm$/);
  });

  let lastSmsId = 0;

  it('sends a code to the masked phone, counts down the resend, refuses a wrong code', async () => {
    await page.getByText('We will send a 6-digit code by SMS to +39 ••• ••• •567.').waitFor();
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('Code sent by SMS to +39 ••• ••• •567. It is valid for 10 minutes.').waitFor();
    const countdown = page.getByTestId('resend-countdown');
    await countdown.waitFor();
    expect(await countdown.textContent()).toMatch(/^You can request a new code in (5\d|60) s$/);
    expect(await page.getByRole('button', { name: /^Resend code/ }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'signing-2-code-sent');

    const sms = await readCodeFromOutbox(documentName, lastSmsId);
    lastSmsId = sms.id;
    const wrong = String((Number(sms.code) + 1) % 1_000_000).padStart(6, '0');
    await typeCode(page, wrong);
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Invalid OTP code. 4 attempts left.').waitFor();
    await screenshot(page, 'signing-3-wrong-code');

    await typeCode(page, sms.code.slice(0, 3));
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Invalid code', { exact: true }).waitFor();

    // Still the same code: a wrong try does not spend it.
    await page.getByLabel('Digit 1 of 6').click();
    for (let i = 0; i < 6; i++) await page.keyboard.press('Backspace');
    await typeCode(page, sms.code);
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Document signed successfully').waitFor();
    expect(await page.getByTestId('signed-on').textContent()).toMatch(
      /^Signed on \d{2}\/\d{2}\/\d{4} at \d{2}:\d{2}$/,
    );
    const download = page.getByRole('link', { name: 'Download the signed PDF' });
    const href = (await download.getAttribute('href')) ?? '';
    const pdf = await page.request.get(`${baseUrl}${href}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await expectAccessible(page);
    await screenshot(page, 'signing-4-signed');
  });

  it('shows a signed document with its date on a later visit', async () => {
    await page.goto(SIGN_URL);
    await page.getByText('This document has been signed').waitFor();
    await page.getByTestId('signed-on').waitFor();
    expect(await page.getByRole('link', { name: 'Download the signed PDF' }).count()).toBe(1);
  });

  it("lists the signed PDF among the contact's documents", async () => {
    const login = await page.request.post(`${baseUrl}/api/auth/login`, {
      data: { userName: 'demo', password: PASSWORD },
    });
    expect(login.status()).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const list = await page.request.get(`${baseUrl}/api/demo/11/documents`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.status()).toBe(200);
    const names = ((await list.json()) as { documentName: string }[]).map((d) => d.documentName);
    expect(names).toContain(`${documentName} (firmato)`);

    await page.evaluate((t) => localStorage.setItem('token', t), token);
    await page.goto(`${baseUrl}/demo/11/documents`);
    await page.getByText(`${documentName} (firmato)`).first().waitFor();
    await screenshot(page, 'signing-5-contact-documents');
  });

  it('shows a clear page for an unknown key, revealing nothing', async () => {
    await page.goto(`${baseUrl}/demo/documents/demo-no-such-key-0000`);
    await page.getByRole('heading', { level: 1, name: 'Document not available' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'signing-6-not-found');
    expect(errors).toEqual([]);
  });

  it('fits a 360 px wide screen and signs by acceptance with the keyboard alone', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 } });
    await phone.addInitScript(englishFirst);
    const p = await phone.newPage();
    await p.goto(`${baseUrl}/demo/documents/demo-firma-privacy-9b3e5d1f7a2c4e80`);
    await p.getByRole('heading', { level: 1 }).waitFor();
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(p);
    await screenshot(p, 'signing-7-mobile');

    const checkbox = p.getByLabel('I have read the document and I accept it');
    for (let i = 0; i < 10 && !(await checkbox.evaluate((el) => el === document.activeElement)); i++)
      await p.keyboard.press('Tab');
    expect(await checkbox.evaluate((el) => el === document.activeElement)).toBe(true);
    await p.keyboard.press('Space');
    await p.keyboard.press('Tab');
    await p.keyboard.type('Luca Verdi');
    await p.keyboard.press('Enter');
    await p.getByText('Document signed successfully').waitFor();
    expect(
      await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await screenshot(p, 'signing-8-mobile-signed');
    await phone.close();
  });
});
