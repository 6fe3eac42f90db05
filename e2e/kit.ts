// Helpers of the search and notification journeys: sign-in by API, a signed-in context, axe.
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl } from './browser';

export const PASSWORD = 'Sportello-Demo-2026';
export const LANGS = [
  ['it', 'it-IT'],
  ['en', 'en-EN'],
  ['es', 'es-ES'],
] as const;

export async function post<T>(
  path: string,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, text).toBeLessThan(300);
  return (text ? JSON.parse(text) : null) as T;
}

export async function login(userName: string): Promise<string> {
  return (await post<{ token: string }>('/api/auth/login', '', { userName, password: PASSWORD })).token;
}

/** A signed-in context: the system's colour scheme and width as given, the portal's language chosen. */
export async function signedIn(
  browser: Browser,
  token: string,
  opts: { width?: number; language?: string; colorScheme?: 'light' | 'dark' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1366, height: 800 },
    timezoneId: 'Europe/Rome',
    colorScheme: opts.colorScheme ?? 'light',
    // No fade-in transitions: axe would measure the contrast of a half-transparent dialog.
    reducedMotion: 'reduce',
  });
  await context.addInitScript(
    ([t, lang]) => {
      localStorage.setItem('token', t);
      localStorage.setItem('language', lang);
    },
    [token, opts.language ?? 'it-IT'] as const,
  );
  return context;
}

/** The shell has settled (the portal spinner gone) and the page's heading is there. */
export async function settled(page: Page): Promise<void> {
  await page.getByTestId('app-header').waitFor();
  await page.getByTestId('full-screen-spinner').waitFor({ state: 'detached' });
  await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
}

/** No serious or critical axe violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  // Axe measures colours: only once every stylesheet the page asked for (lazy chunks bring their own)
  // and its fonts are in, and the frame after, never a page half-styled on a loaded machine.
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')).every(
      (l) => l.sheet !== null,
    ),
  );
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}
