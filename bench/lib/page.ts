/**
 * The page: initial JS and CSS of the Vite build (what index.html loads: the entry script, its
 * modulepreloads and stylesheets, gzip -9), the largest chunks, and the tickets page in headless
 * Chromium with 4x CPU throttling (DevTools protocol): LCP and total blocking time, cold and warm.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { CDPSession } from 'playwright-core';

export interface BundleReport {
  initialJs: number;
  initialCss: number;
  initialFiles: { file: string; gzip: number }[];
  largest: { file: string; raw: number; gzip: number; initial: boolean }[];
  lazyChecks: { name: string; lazy: boolean }[];
}

/** The goal for the customer's first load: JavaScript, gzip -9 (issue 15); the bench reports against it. */
export const INITIAL_JS_BUDGET = 200 * 1024;
/**
 * The ceiling the journeys enforce on every build (e2e/bundle.e2e.ts): today's first load (156 KB, from
 * 213 KB: route references instead of contracts, the first paint's Italian texts only, no dayjs, the
 * declarative router; docs/architecture.md) with a little room, so that a change that grows it — as the
 * sign-in dialog with passkeys did, by 40 KB — is caught by the test run. Raise it only knowingly: from
 * 156 to 157 KB for the early requests of a new ticket, the invoices, signing and booking (0.4 KB in
 * app/early-data.ts; their fetchers are in a chunk of their own, app/early-pages.ts).
 */
export const INITIAL_JS_CEILING = 157 * 1024;

/**
 * The ceiling of the staff desk's first visit, the journeys check it (e2e/bundle.e2e.ts): the JavaScript
 * loaded before its inbox shows — the customer's first load, which index.html loads for every address,
 * and the desk's layout, inbox and texts (183 KB, from 396 KB: the sign-in, ticket and administration
 * pages, zod, the menus and the filters' widgets no longer come with it). Under the same 200 KB budget.
 * Raised knowingly from 190 to 196 KB (194.0 KB): the inbox's own new parts (the bell's face, the SLA
 * badges, the saved views' place) and the desk's texts of six features (+2.7 KB of Italian); the bell's
 * list, the saved views and every new page stay after the inbox. Splitting the desk's texts by page is
 * the next cut (bench/RESULTS.md, 2026-11-29).
 */
export const DESK_JS_CEILING = 196 * 1024;

const gz = (p: string) => gzipSync(readFileSync(p), { level: 9 }).length;

/** Bytes (gzip -9) of built files by their paths in the site (`/assets/…`), as the budgets count them. */
export const gzipOfServed = (dist: string, paths: string[]): number =>
  paths.reduce((sum, path) => sum + gz(join(dist, path)), 0);

export function bundleReport(dist: string): BundleReport {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const initialFiles = initial.map((file) => ({ file, gzip: gz(join(dist, file)) }));
  const assets = readdirSync(join(dist, 'assets')).filter((f) => /\.(js|css)$/.test(f));
  const largest = assets
    .map((f) => {
      const p = join(dist, 'assets', f);
      return {
        file: `assets/${f}`,
        raw: statSync(p).size,
        gzip: gz(p),
        initial: initial.includes(`assets/${f}`),
      };
    })
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, 8);
  const initialText = initial
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(dist, f), 'utf8'))
    .join('\n');
  // Markers of the heavy libraries that must stay out of the first load.
  const lazyChecks = [
    { name: 'HTML editor (tiptap / ProseMirror)', marker: /prosemirror|ProseMirror/ },
    { name: 'PDF viewer (pdf.js; PDFs show in an iframe)', marker: /pdfjs|GlobalWorkerOptions/ },
    // The staff desk's chunk carries its own texts; this one is in no other file.
    { name: 'staff desk (issue 13)', marker: /Internal — the customer does not see this/ },
    // The administration's section menu builds its keys from this prefix; no other code does.
    { name: 'desk administration (issue 14)', marker: /admin\.sections\./ },
    // The web calls through route references; schemas travel with the forms that validate with them.
    { name: "zod and the contracts' schemas (issue 15)", marker: /ZodObject/ },
    // Dates of the first paint are Intl's; dayjs comes with the pages that have calendars.
    { name: 'dayjs (issue 15)', marker: /\$isDayjsObject/ },
  ].map((c) => ({ name: c.name, lazy: !c.marker.test(initialText) }));
  return {
    initialJs: initialFiles.filter((f) => f.file.endsWith('.js')).reduce((s, f) => s + f.gzip, 0),
    initialCss: initialFiles.filter((f) => f.file.endsWith('.css')).reduce((s, f) => s + f.gzip, 0),
    initialFiles,
    largest,
    lazyChecks,
  };
}

