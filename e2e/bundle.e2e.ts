// The customer's first load, from the build the journeys run on (e2e/run.mjs builds it): under its
// ceiling, and without the code only some users need (the editor, the PDF viewer, the staff desk and its
// administration) or only some pages (zod with the schemas of the forms, dayjs with the calendars).
// And the staff desk's first visit: what it loads before its inbox shows, under its own ceiling; and a
// desk ticket opened from a link: its page announces what the conversation waits for, none of it zod.
// `npm run bench` reports the same figures in bench/RESULTS.md.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  bundleReport,
  DESK_AGENT,
  DESK_JS_CEILING,
  gzipOfServed,
  INITIAL_JS_CEILING,
} from '../bench/lib/page';
import { baseUrl, launch } from './browser';
import { get, PASSWORD, post } from './kit';

const dist = fileURLToPath(new URL('../apps/web/dist', import.meta.url));

describe("the customer's first load", () => {
  const report = bundleReport(dist);

  it(`stays within ${INITIAL_JS_CEILING / 1024} KB of JavaScript (gzip)`, () => {
    expect(report.initialJs, JSON.stringify(report.initialFiles)).toBeLessThanOrEqual(INITIAL_JS_CEILING);
  });

  it.each(report.lazyChecks.map((c) => [c.name, c.lazy] as const))('leaves out the %s', (_name, lazy) => {
    expect(lazy).toBe(true);
  });
});

/**
 * The chunks' static imports, chunk to chunks. A cycle between two chunks can start one before the
 * other's modules are set (a chunk calling the other's CommonJS wrapper at start threw "_ is not a
 * function" on a customer's ticket page once the reports' chunk groups came): the build must have none.
 */
