import { chromium, type Browser, type Page } from 'playwright-core';
import { join } from 'node:path';

export const baseUrl = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3000';
export const dataDir = process.env.E2E_DATA_DIR ?? '';
const shots = process.env.E2E_SCREENSHOTS ?? join(process.cwd(), '.e2e/screenshots');

/** Debian's Chromium, headless, with the flags that keep it off the (closed) network; Playwright gives it a fresh profile. */
export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}