/**
 * What says a page has shown its content: an element matching a CSS selector, or a text in the page.
 * Looked for with a plain DevTools-protocol evaluation, not a Playwright locator: the first locator of a
 * document makes Playwright evaluate its own ~300 KB script in the page, and a locator waited on from the
 * load event ran that script (90–190 ms of the throttled main thread) in the middle of the page's own
 * work, before its LCP: a cost of the measurement, landing at a different moment in every run.
 */
export type Ready = { selector: string } | { text: string };
/** My tickets is ready when the known contact's newest ticket shows. */
export const TICKETS_READY: Ready = { text: 'Ticket 200:' };
/** The desk's agent of the page runs: the demo's Sara Conti (README), added to the bench portal. */
export const DESK_AGENT = 'sara.conti@sportello.example';
/** The desk's inbox is ready when its list shows a row. */
export const DESK_READY: Ready = { selector: '[data-testid="inbox-row"]' };

export interface PageRun {
  lcp: number;
  fcp: number;
  tbt: number;
  longTasks: number;
  load: number;
  /** What the last LCP candidate was (tag, classes, text, size): to see what the metric waits for. */
  lcpElement?: string;
  /**
   * JavaScript the page had received when its LCP was painted: files, and bytes (gzip -9 of the built
   * files when `dist` is given, as `bundleReport` counts the first load; otherwise as transferred).
   */
  jsFilesBeforeLcp: number;
  jsBeforeLcp: number;
  /** Every request answered before LCP by the network (documents, scripts, styles, API calls, images). */
  requestsBeforeLcp: number;
  /** Round trips before LCP: the longest chain of requests each started after the previous was answered. */
  chainBeforeLcp: number;
  /** The requests of that chain, and every request of the load (type, path, start–end ms), for reading. */
  chain?: string[];
  requests?: string[];
  /** Every LCP candidate of the load (time, element), for reading. */
  lcpCandidates?: string[];
  /**
   * With `cpu` (or a trace): the renderer's main thread from navigation to LCP, from the trace — the CPU
   * time of its tasks (what a loaded machine moves far less than wall time), their wall time, and the CPU
   * time of compiling and evaluating scripts and modules.
   */
  cpuUntilLcp?: number;
  wallUntilLcp?: number;
  compileUntilLcp?: number;
}

export interface MeasureOptions {
  /**
   * Writes a Chromium performance trace of each load to `${tracePrefix}-cold.json` / `-warm.json`: with
   * screenshots, or with `cpu` without them (the categories of the CPU figures only).
   */
  tracePrefix?: string;
  /** Writes a JavaScript CPU profile of each load to `${profilePrefix}-cold.cpuprofile` / `-warm…`. */
  profilePrefix?: string;
  /** Traces each load (no screenshots, no sampling) for the main thread's CPU time until LCP. */
  cpu?: boolean;
  /** The build being served: JavaScript before LCP is counted as gzip -9 of its files. */
  dist?: string;
}

/** Trace categories enough for the main thread's tasks, script compile and evaluation, and LCP. */
const CPU_CATEGORIES = [
  '-*',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'toplevel',
  'loading',
];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

const SCRIPT_WORK = new Set([
  'v8.compile',
  'v8.compileModule',
  'V8.CompileCode',
  'v8.evaluateModule',
  'EvaluateScript',
]);

/**
 * The renderer's main thread from navigation start to the last LCP candidate: CPU and wall time of its
 * top-level tasks, and the CPU time spent compiling and evaluating scripts (thread time, `tdur`).
 */
export function traceUntilLcp(trace: Buffer | string): { cpu: number; wall: number; compile: number } | null {
  const parsed = JSON.parse(String(trace)) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const lcps = events.filter((e) => e.name === 'largestContentfulPaint::Candidate');
  const lcp = lcps[lcps.length - 1];
  if (!lcp) return null;
  const start = events.find((e) => e.name === 'navigationStart' && e.pid === lcp.pid)?.ts ?? 0;
  const main = events.filter(
    (e) => e.pid === lcp.pid && e.tid === lcp.tid && e.ph === 'X' && e.ts >= start && e.ts <= lcp.ts,
  );
  const sum = (xs: TraceEvent[], k: 'dur' | 'tdur') =>
    Math.round(xs.reduce((s, e) => s + (e[k] ?? 0), 0) / 1000);
  const tasks = main.filter((e) => e.name === 'ThreadControllerImpl::RunTask');
  return {
    cpu: sum(tasks, 'tdur'),
    wall: sum(tasks, 'dur'),
    compile: sum(
      main.filter((e) => SCRIPT_WORK.has(e.name)),
      'tdur',
    ),
  };
}

