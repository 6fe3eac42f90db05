/**
 * The journeys' one kit: sign-in of customers and staff by the API, browser contexts that start signed
 * in, the API calls a journey seeds with, the outbox's e-mails and text messages, and axe.
 * Demo data (apps/api/src/modules/admin/demo-data.ts, demo-staff.ts): every demo user has PASSWORD;
 * `demo` holds contact 11 of Rossi Impianti, its administrator; the desk's admin is DEMO_ADMIN and its
 * agent DEMO_AGENT.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl, dataDir } from './browser';

export const PASSWORD = 'Sportello-Demo-2026';
export const DEMO_ADMIN = 'marco.ferri@sportello.example';
export const DEMO_AGENT = 'sara.conti@sportello.example';
export const LANGS = [
  ['it', 'it-IT'],
  ['en', 'en-EN'],
  ['es', 'es-ES'],
] as const;

// ---------------------------------------------------------------- the API

/**
 * One call of the API as `token` (none: ''), JSON both ways; fails the journey unless it answers
 * `status` (any 2xx when not given). 204 answers undefined.
 */
export async function api<T>(
  method: string,
  path: string,
  token: string,
  body?: unknown,
  opts: { status?: number; headers?: Record<string, string> } = {},
): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...opts.headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (opts.status === undefined) expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  else expect(res.status, `${method} ${path}: ${text}`).toBe(opts.status);
  return (text ? JSON.parse(text) : undefined) as T;
}

export const get = <T>(path: string, token: string) => api<T>('GET', path, token);

/** GET without a body, POST with one, unless `method` says otherwise. */
export const json = <T>(path: string, token: string, body?: unknown, method?: string) =>
  api<T>(method ?? (body === undefined ? 'GET' : 'POST'), path, token, body);

export const post = <T>(path: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  api<T>('POST', path, token, body, { headers });

/** A customer's session token (the portal's sign-in by user name). */
export async function login(userName: string, password = PASSWORD): Promise<string> {
  return (await post<{ token: string }>('/api/auth/login', '', { userName, password })).token;
}

/** A staff user's session token (the desk's sign-in by e-mail). */
export async function staffLogin(email: string, password = PASSWORD): Promise<string> {
  return (await post<{ token: string }>('/api/staff/auth/login', '', { email, password })).token;
}

// ---------------------------------------------------------------- the browser

export interface ContextOptions {
  width?: number;
  height?: number;
  /** The portal's language, stored as a user's choice (default en-EN). */
  language?: string;
  /** A customer's session (`login`). */
  contactToken?: string;
  /** A staff user's session (`staffLogin`). */
  staffToken?: string;
  /** The browser's own locale (default en-GB, the journeys' date format). */
  locale?: string;
  colorScheme?: 'light' | 'dark';
  /**
   * Store the sessions and language on the first page load only, not on every load: for a journey that
   * changes them itself (a language picked, a session expired).
   */
  firstLoadOnly?: boolean;
}

/**
 * A browser context in the portal's time zone, without transitions (axe would measure the contrast of a
 * half-faded dialog), whose pages start with the given sessions and language stored.
 */
export async function contextWith(browser: Browser, opts: ContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1366, height: opts.height ?? 900 },
    timezoneId: 'Europe/Rome',
    locale: opts.locale ?? 'en-GB',
    colorScheme: opts.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  });
  await context.addInitScript(
    (o) => {
      try {
        // Frames share the page's storage (a sandboxed preview has none).
        if (window.top !== window) return;
        if (o.firstLoadOnly) {
          if (sessionStorage.getItem('e2e-seeded')) return;
          sessionStorage.setItem('e2e-seeded', '1');
        }
        localStorage.setItem('language', o.language);
        if (o.staffToken) localStorage.setItem('staffToken', o.staffToken);
        if (o.contactToken) localStorage.setItem('token', o.contactToken);
      } catch {
        // No storage in this document.
      }
    },
    {
      language: opts.language ?? 'en-EN',
      staffToken: opts.staffToken ?? '',
      contactToken: opts.contactToken ?? '',
      firstLoadOnly: opts.firstLoadOnly ?? false,
    },
  );
  return context;
}

