/**
 * `npm run bench:lighthouse`: Lighthouse's performance audit with its default mobile settings (a phone's
 * screen, simulated 4x CPU slowdown and slow 4G) of the customer's screens and the desk's, on the demo
 * portal, signed in as its users are: every run and the median of each screen's score, LCP, TBT and
 * main-thread work. Not part of `npm test`; wants a quiet machine (Lighthouse's simulation scales the
 * CPU time it observes, so a busy neighbour lowers every score).
 *
 * The server is the one users run (apps/api/src/server.ts, compiled) with the demo data on a fresh
 * PGlite data directory; the customer is `demo` (Rossi Impianti Srl), the agent Sara Conti. The screens
 * that need data the demo lacks get it through the API first: a ticket with ten comments and their
 * attachments.
 *
 *   options: --runs N (default 3)  --screens sign-in,overview,… (default all)
 *            --dist DIR (an existing build; repeatable)  --build-to DIR (build into DIR and keep it; default,
 *            without --dist: build the SPA into a temporary directory)
 *            --json FILE (every run's figures, for comparing)  --lhr DIR (every run's whole Lighthouse report)
 * With several builds (e.g. `--dist before --build-to after`) the runs alternate between them, screen by
 * screen, so a machine shared with other work slows both alike: compare the builds of one invocation only
 * (the table then gives each build's medians and the after/before ratios of LCP, TBT and main-thread work).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { cleanup, cleanups } from './lib/cleanups';
import { freePort } from './lib/pg';
import { startServer } from './lib/server';
import { buildWeb } from './lib/web-build';

const { values: opt } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    screens: { type: 'string' },
    dist: { type: 'string', multiple: true },
    'build-to': { type: 'string' },
    json: { type: 'string' },
    lhr: { type: 'string' },
  },
});
const RUNS = Math.max(1, Number(opt.runs));
const PASSWORD = 'Sportello-Demo-2026';
const PORTAL = 'demo';
const log = (...a: unknown[]) => console.log('[lighthouse]', ...a);

async function api<T>(
  base: string,
  path: string,
  init: { token?: string; json?: unknown; form?: FormData } = {},
) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  // A busy embedded database answers 503 with Retry-After (a loaded machine): ask again a few times.
  for (let attempt = 1; ; attempt++) {
    res = await fetch(`${base}${path}`, {
      method: init.json !== undefined || init.form ? 'POST' : 'GET',
      headers,
      body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
    });
    if (res.status !== 503 || attempt === 5) break;
    await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
  }
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Screen {
  name: string;
  path: string;
  /** localStorage of the origin before the load (the web app's keys, apps/web/src/lib/storage.ts). */
  storage: Record<string, string>;
  /** The goal of the issue: customer screens 90, the desk's 80. */
  goal: number;
}

