/**
 * `npx tsx bench/page.ts`: only the page part of `npm run bench`, in a minute instead of a full run.
 * Builds the SPA into a temporary directory (apps/web/dist, which the browser tests and the full bench
 * build, stays untouched), starts the bench server on a fresh PGlite data directory (or a throwaway
 * PostgreSQL with --pg) with the base data and the known contact's 200 tickets, then measures the
 * pages as bench/run.ts does, several times, and prints every run and the medians: the customer's My
 * tickets (`tickets`), a ticket of that list with ten comments (`ticket`, on request), the new ticket's
 * form (`new`, on request), the invoices (`invoices`, on request) and the staff desk's inbox (`desk`:
 * `/{portal}/staff` signed in as the demo's agent Sara Conti, added to the bench portal).
 *
 *   options: --runs N (default 3)  --pg  --pages tickets,ticket,new,invoices,desk (default tickets,desk)
 *            --cpu: trace every load (no screenshots) for the main thread's CPU time until LCP
 *            --trace DIR (Chromium traces of every load, with screenshots, or with --cpu without them; also
 *            gives the CPU figures)
 *            --profile DIR (JavaScript CPU profiles of every load, for DevTools)
 *            --build-to DIR (build into DIR and keep it)  --dist DIR (an existing build; repeatable)
 *            --cls-runs N (default 3): cold loads of a ticket, the new ticket's form and the invoices on a
 *            360 px phone and of My tickets on a phone and at 1366 px, for their layout shift (CLS)
 *            PAGE_REQUESTS=1 in the environment prints every request of the first cold load
 * With several builds (e.g. `--dist before --build-to after`) the runs alternate between them, so a
 * machine shared with other work slows both alike: compare the medians of one invocation only. Every run
 * also reports what was loaded before LCP (JavaScript as gzip -9 of the build's files, requests) and the
 * round trips of its critical path; on a loaded machine those and the CPU time say more than wall times.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_CONTACT_EXT, BENCH_PASSWORD, BENCH_PORTAL, BENCH_USER, KNOWN_TICKETS } from './lib/generate';
import { cleanup, cleanups } from './lib/cleanups';
import { bundleReport, DESK_AGENT, DESK_READY, measurePage, TICKETS_READY, type PageRun } from './lib/page';
import { freePort, startThrowawayPg } from './lib/pg';
import { startServer } from './lib/server';
import { buildWeb } from './lib/web-build';

const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    pg: { type: 'boolean', default: false },
    dist: { type: 'string', multiple: true },
    'build-to': { type: 'string' },
    trace: { type: 'string' },
    profile: { type: 'string' },
    'cls-runs': { type: 'string', default: '3' },
    pages: { type: 'string', default: 'tickets,desk' },
    cpu: { type: 'boolean', default: false },
  },
});
const PAGE_NAMES = ['tickets', 'ticket', 'new', 'invoices', 'desk'] as const;
const PAGES = opt.pages
  .split(',')
  .filter((p): p is (typeof PAGE_NAMES)[number] => (PAGE_NAMES as readonly string[]).includes(p));
const RUNS = Math.max(1, Number(opt.runs));
const log = (...a: unknown[]) => console.log('[page]', ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function post<T>(url: string, json: unknown): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    body: JSON.stringify(json),
    headers: { 'content-type': 'application/json' },
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const build = (into?: string) => buildWeb(into, cleanups, (m) => log(m));

async function startBenchServer(env: Record<string, string>): Promise<string> {
  const server = await startServer(
    { DEMO_DATA: 'false', ...env },
    await freePort(),
    'bench/lib/bench-server.ts',
  );
  cleanups.push(() => server.child.kill('SIGKILL'));
  return server.baseUrl;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : Math.round((s[s.length / 2 - 1]! + s[s.length / 2]!) / 2);
};

async function main(): Promise<void> {
  const dists = [...(opt.dist ?? [])];
  if (opt['build-to'] || dists.length === 0) dists.push(build(opt['build-to']));
  for (const dist of dists) {
    const bundle = bundleReport(dist);
    log(
      `${dist}: initial JS ${(bundle.initialJs / 1024).toFixed(1)} KB gzip, CSS ${(bundle.initialCss / 1024).toFixed(1)} KB; ` +
        bundle.lazyChecks.map((c) => `${c.name}: ${c.lazy ? 'lazy' : 'IN the initial chunks'}`).join('; '),
    );
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'sportello-page-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // The server serves whatever this link points at (it looks files up per request): runs switch builds.
  const web = join(dataDir, 'web');
  const serve = (dist: string) => {
    rmSync(web, { force: true });
    symlinkSync(dist, web);
  };
  serve(dists[0]!);
  let databaseUrl = '';
  if (opt.pg) {
    const pg = await startThrowawayPg({ fsync: false });
    cleanups.push(() => pg.stop());
    databaseUrl = pg.url;
  }
  const baseUrl = await startBenchServer({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, WEB_DIST: web });
  // Only the known contact's tickets: the page reads that contact's list, whatever the total.
  await post(`${baseUrl}/bench/admin/grow`, { tickets: KNOWN_TICKETS });
  for (;;) {
    await sleep(500);
    const job = (await (await fetch(`${baseUrl}/bench/admin/job`)).json()) as {
      running: boolean;
      error: string | null;
    };
    if (job.error) throw new Error(job.error);
    if (!job.running) break;
  }
  const { token } = await post<{ token: string }>(`${baseUrl}/api/auth/login`, {
    userName: BENCH_USER,
    password: BENCH_PASSWORD,
  });
  const storage = { token, company: BENCH_PORTAL, contactId: String(BENCH_CONTACT_EXT) };
  // The desk's agents on the bench portal (its agents 1 and 2), signed in as the desk's sign-in does.
  await post(`${baseUrl}/bench/admin/staff`, { portal: BENCH_PORTAL, password: BENCH_PASSWORD });
  const staff = await post<{ token: string }>(`${baseUrl}/api/staff/auth/login`, {
    email: DESK_AGENT,
    password: BENCH_PASSWORD,
  });
  // A ticket of the contact's list with a conversation: ten comments (issue 30's ticket screen).
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const tenant = `${baseUrl}/api/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}`;
  const first = (
    (await (await fetch(`${tenant}/tickets`, { headers: auth })).json()) as { id: number }[]
  )[0]!;
  if (PAGES.includes('ticket'))
    for (let i = 1; i <= 10; i++) {
      const res = await fetch(`${tenant}/comments`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          taskId: first.id,
          message: `<p>Aggiornamento ${i}: abbiamo riavviato lo switch e controllato il cavo. ${'Dettagli. '.repeat(20)}</p>`,
          attachments: [],
        }),
      });
      if (!res.ok) throw new Error(`comment: ${res.status} ${await res.text()}`);
    }
  const pages = {
    ticket: {
      url: `${baseUrl}/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}/tickets/${first.id}`,
      storage,
      ready: { selector: '[data-testid="ticket-comment"]' },
    },
    tickets: {
      url: `${baseUrl}/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}/tickets`,
      storage,
      ready: TICKETS_READY,
    },
    // The form drawn (its send button), not the editor that follows it.
    new: {
      url: `${baseUrl}/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}/tickets/new`,
      storage,
      ready: { selector: 'form button[type="submit"]' },
    },
    invoices: {
      url: `${baseUrl}/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}/invoices`,
      storage,
      ready: { selector: '[data-testid="invoice-row"]' },
    },
    desk: {
      url: `${baseUrl}/${BENCH_PORTAL}/staff`,
      storage: { staffToken: staff.token },
      ready: DESK_READY,
    },
  } as const;
  type Runs = { cold: PageRun; warm: PageRun }[];
  const runs = Object.fromEntries(PAGES.map((p) => [p, dists.map((): Runs => [])])) as Record<
    (typeof PAGES)[number],
    Runs[]
  >;
  for (const dir of [opt.trace, opt.profile]) if (dir) mkdirSync(dir, { recursive: true });
  for (let i = 0; i < RUNS; i++) {
    for (const name of PAGES)
      for (const [d, dist] of dists.entries()) {
        serve(dist);
        const { url, storage: entries, ready } = pages[name];
        const prefix = `${name}-build${d + 1}-run${i + 1}`;
        const r = await measurePage(url, entries, ready, {
          tracePrefix: opt.trace ? join(opt.trace, prefix) : undefined,
          profilePrefix: opt.profile ? join(opt.profile, prefix) : undefined,
          cpu: opt.cpu,
          dist,
        });
        runs[name][d]!.push(r);
        for (const kind of ['cold', 'warm'] as const) {
          const p = r[kind];
          log(
            `${name} build ${d + 1} run ${i + 1} ${kind}: FCP ${p.fcp} LCP ${p.lcp} TBT ${p.tbt} (${p.longTasks} long tasks) load ${p.load}` +
              (p.cpuUntilLcp !== undefined
                ? `; until LCP: main-thread CPU ${p.cpuUntilLcp} (wall ${p.wallUntilLcp}, compile+evaluate ${p.compileUntilLcp})`
                : '') +
              `; before LCP: JS ${kb(p.jsBeforeLcp)} in ${p.jsFilesBeforeLcp} files, ${p.requestsBeforeLcp} requests, chain of ${p.chainBeforeLcp}` +
              (p.lcpElement ? `  LCP element: ${p.lcpElement}` : ''),
          );
          if (kind === 'cold' && i === 0) log(`  critical chain: ${p.chain?.join(' → ')}`);
          if (kind === 'cold' && i === 0 && process.env.PAGE_REQUESTS)
            log([...(p.lcpCandidates ?? []), ...(p.requests ?? [])].join('\n'));
        }
      }
  }
  // Ticket detail on a phone: how far the page moves while its code and data arrive.
  const list = (await (
    await fetch(`${baseUrl}/api/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}/tickets`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as { id: number }[];
  const ticketUrl = `${baseUrl}/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}/tickets/${list[0]!.id}`;
  // My tickets too: its filters' controls replace their look after the list (ticket-filters-bar.tsx);
  // the new ticket's editor its face, the invoices' period picker its face.
  const clsPages = [
    { name: 'ticket on a phone', url: ticketUrl, phone: true },
    { name: 'new ticket on a phone', url: pages.new.url, phone: true },
    { name: 'invoices on a phone', url: pages.invoices.url, phone: true },
    { name: 'My tickets on a phone', url: pages.tickets.url, phone: true },
    { name: 'My tickets at 1366 px', url: pages.tickets.url, phone: false },
  ];
  const cls = clsPages.map(() => dists.map((): number[] => []));
  for (let i = 0; i < Math.max(0, Number(opt['cls-runs'])); i++)
    for (const [c, { name, url, phone }] of clsPages.entries())
      for (const [d, dist] of dists.entries()) {
        serve(dist);
        const r = await measureCls(url, storage, phone);
        cls[c]![d]!.push(r.cls);
        log(
          `build ${d + 1} ${name} CLS run ${i + 1}: ${r.cls.toFixed(3)}${r.shifts.length ? `  (${r.shifts.join('; ')})` : ''}`,
        );
      }

  for (const name of PAGES)
    for (const [d, dist] of dists.entries())
      for (const kind of ['cold', 'warm'] as const) {
        const pick = (k: keyof PageRun) =>
          median(runs[name][d]!.map((r) => r[kind][k]).filter((v): v is number => typeof v === 'number'));
        log(
          `${name} build ${d + 1} (${dist}) median ${kind}: FCP ${pick('fcp')} LCP ${pick('lcp')} TBT ${pick('tbt')}` +
            (opt.cpu || opt.trace
              ? `; until LCP: main-thread CPU ${pick('cpuUntilLcp')} (wall ${pick('wallUntilLcp')}, compile+evaluate ${pick('compileUntilLcp')})`
              : '') +
            `; before LCP: JS ${kb(pick('jsBeforeLcp'))}, ${pick('requestsBeforeLcp')} requests, chain of ${pick('chainBeforeLcp')}`,
        );
      }
  for (const [c, { name }] of clsPages.entries())
    for (const [d, dist] of dists.entries())
      if (cls[c]![d]!.length)
        log(`build ${d + 1} (${dist}) ${name}: CLS max ${Math.max(...cls[c]![d]!).toFixed(3)}`);
}

/**
 * A cold load of `url` signed in, on a 360 x 740 phone screen (or a 1366 x 768 one) with 4x CPU throttling: the cumulative
 * layout shift over the first 5 s (PerformanceObserver 'layout-shift', shifts after input excluded), and
 * the elements that moved the most.
 */