/** A page of a new context (`contextWith`). */
export async function pageWith(browser: Browser, opts: ContextOptions = {}): Promise<Page> {
  return (await contextWith(browser, opts)).newPage();
}

/** A customer's context: the system's colour scheme and width as given, the portal's language chosen. */
export async function signedIn(
  browser: Browser,
  token: string,
  opts: { width?: number; language?: string; colorScheme?: 'light' | 'dark' } = {},
): Promise<BrowserContext> {
  return contextWith(browser, {
    contactToken: token,
    width: opts.width ?? 1366,
    height: 800,
    language: opts.language ?? 'it-IT',
    locale: 'it-IT',
    colorScheme: opts.colorScheme ?? 'light',
  });
}

/** The shell has settled (the portal spinner gone) and the page's heading is there. */
export async function settled(page: Page): Promise<void> {
  await page.getByTestId('app-header').waitFor();
  await page.getByTestId('full-screen-spinner').waitFor({ state: 'detached' });
  await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
}

/**
 * No serious or critical axe violation on the page as it is now; `opts.rules`: only those rules (a
 * sweep of colours needs colour-contrast alone), `opts.label`: what the failure is to name.
 */
export async function expectAccessible(
  page: Page,
  opts: { rules?: string[]; label?: string } = {},
): Promise<void> {
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
  const axe = new AxeBuilder({ page });
  if (opts.rules) axe.withRules(opts.rules);
  const result = await axe.analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary ?? ''})`).join(', ')}`,
    );
  expect(bad, opts.label).toEqual([]);
}

// ---------------------------------------------------------------- the outbox

/** The server's outbox directory: the worker writes each e-mail as an .eml, each SMS as an .sms.json. */
const outbox = () => join(dataDir, 'outbox');

function outboxFiles(suffix: string): string[] {
  try {
    return readdirSync(outbox())
      .filter((n) => n.endsWith(suffix))
      .sort();
  } catch {
    return []; // The worker creates the directory with its first message.
  }
}

/**
 * An .eml as text to search: quoted-printable undone (its bytes read as UTF-8), and the base64 parts
 * (a calendar attachment) decoded and appended.
 */
function mailText(file: string): string {
  const bytes = readFileSync(join(outbox(), file), 'latin1')
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const text = Buffer.from(bytes, 'latin1').toString('utf8');
  const parts = (text.match(/(?:^[A-Za-z0-9+/=]{40,}\r?\n)+/gm) ?? []).map((b) =>
    Buffer.from(b.replace(/\s+/g, ''), 'base64').toString('utf8'),
  );
  return [text, ...parts].join('\n');
}

/** The e-mails to `to` whose text contains `needle`, oldest first. */
export function mailsTo(to: string, needle: string): string[] {
  return outboxFiles('.eml')
    .map(mailText)
    .filter((text) => text.includes(`To: ${to}`) && text.includes(needle));
}

/** The e-mails, to anyone, whose text contains `needle`, oldest first. */
export function mailsWith(needle: string): string[] {
  return outboxFiles('.eml')
    .map(mailText)
    .filter((text) => text.includes(needle));
}

/** Waits for an e-mail to `to` containing `needle` and answers the first. */
export async function waitForMail(to: string, needle: string, timeout = 20_000): Promise<string> {
  await expect
    .poll(() => mailsTo(to, needle).length, { timeout, message: `an e-mail to ${to} with ${needle}` })
    .toBeGreaterThan(0);
  return mailsTo(to, needle)[0]!;
}

/** The texts of the text messages sent so far, oldest first. */
export function smsTexts(): string[] {
  return outboxFiles('.sms.json').map(
    (n) => (JSON.parse(readFileSync(join(outbox(), n), 'utf8')) as { text: string }).text,
  );
}