/** What the screens need: the demo's customer and agent signed in, a ticket with a conversation. */
async function prepare(base: string): Promise<Screen[]> {
  const { token } = await api<{ token: string }>(base, '/api/auth/login', {
    json: { userName: 'demo', password: PASSWORD, remember: true },
  });
  const me = await api<{ contacts: { contactId: number; companyName: string }[] }>(base, '/api/Users/me', {
    token,
  });
  const contact = me.contacts.find((c) => c.companyName.startsWith('Rossi')) ?? me.contacts[0]!;
  const cid = contact.contactId;
  const tenant = `/api/${PORTAL}/${cid}`;
  const types = await api<{ id: number }[]>(base, `/api/settings/${PORTAL}/tickets/types`, { token });
  const upload = async (name: string, text: string) => {
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/plain' }), name);
    return (await api<{ id: number }>(base, `${tenant}/comments/attachments`, { token, form })).id;
  };
  const ticket = await api<{ id: number }>(base, `${tenant}/tickets`, {
    token,
    json: {
      title: 'Stampante del secondo piano non raggiungibile',
      taskTypeId: types[0]!.id,
      description: '<p>Dalla mattina la stampante non risponde. Allego il rapporto di rete.</p>',
      attachments: [await upload('rapporto-rete.txt', 'ping 10.0.2.15: timeout\n'.repeat(40))],
    },
  });
  for (let i = 1; i <= 10; i++)
    await api(base, `${tenant}/comments`, {
      token,
      json: {
        taskId: ticket.id,
        message: `<p>Aggiornamento ${i}: abbiamo riavviato lo switch e controllato il cavo. ${'Dettagli. '.repeat(20)}</p>`,
        attachments: i % 3 === 0 ? [await upload(`foto-${i}.txt`, `foto ${i}\n`)] : [],
      },
    });
  const staff = await api<{ token: string }>(base, '/api/staff/auth/login', {
    json: { email: 'sara.conti@sportello.example', password: PASSWORD },
  });
  const customer = { token, company: PORTAL, contactId: String(cid) };
  const desk = { staffToken: staff.token };
  return [
    { name: 'sign-in', path: `/${PORTAL}/login`, storage: {}, goal: 90 },
    { name: 'overview', path: `/${PORTAL}/${cid}/overview`, storage: customer, goal: 90 },
    { name: 'My tickets', path: `/${PORTAL}/${cid}/tickets`, storage: customer, goal: 90 },
    { name: 'a ticket', path: `/${PORTAL}/${cid}/tickets/${ticket.id}`, storage: customer, goal: 90 },
    { name: 'new ticket', path: `/${PORTAL}/${cid}/tickets/new`, storage: customer, goal: 90 },
    { name: 'invoices', path: `/${PORTAL}/${cid}/invoices`, storage: customer, goal: 90 },
    {
      name: 'signing',
      path: `/${PORTAL}/documents/demo-firma-privacy-9b3e5d1f7a2c4e80`,
      storage: {},
      goal: 90,
    },
    { name: 'booking', path: `/appointments/${PORTAL}/demo-sopralluogo-8c1e4b2a6d3f`, storage: {}, goal: 90 },
    { name: 'desk inbox', path: `/${PORTAL}/staff`, storage: desk, goal: 80 },
    { name: 'desk ticket', path: `/${PORTAL}/staff/tickets/${ticket.id}`, storage: desk, goal: 80 },
  ];
}