async function measureCls(
  url: string,
  entries: Record<string, string>,
  phone = true,
): Promise<{ cls: number; shifts: string[] }> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const context = await browser.newContext(
      phone
        ? { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, locale: 'it-IT' }
        : { viewport: { width: 1366, height: 768 }, locale: 'it-IT' },
    );
    await context.addInitScript((storage) => {
      for (const [k, v] of Object.entries(storage)) localStorage.setItem(k, v);
      const w = window as unknown as { __cls: { value: number; shifts: string[] } };
      w.__cls = { value: 0, shifts: [] };
      new PerformanceObserver((l) => {
        for (const e of l.getEntries() as unknown as {
          value: number;
          hadRecentInput: boolean;
          sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
        }[]) {
          if (e.hadRecentInput) continue;
          w.__cls.value += e.value;
          if (e.value >= 0.01)
            w.__cls.shifts.push(
              `${e.value.toFixed(3)}: ` +
                e.sources
                  .map((s) => {
                    const el = s.node as Element | undefined;
                    const name = el
                      ? `${el.nodeName.toLowerCase()}.${String(el.className).split(' ')[0]}`
                      : '?';
                    return `${name} y ${Math.round(s.previousRect.y)}→${Math.round(s.currentRect.y)}`;
                  })
                  .join(', '),
            );
        }
      }).observe({ type: 'layout-shift', buffered: true });
    }, entries);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(5000);
    const r = await page.evaluate(
      () => (window as unknown as { __cls: { value: number; shifts: string[] } }).__cls,
    );
    return { cls: r.value, shifts: r.shifts };
  } finally {
    await browser.close();
  }
}

try {
  await main();
} finally {
  cleanup();
}
