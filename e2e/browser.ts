import { chromium, type Browser, type Page } from 'playwright-core';
import { join } from 'node:path';

export const baseUrl = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3000';
export const dataDir = process.env.E2E_DATA_DIR ?? '';
const shots = process.env.E2E_SCREENSHOTS ?? join(process.cwd(), '.e2e/screenshots');

/**
 * Debian's Chromium, headless, with the flags that keep it off the (closed) network; Playwright gives it
 * a fresh profile. Its contexts are Italian browsers unless a journey names another `locale`: the
 * screens follow the browser's language until the user picks one, and the journeys are written in the
 * portal's default language.
 */
export async function launch(): Promise<Browser> {
  const browser = await chromium.launch({
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
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = (options) => newContext({ locale: 'it-IT', ...options });
  browser.newPage = (options) => newPage({ locale: 'it-IT', ...options });
  return browser;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/**
 * Every screen pass of a journey in all three languages at both widths is for people looking at the
 * screenshots: `npm run test:e2e:all-languages` (E2E_ALL_LANGUAGES=1). The default run (`npm test`, CI)
 * keeps one language per width — English at the first width, Spanish at the second, Italian being what
 * the journeys themselves use — so each screen is still rendered, checked and captured at every width
 * with every language exercised, at a third of the time. The texts' completeness in every language is
 * the i18n parity tests' job.
 */
export const ALL_LANGUAGES = process.env.E2E_ALL_LANGUAGES === '1';

/** The languages to walk at the `index`-th width of a pass (see ALL_LANGUAGES). */
export function languagesAt<L>(all: readonly L[], index: number): readonly L[] {
  return ALL_LANGUAGES ? all : [all[(index + 1) % all.length]!];
}