function chunkCycles(assets: string): string[] {
  const graph = new Map<string, string[]>();
  for (const f of readdirSync(assets).filter((n) => n.endsWith('.js'))) {
    const src = readFileSync(join(assets, f), 'utf8');
    graph.set(
      f,
      [...src.matchAll(/(?:import|export)[^"';]*?from\s*"\.\/([^"]+\.js)"|import\s*"\.\/([^"]+\.js)"/g)].map(
        (m) => (m[1] ?? m[2])!,
      ),
    );
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const walk = (chunk: string, path: string[]) => {
    state.set(chunk, 'open');
    for (const next of graph.get(chunk) ?? []) {
      if (state.get(next) === 'open')
        cycles.push([...path.slice(path.indexOf(next)), chunk, next].join(' → '));
      else if (!state.has(next)) walk(next, [...path, chunk]);
    }
    state.set(chunk, 'done');
  };
  for (const chunk of graph.keys()) if (!state.has(chunk)) walk(chunk, []);
  return cycles;
}

describe('the chunks', () => {
  it('import one another without a cycle', () => {
    expect(chunkCycles(join(dist, 'assets'))).toEqual([]);
  });
});

describe("the staff desk's first visit", () => {
  it(`loads at most ${DESK_JS_CEILING / 1024} KB of JavaScript (gzip) before its inbox shows, without zod`, async () => {
    const { token } = await post<{ token: string }>('/api/staff/auth/login', '', {
      email: DESK_AGENT,
      password: PASSWORD,
    });
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      // The token as the desk's sign-in keeps it, and the moment the inbox's first row is in the page.
      await context.addInitScript((t) => {
        localStorage.setItem('staffToken', t);
        new MutationObserver((_, observer) => {
          if (!document.querySelector('[data-testid="inbox-row"]')) return;
          (window as unknown as { __shownAt: number }).__shownAt = performance.now();
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      }, token);
      const page = await context.newPage();
      const sent = await page.goto(`${baseUrl}/demo/staff`);
      await page.getByTestId('inbox-row').first().waitFor();
      const scripts = await page.evaluate(() => {
        const shownAt = (window as unknown as { __shownAt: number }).__shownAt;
        return performance
          .getEntriesByType('resource')
          .filter((r) => /\.js$/.test(r.name) && (r as PerformanceResourceTiming).responseEnd <= shownAt)
          .map((r) => new URL(r.name).pathname);
      });
      // The page the server sent (desk.<language>.html) announces the desk's code and the texts of the
      // browser's language: every script the inbox loaded before it showed is the entry's or announced
      // there, but other texts (the first-paint language's, before the browser's is applied) and the
      // formatting worker; nothing else is announced.
      const html = await sent!.text();
      const announced = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!);
      const preloaded = announced(/<link rel="modulepreload" crossorigin href="([^"]+)"/g);
      expect(html).not.toMatch(/fetchpriority="low"/);
      const entry = announced(/<script type="module" crossorigin src="([^"]+)"/g);
      expect(preloaded.length, html).toBeGreaterThan(6);
      expect(scripts, html).toEqual(expect.arrayContaining(preloaded));
      const unannounced = scripts.filter(
        (s) =>
          !preloaded.includes(s) &&
          !entry.includes(s) &&
          !/\/(it-IT|en-EN|es-ES)-[\w-]+\.js$|\.worker-/.test(s),
      );
      expect(unannounced, html).toEqual([]);
      const bytes = gzipOfServed(dist, scripts);
      // The figure itself, to compare builds (the ceiling only says when it grew too much).
      console.log(
        `desk before its inbox shows: ${(bytes / 1024).toFixed(1)} KB gzip in ${scripts.length} files`,
      );
      expect(bytes, scripts.join(' ')).toBeLessThanOrEqual(DESK_JS_CEILING);
      // The desk's forms validate with zod; its inbox has none.
      const text = scripts.map((s) => readFileSync(join(dist, s), 'utf8')).join('\n');
      expect(/ZodObject/.test(text), scripts.join(' ')).toBe(false);
    } finally {
      await browser.close();
    }
  });

  it("opens a ticket from its address with the ticket page's code announced, without zod", async () => {
    const { token } = await post<{ token: string }>('/api/staff/auth/login', '', {
      email: DESK_AGENT,
      password: PASSWORD,
    });
    const { items } = await get<{ items: { id: number }[] }>('/api/staff/portals/demo/tickets', token);
    const path = `/demo/staff/tickets/${items[0]!.id}`;
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
      // The moment the conversation's first message is in the page.
      await context.addInitScript((t) => {
        localStorage.setItem('staffToken', t);
        new MutationObserver((_, observer) => {
          if (!document.querySelector('[data-testid="conversation"] article')) return;
          (window as unknown as { __shownAt: number }).__shownAt = performance.now();
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      }, token);
      const page = await context.newPage();
      const sent = await page.goto(`${baseUrl}${path}`);
      await page.getByTestId('conversation').locator('article').first().waitFor();
      const scripts = await page.evaluate(() => {
        const shownAt = (window as unknown as { __shownAt: number }).__shownAt;
        return performance
          .getEntriesByType('resource')
          .filter((r) => /\.js$/.test(r.name) && (r as PerformanceResourceTiming).responseEnd <= shownAt)
          .map((r) => new URL(r.name).pathname);
      });
      // The server sent desk-ticket.<language>.html: every script the conversation waited for is the
      // entry's or announced there (the ticket page's own at low priority), but other texts and the
      // formatting worker.
      const html = await sent!.text();
      const announced = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!);
      const preloaded = announced(
        /<link rel="modulepreload"(?: fetchpriority="low")? crossorigin href="([^"]+)"/g,
      );
      // What comes after the conversation (the reply's composer, the side panels) is neither announced
      // nor loaded before it (components/ticket-after-content.tsx).
      const later = /\/(composer|ticket-side-panel|time-panel|task-links-panel|customer-panel)-/;
      expect(html).not.toMatch(later);
      expect(
        scripts.filter((s) => later.test(s)),
        scripts.join(' '),
      ).toEqual([]);
      const entry = announced(/<script type="module" crossorigin src="([^"]+)"/g);
      const unannounced = scripts.filter(
        (s) =>
          !preloaded.includes(s) &&
          !entry.includes(s) &&
          !/\/(it-IT|en-EN|es-ES)-[\w-]+\.js$|\.worker-/.test(s),
      );
      expect(unannounced, html).toEqual([]);
      // The inbox's page does not announce the ticket page's code.
      const inbox = await (await fetch(`${baseUrl}/demo/staff`)).text();
      expect(inbox).not.toMatch(/staff-ticket-page-/);
      expect(html).toMatch(/staff-ticket-page-/);
      const text = scripts.map((s) => readFileSync(join(dist, s), 'utf8')).join('\n');
      expect(/ZodObject/.test(text), scripts.join(' ')).toBe(false);
    } finally {
      await browser.close();
    }
  });
});