interface Run {
  score: number;
  lcp: number;
  tbt: number;
  fcp: number;
  cls: number;
  mainThread: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const ratio = (after: number, before: number) => (before > 0 ? (after / before).toFixed(2) : '–');

async function main(): Promise<void> {
  const dists = [...(opt.dist ?? [])];
  if (opt['build-to'] || dists.length === 0) dists.push(buildWeb(opt['build-to'], cleanups, (m) => log(m)));
  const dataDir = mkdtempSync(join(tmpdir(), 'sportello-lighthouse-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // The server serves whatever this link points at (it looks files up per request): runs switch builds.
  const web = join(dataDir, 'web');
  const serve = (dist: string) => {
    rmSync(web, { force: true });
    symlinkSync(dist, web);
  };
  serve(dists[0]!);
  const server = await startServer(
    { DATA_DIR: dataDir, DEMO_DATA: 'true', WEB_DIST: web },
    await freePort(),
    undefined,
    'ignore',
  );
  cleanups.push(() => server.child.kill('SIGKILL'));
  const base = server.baseUrl;
  const wanted = opt.screens?.split(',');
  const screens = (await prepare(base)).filter((s) => !wanted || wanted.includes(s.name));
  if (opt.lhr) mkdirSync(opt.lhr, { recursive: true });

  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  cleanups.push(() => void chrome.kill());
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const context = browser.contexts()[0]!;
  // results[build][screen]
  const results = dists.map(() => new Map<string, Run[]>());
  for (let i = 0; i < RUNS; i++)
    for (const screen of screens)
      for (const [d, dist] of dists.entries()) {
        serve(dist);
        const label = dists.length > 1 ? `${screen.name} build ${d + 1}` : screen.name;
        // The session travels as the app keeps it; Lighthouse must then leave storage alone, so the HTTP
        // cache is emptied here instead: every run is a first visit of a signed-in user.
        const page = await context.newPage();
        await page.goto(`${base}/robots.txt`);
        await page.evaluate((entries) => {
          localStorage.clear();
          sessionStorage.clear();
          for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
        }, screen.storage);
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.clearBrowserCache');
        await cdp.detach();
        await page.close();
        const result = await lighthouse(`${base}${screen.path}`, {
          port: chrome.port,
          onlyCategories: ['performance'],
          disableStorageReset: true,
          logLevel: 'error',
          output: 'json',
        });
        if (!result) throw new Error(`${label}: Lighthouse gave no result`);
        const { lhr } = result;
        if (opt.lhr)
          writeFileSync(
            join(opt.lhr, `${screen.name.replace(/\W+/g, '-')}-build${d + 1}-run${i + 1}.json`),
            JSON.stringify(lhr),
          );
        // Lighthouse's own failures (a trace it could not record on a loaded machine) lose that run only.
        if (lhr.runtimeError) {
          log(`${label} run ${i + 1}: no figures (${lhr.runtimeError.code})`);
          continue;
        }
        const num = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
        const run: Run = {
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          fcp: num('first-contentful-paint'),
          lcp: num('largest-contentful-paint'),
          tbt: num('total-blocking-time'),
          cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
          mainThread: num('mainthread-work-breakdown'),
        };
        if (lhr.finalDisplayedUrl !== `${base}${screen.path}`)
          log(`  (${label} ended at ${lhr.finalDisplayedUrl.slice(base.length)})`);
        results[d]!.set(screen.name, [...(results[d]!.get(screen.name) ?? []), run]);
        log(
          `${label} run ${i + 1}: score ${run.score}, FCP ${run.fcp} ms, LCP ${run.lcp} ms, TBT ${run.tbt} ms, ` +
            `CLS ${run.cls.toFixed(3)}, main-thread work ${run.mainThread} ms`,
        );
      }
  await browser.close();

  console.log(`\nLighthouse ${RUNS > 1 ? `median of ${RUNS} runs` : '1 run'}, default mobile settings:\n`);
  const several = dists.length > 1;
  console.log(
    `| screen |${several ? ' build |' : ''} performance | goal | LCP | TBT | main-thread work | CLS |` +
      (several ? ' LCP, TBT, main thread vs build 1 |' : ''),
  );
  console.log(`|---|${several ? '---|' : ''}---|---|---|---|---|---|${several ? '---|' : ''}`);
  for (const screen of screens)
    for (const [d] of dists.entries()) {
      const runs = results[d]!.get(screen.name);
      const build = several ? ` ${d + 1} |` : '';
      if (!runs) {
        console.log(`| ${screen.name} |${build} (no run) | ≥ ${screen.goal} | | | | |${several ? ' |' : ''}`);
        continue;
      }
      const m = (k: keyof Run, of = runs) => median(of.map((r) => r[k]));
      const first = results[0]!.get(screen.name);
      const vs =
        several && d > 0 && first
          ? ` ${ratio(m('lcp'), m('lcp', first))}, ${ratio(m('tbt'), m('tbt', first))}, ${ratio(m('mainThread'), m('mainThread', first))} |`
          : several
            ? ' |'
            : '';
      console.log(
        `| ${screen.name} |${build} ${m('score')} | ≥ ${screen.goal} | ${(m('lcp') / 1000).toFixed(1)} s | ` +
          `${(m('tbt') / 1000).toFixed(2)} s | ${(m('mainThread') / 1000).toFixed(1)} s | ${m('cls').toFixed(3)} |${vs}`,
      );
    }
  if (opt.json)
    writeFileSync(
      opt.json,
      JSON.stringify(
        dists.map((dist, d) => ({ dist, runs: Object.fromEntries(results[d]!) })),
        null,
        2,
      ),
    );
}

main()
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(cleanup);
