import { readFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import { contextWith, DEMO_ADMIN, expectAccessible, login, smsTexts, staffLogin } from './kit';

// Demo data: user `demo` holds contact 11 (Marco Rossi, phone +393331234567) of company 1 (Rossi
// Impianti Srl).
const ADMIN_URL = `${baseUrl}/demo/staff/admin`;
const LANGUAGES = [
  ['it-IT', 'it'],
  ['en-EN', 'en'],
  ['es-ES', 'es'],
] as const;

async function pdf(title: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText(title, { x: 50, y: 780, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

/** The code of the SMS for `documentName` (the outbox worker writes each SMS as a file). */
async function readCode(documentName: string): Promise<string> {
  const texts = smsTexts;
  // The code's SMS, not the one with the link.
  const codeIn = (text: string) => (text.includes(documentName) ? /(\d{6})\./.exec(text)?.[1] : undefined);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const code = texts().map(codeIn).find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no code SMS for ${documentName}: ${JSON.stringify(texts())}`);
}

describe('content in the staff desk', () => {
  let browser: Browser;
  let staffToken: string;
  let contactToken: string;
  let documentKey = '';
  const stamp = Date.now().toString(36).toUpperCase();
  const invoiceNumber = `FT-E2E-${stamp}`;
  const documentName = `Accordo E2E ${stamp}`;
  const publicName = `Listino E2E ${stamp}`;

  beforeAll(async () => {
    browser = await launch();
    staffToken = await staffLogin(DEMO_ADMIN);
    contactToken = await login('demo');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the admin uploads several files and files an invoice the contact then sees', async () => {
    const context = await contextWith(browser, { staffToken });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${ADMIN_URL}/documents?company=1`);
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
    await page.getByLabel('Drop files here or click to choose (several at once)').setInputFiles([
      { name: 'fattura-e2e.pdf', mimeType: 'application/pdf', buffer: await pdf('Fattura') },
      { name: 'preventivo-e2e.pdf', mimeType: 'application/pdf', buffer: await pdf('Preventivo') },
    ]);
    const invoice = page.getByRole('region', { name: 'fattura-e2e.pdf' });
    const estimate = page.getByRole('region', { name: 'preventivo-e2e.pdf' });
    await invoice.waitFor();
    await estimate.waitFor();
    await invoice.getByLabel('Invoice number').fill(invoiceNumber);
    await invoice.getByLabel('Total (€)').fill('1234.5');
    await invoice.getByRole('button', { name: 'Save this file' }).click();
    await invoice.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: invoiceNumber, exact: true }).waitFor();

    // An error in words, at the field: a contact's document without its contact.
    await estimate.getByLabel('Kind').selectOption('document');
    await estimate.getByRole('button', { name: 'Save this file' }).click();
    await estimate.getByText('A document belongs to a contact: choose one.').waitFor();
    expect(await estimate.getByLabel('Contact', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await estimate.getByLabel('Contact', { exact: true }).selectOption('11');
    await estimate.getByRole('button', { name: 'Save this file' }).click();
    await estimate.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'preventivo-e2e', exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();

    const customer = await contextWith(browser, { contactToken });
    const p = await customer.newPage();
    await p.goto(`${baseUrl}/demo/11/invoices`);
    await p.getByText(invoiceNumber).first().waitFor();
    await customer.close();
  });

  it('the admin publishes public files (several at once), renames one; the contact sees it in Public files', async () => {
    const context = await contextWith(browser, { staffToken });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${ADMIN_URL}/documents`);
    await page.getByRole('heading', { name: 'Public files of the portal', level: 2 }).waitFor();
    await page.getByLabel('Drop public files here or click to choose (several at once)').setInputFiles([
      { name: 'listino-e2e.pdf', mimeType: 'application/pdf', buffer: await pdf('Listino') },
      { name: 'orari-e2e.pdf', mimeType: 'application/pdf', buffer: await pdf('Orari') },
    ]);
    const listino = page.getByRole('region', { name: 'listino-e2e.pdf' });
    const orari = page.getByRole('region', { name: 'orari-e2e.pdf' });
    await listino.getByLabel('Name shown to customers').fill(`${publicName} bozza`);
    await listino.getByRole('button', { name: 'Publish' }).click();
    await listino.waitFor({ state: 'detached' });
    await orari.getByRole('button', { name: 'Publish' }).click();
    await orari.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'orari-e2e', exact: true }).waitFor();
    // Renamed in place.
    await page.getByRole('button', { name: `Rename ${publicName} bozza` }).click();
    const dialog = page.getByRole('dialog', { name: `Rename ${publicName} bozza` });
    await dialog.getByLabel('Name shown to customers').fill(publicName);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: publicName, exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();

    const customer = await contextWith(browser, { contactToken });
    const p = await customer.newPage();
    await p.goto(`${baseUrl}/demo/11/publicfiles`);
    await p.getByText(publicName, { exact: true }).first().waitFor();
    await customer.close();
  });

  it('the admin sends a signature request; the contact signs with the SMS code; the admin downloads it', async () => {
    const context = await contextWith(browser, { staffToken });
    const page = await context.newPage();
    await page.goto(`${ADMIN_URL}/signatures`);
    await page.getByRole('button', { name: 'New request' }).click();
    const form = page.getByRole('region', { name: 'New request' });
    await form.getByLabel('Company').fill('Rossi');
    await page.getByRole('option', { name: 'Rossi Impianti Srl (1)' }).click();
    await expect
      .poll(() => form.getByLabel('Contact', { exact: true }).locator('option').count())
      .toBeGreaterThan(1);
    await form.getByLabel('Contact', { exact: true }).selectOption('11');
    await form
      .getByLabel('Drop the PDF to sign here or click to choose')
      .setInputFiles({ name: 'accordo.pdf', mimeType: 'application/pdf', buffer: await pdf(documentName) });
    // Uploaded: its progress bar full.
    await expect
      .poll(() => form.getByRole('progressbar').getAttribute('aria-valuenow'), { timeout: 20_000 })
      .toBe('100');
    await form.getByLabel('Document name').fill(documentName);
    await form.getByLabel('Code sent by SMS').check();
    await expect.poll(() => form.getByRole('button', { name: 'Send the request' }).isEnabled()).toBe(true);
    await form.getByRole('button', { name: 'Send the request' }).click();
    await page.waitForURL(/request=/);
    documentKey = new URL(page.url()).searchParams.get('request')!;
    const dialog = page.getByRole('dialog', { name: documentName });
    await dialog.getByText('Sent', { exact: true }).waitFor();
    await dialog.getByText('Link sent by SMS').waitFor();

    // The contact opens the link and signs with the code.
    const signer = await contextWith(browser, {});
    const s = await signer.newPage();
    await s.goto(`${baseUrl}/demo/documents/${documentKey}`);
    await s.getByRole('heading', { level: 1, name: documentName }).waitFor();
    await s.getByLabel('I have read the document and I accept it').check();
    await s.getByLabel('Full name').fill('Marco Rossi');
    await s.getByRole('button', { name: 'Continue' }).click();
    await s.waitForURL(/\/confirm$/);
    await s.getByRole('button', { name: 'Send code' }).click();
    const code = await readCode(documentName);
    await s.getByLabel('Digit 1 of 6').click();
    await s.keyboard.type(code, { delay: 20 });
    await s.getByRole('button', { name: 'Sign', exact: true }).click();
    await s.getByText('Document signed successfully').waitFor();
    await signer.close();

    // The admin sees it signed, with its timeline, and downloads the signed PDF.
    await page.reload();
    const signed = page.getByRole('dialog', { name: documentName });
    await signed.getByText('Signed', { exact: true }).first().waitFor();
    await signed.getByText('Opened by the contact').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      signed.getByRole('button', { name: 'Download the signed PDF' }).click(),
    ]);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await context.close();
  });

  // Each width in its languages (browser.ts languagesAt: one per width by default, all three with
  // npm run test:e2e:all-languages), axe on every screen.
  it('screens at 1366 and 360 px in their languages, accessible', async () => {
    for (const [index, width] of [1366, 360].entries())
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const context = await contextWith(browser, { staffToken, language, width });
        const page = await context.newPage();
        await page.goto(`${ADMIN_URL}/documents?company=1`);
        await page.getByRole('cell', { name: invoiceNumber, exact: true }).waitFor();
        await page.getByRole('cell', { name: publicName, exact: true }).waitFor();
        await expectAccessible(page);
        // Wide tables scroll in their own region: the page itself never scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `admin-content-documents-${short}-${width}`);
        await page.goto(`${ADMIN_URL}/signatures`);
        await page.getByRole('button', { name: documentName }).waitFor();
        await expectAccessible(page);
        await screenshot(page, `admin-content-signatures-${short}-${width}`);
        await page.goto(`${ADMIN_URL}/signatures?request=${documentKey}`);
        await page.getByRole('dialog', { name: documentName }).getByTestId('signature-status').waitFor();
        await expectAccessible(page);
        await screenshot(page, `admin-content-signature-${short}-${width}`);
        await context.close();
      }
  }, 180_000);
});