interface Request {
  url: string;
  start: number;
  end: number | null;
  type: string;
}

/** The kinds of request a page's first paint may wait for (not images, icons nor manifests). */
const CHAINED = new Set(['Document', 'Script', 'Stylesheet', 'Fetch', 'XHR']);

/**
 * Round trips before `until` (ms since navigation): the longest chain of requests answered before it,
 * each started after the one before was answered (the page → its entry script → a chunk → an API call
 * …). Timing only, so an upper bound: a request that merely started late counts as waiting for the one
 * before it — code fetched while the page is idle before its LCP lengthens the chain too.
 */
function longestChain(requests: Request[], until: number): string[] {
  const done = requests
    .filter((r) => CHAINED.has(r.type) && r.end !== null && r.end <= until)
    .sort((a, b) => a.start - b.start);
  const chains: string[][] = [];
  for (const [i, r] of done.entries()) {
    let best: string[] = [];
    for (let j = 0; j < i; j++)
      if (done[j]!.end! <= r.start && chains[j]!.length > best.length) best = chains[j]!;
    chains.push([...best, r.url]);
  }
  return chains.reduce((a, b) => (b.length > a.length ? b : a), []);
}

const OBSERVERS = `
  window.__perf = { lcp: 0, lcpElement: '', longtasks: [], candidates: [] };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) {
      window.__perf.lcp = e.startTime;
      const el = e.element;
      window.__perf.lcpElement = el
        ? el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).trim().split(/\\s+/).join('.') : '') +
          ' "' + (el.textContent || '').trim().slice(0, 40) + '" ' + e.size + ' px²'
        : '(removed) ' + e.size + ' px²';
      window.__perf.candidates.push(Math.round(e.startTime) + ' ms: ' + window.__perf.lcpElement);
    } })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries())
      window.__perf.longtasks.push({ start: e.startTime, duration: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
`;

/** How long the browser is left to settle between its launch and the cold load. */
const BROWSER_SETTLE_MS = 1500;

/** Polls the page until `ready` holds: a protocol evaluation every 100 ms, no Playwright script in the page. */
async function waitUntilReady(cdp: CDPSession, ready: Ready, timeoutMs = 60_000): Promise<void> {
  const expression =
    'selector' in ready
      ? `document.querySelector(${JSON.stringify(ready.selector)}) !== null`
      : `document.body !== null && document.body.textContent.includes(${JSON.stringify(ready.text)})`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A navigation may replace the document between two calls: that answer is an error, not a verdict.
    const answer = await cdp.send('Runtime.evaluate', { expression, returnByValue: true }).catch(() => null);
    if (answer?.result.value === true) return;
    if (Date.now() > deadline)
      throw new Error(`the page did not show ${JSON.stringify(ready)} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Opens `url` signed in (localStorage as the SPA keeps it), waits for `ready` (a text, or an element)
 * and a quiet second and a half, then reads LCP, FCP and TBT (sum of long-task time over 50 ms after
 * FCP, up to the last long task), what was loaded before LCP, and with `cpu` the main thread's work.
 */
export async function measurePage(
  url: string,
  storage: Record<string, string>,
  ready: Ready,
  options: MeasureOptions = {},
): Promise<{ cold: PageRun; warm: PageRun }> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'it-IT' });
    await context.addInitScript(
      ({ entries, observers }) => {
        for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
        new Function(observers)();
      },
      { entries: storage, observers: OBSERVERS },
    );
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    // Every request of the load, with what started it, on the page's clock (ms since navigation).
    let requests = new Map<string, Request>();
    let origin = 0;
    await cdp.send('Network.enable');
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.type === 'Document' && origin === 0) origin = e.timestamp;
      requests.set(e.requestId, {
        url: e.request.url,
        start: e.timestamp,
        end: null,
        type: e.type ?? 'Other',
      });
    });
    // Answered by the cache: no round trip.
    cdp.on('Network.requestServedFromCache', (e) => requests.delete(e.requestId));
    cdp.on('Network.loadingFinished', (e) => {
      const r = requests.get(e.requestId);
      if (r) r.end = e.timestamp;
    });
    const gzipOf = new Map<string, number>();
    const jsBytes = (url: string, transferred: number) => {
      const path = new URL(url).pathname;
      if (!options.dist || !path.startsWith('/assets/')) return transferred;
      if (!gzipOf.has(path)) gzipOf.set(path, gz(join(options.dist, path)));
      return gzipOf.get(path)!;
    };
    const read = async (): Promise<PageRun> => {
      await waitUntilReady(cdp, ready);
      await page.waitForTimeout(1500);
      const figures = await page.evaluate(() => {
        const w = window as unknown as {
          __perf: {
            lcp: number;
            lcpElement: string;
            longtasks: { start: number; duration: number }[];
            candidates: string[];
          };
        };
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
        const after = w.__perf.longtasks.filter((t) => t.start + t.duration > fcp);
        const tbt = after.reduce((s, t) => s + Math.max(0, t.duration - 50), 0);
        return {
          lcp: Math.round(w.__perf.lcp),
          fcp: Math.round(fcp),
          tbt: Math.round(tbt),
          longTasks: after.length,
          load: Math.round(nav?.loadEventEnd ?? 0),
          lcpElement: w.__perf.lcpElement,
          candidates: w.__perf.candidates,
          // Resource timing of scripts (`transferSize` 0 when the cache answered).
          scripts: performance
            .getEntriesByType('resource')
            .filter((r) => /\.m?js(\?|$)/.test(r.name))
            .map((r) => {
              const t = r as PerformanceResourceTiming;
              return { url: t.name, end: t.responseEnd, size: t.encodedBodySize };
            }),
        };
      });
      const { scripts, candidates, ...run } = figures;
      const before = scripts.filter((r) => r.end <= run.lcp);
      // Network timestamps are seconds on the protocol's clock: the page's document request is its zero.
      const list = [...requests.values()].map((r) => ({
        ...r,
        start: (r.start - origin) * 1000,
        end: r.end === null ? null : (r.end - origin) * 1000,
      }));
      const chain = longestChain(list, run.lcp);
      return {
        ...run,
        jsFilesBeforeLcp: before.length,
        jsBeforeLcp: before.reduce((s, r) => s + jsBytes(r.url, r.size), 0),
        requestsBeforeLcp: list.filter((r) => r.end !== null && r.end <= run.lcp).length,
        chainBeforeLcp: chain.length,
        chain: chain.map((u) => new URL(u).pathname),
        lcpCandidates: candidates,
        requests: list.map(
          (r) => `${r.type} ${new URL(r.url).pathname} ${Math.round(r.start)}–${Math.round(r.end ?? -1)}`,
        ),
      };
    };
    const traced = async (name: string, load: () => Promise<unknown>): Promise<PageRun> => {
      requests = new Map();
      origin = 0;
      const tracing = Boolean(options.tracePrefix || options.cpu);
      // With `cpu` the trace is written without screenshots (their capture costs the page's own time).
      const path = options.tracePrefix && `${options.tracePrefix}-${name}.json`;
      if (path && !options.cpu) await browser.startTracing(page, { path, screenshots: true });
      else if (options.cpu) await browser.startTracing(page, { path, categories: CPU_CATEGORIES });
      if (options.profilePrefix) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      await load();
      const run = await read();
      if (tracing) {
        const work = traceUntilLcp(await browser.stopTracing());
        if (work)
          Object.assign(run, {
            cpuUntilLcp: work.cpu,
            wallUntilLcp: work.wall,
            compileUntilLcp: work.compile,
          });
      }
      if (options.profilePrefix) {
        const { profile } = await cdp.send('Profiler.stop');
        writeFileSync(`${options.profilePrefix}-${name}.cpuprofile`, JSON.stringify(profile));
      }
      return run;
    };
    // A visitor's first load happens in a browser already running. Loaded right after the launch, the
    // page shared the two cores with Chromium starting its own processes, and its LCP measured them too
    // (bench/RESULTS.md, session 11).
    await page.goto('about:blank');
    await page.waitForTimeout(BROWSER_SETTLE_MS);
    const cold = await traced('cold', () => page.goto(url, { waitUntil: 'load' }));
    const warm = await traced('warm', () => page.reload({ waitUntil: 'load' }));
    return { cold, warm };
  } finally {
    await browser.close();
  }
}
