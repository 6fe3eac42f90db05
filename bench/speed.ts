/**
 * `npm run bench:speed`: the API's per-request cost in a few minutes, for a shared or small machine
 * where the full `npm run bench` is too long. One database, a small scale, short runs; every figure is a
 * ratio taken in the same run (the app's constant route against a bare Fastify in the same process, each
 * route against the bare replay of its own SQL, each p99 against the constant route's p99), so runs on
 * different or busy machines compare; and the server's CPU per request of the constant and the bare at a
 * fixed rate (on a small machine the bare route's req/s at full load is the client's ceiling, see
 * constantCpu). Prints a Markdown table.
 *
 *   npm run bench:speed -- [--db pglite|pg] [--tickets N] [--duration S] [--connections C] [--only a,b]
 *
 * The server runs compiled as `npm start` runs it (BENCH_TSX=1: through tsx instead) at LOG_LEVEL
 * (default `info`, the server's default), its log going to /dev/null.
 * BENCH_SERVER_BUNDLE=bench/.data/old/bench-server.js measures another commit's bench server (see
 * bench/overload.ts), so a change can be judged by runs of both taken in turn.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { autocannon, call, type Cannon } from './lib/cannon';
import { BENCH_CONTACT_EXT, BENCH_PASSWORD, BENCH_PORTAL, BENCH_USER } from './lib/generate';
import { freePort, startThrowawayPg, type ThrowawayPg } from './lib/pg';
import { cpuOf } from './lib/proc-cpu';
import { startServer } from './lib/server';

const { values: opt } = parseArgs({
  options: {
    db: { type: 'string', default: 'pglite' },
    tickets: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
  },
});
const DURATION = Number(opt.duration);
const CONNECTIONS = Number(opt.connections);
const children = new Set<ChildProcess>();
/** The bench server's origin (its admin routes), set once it runs. */
let admin = '';
const log = (...a: unknown[]) => console.error('[speed]', ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const P = `/api/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}`;
/** Routes measured against the bare replay of their own statements (`bare: false`: no replay). */
const CASES: { key: string; name: string; path: string; cacheOff?: boolean }[] = [
  { key: 'list', name: 'My tickets (200), list cache on', path: `${P}/tickets` },
  { key: 'list-off', name: 'My tickets (200), list cache off', path: `${P}/tickets`, cacheOff: true },
  { key: 'detail', name: 'Ticket detail', path: `${P}/tickets/10` },
  { key: 'reports', name: 'Activity reports', path: `${P}/activities/activityreports` },
  { key: 'contracts', name: 'Activity contracts', path: `${P}/activitycontracts` },
  { key: 'services', name: 'Service contracts', path: `${P}/activitycontracts/servicecontracts` },
  { key: 'documents', name: 'Documents', path: `${P}/documents` },
  { key: 'invoices', name: 'Invoices from/to', path: `${P}/invoices?from=2025-11-20&to=2026-11-20` },
  { key: 'estimates', name: 'Estimates', path: `${P}/estimates` },
  { key: 'me', name: '/api/Users/me', path: '/api/Users/me' },
];

/**
 * Runs the URLs in turn, in short slices (a, b, c, a, b, c, …), after a warm-up of each: on a shared
 * machine the load of the neighbours changes from second to second, and interleaving spreads it over
 * every URL alike, so their ratios hold. Per URL: mean req/s, median p50 / p99 of the slices.
 */
async function interleaved(
  targets: { url: string; token?: string }[],
  slices = 3,
): Promise<(Cannon & { sliceRps: number[] })[]> {
  // autocannon stops sending, but the server may still be working through queued requests: the next
  // slice starts once no SQL statement has been sent for 500 ms.
  const drain = async () => {
    let last = -1;
    for (let i = 0; i < 240; i++) {
      const { statements } = await call<{ statements: number }>(`${admin}/bench/admin/stats`);
      if (statements === last) return;
      last = statements;
      await sleep(500);
    }
  };
  const run = (t: { url: string; token?: string }, seconds: number) =>
    autocannon(t.url, seconds, {
      token: t.token,
      connections: CONNECTIONS,
      onChild: (c: ChildProcess) => children.add(c),
    });
  for (const t of targets) await run(t, 1); // warm-up: JIT, prepared statements, pool
  const got: Cannon[][] = targets.map(() => []);
  for (let i = 0; i < slices; i++)
    // Odd rounds in reverse order: a pair's two slices take turns at going first.
    for (const [k, t] of i % 2 ? [...targets.entries()].reverse() : [...targets.entries()]) {
      await drain();
      got[k]!.push(await run(t, Math.max(1, Math.round(DURATION / 3))));
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return got.map((runs) => ({
    rps: Math.round(runs.reduce((a, r) => a + r.rps, 0) / runs.length),
    okRps: Math.round(runs.reduce((a, r) => a + r.okRps, 0) / runs.length),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    requests: runs.reduce((a, r) => a + r.requests, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
    shed: runs.reduce((a, r) => a + r.shed, 0),
    timeouts: runs.reduce((a, r) => a + r.timeouts, 0),
    sliceRps: runs.map((r) => r.rps),
  }));
}

/**
 * The median, over the rounds, of a's req/s over b's in the same round: with client and server on
 * one small machine one slice's figure moves by a fifth from the next's, and a ratio of two means
 * moved with it (bench/RESULTS.md, session 9); slices run side by side share their moment.
 */
function pairedRatio(
  a: { sliceRps: number[] },
  b: { sliceRps: number[] },
): { median: number; lo: number; hi: number } {
  return spread(a.sliceRps.map((x, i) => x / Math.max(b.sliceRps[i]!, 1)));
}

function spread(xs: number[]): { median: number; lo: number; hi: number } {
  const r = [...xs].sort((p, q) => p - q);
  return { median: r[Math.floor(r.length / 2)]!, lo: r[0]!, hi: r[r.length - 1]! };
}

/** The fixed load at which the constant's CPU per request is read: well under what either answers. */
const FIXED_RATE = 5000;

/**
 * The server's CPU time per request of the bare and the app's constant, at the same fixed rate, in 7
 * paired rounds. At full load on a small machine the client shares the cores: the bare route's req/s
 * is then autocannon's ceiling, not the framework's, and the req/s ratio reads the app against the
 * client. CPU per request is what the server spends; bare / app is the share of bare Fastify's
 * capacity the app keeps. Linux only (/proc): null elsewhere.
 */
async function constantCpu(
  pid: number,
  bareUrl: string,
  appUrl: string,
): Promise<{ bareUs: number; appUs: number; ratio: { median: number; lo: number; hi: number } } | null> {
  if (cpuOf(pid) === 0) return null;
  const seconds = 3;
  const perRequest = async (url: string) => {
    const before = cpuOf(pid);
    const r = await autocannon(url, seconds, {
      connections: 10,
      rate: FIXED_RATE,
      onChild: (c: ChildProcess) => children.add(c),
    });
    return ((cpuOf(pid) - before) * 1000) / Math.max(r.requests, 1);
  };
  const bare: number[] = [];
  const app: number[] = [];
  for (let i = 0; i < 7; i++) {
    if (i % 2) app.push(await perRequest(appUrl));
    bare.push(await perRequest(bareUrl));
    if (i % 2 === 0) app.push(await perRequest(appUrl));
  }
  const us = (xs: number[]) => Math.round(spread(xs).median * 10) / 10;
  return { bareUs: us(bare), appUs: us(app), ratio: spread(bare.map((x, i) => x / app[i]!)) };
}

interface Row {
  name: string;
  real: Cannon;
  /** The app's constant route, interleaved with this row's runs. */
  constant: Cannon;
  bare?: Cannon;
  statements?: number;
  bytes?: number;
}

async function main(): Promise<void> {
  let pg: ThrowawayPg | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'sportello-speed-'));
  const env: Record<string, string> = {
    DATA_DIR: dir,
    DEMO_DATA: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    DATABASE_URL: '',
  };
  if (opt.db === 'pg') {
    pg = await startThrowawayPg();
    env.DATABASE_URL = pg.url;
  }
  const server = await startServer(
    env,
    await freePort(),
    process.env.BENCH_SERVER_BUNDLE ?? 'bench/lib/bench-server.ts',
    'ignore',
  );
  children.add(server.child);
  const b = server.baseUrl;
  admin = b;
  try {
    const tickets = Number(opt.tickets);
    log(`${opt.db}: loading ${tickets} tickets`);
    await call(`${b}/bench/admin/grow`, { json: { tickets } });
    for (;;) {
      await sleep(1000);
      const j = await call<{ running: boolean; error: string | null }>(`${b}/bench/admin/job`);
      if (j.error) throw new Error(j.error);
      if (!j.running) break;
    }
    const { token } = await call<{ token: string }>(`${b}/api/auth/login`, {
      json: { userName: BENCH_USER, password: BENCH_PASSWORD },
    });
    const { bareUrl, rss: startRss } = await call<{ bareUrl: string; rss: number }>(`${b}/bench/admin/stats`);
    let maxRss = startRss;
    const rssPoll = setInterval(() => {
      call<{ rss: number }>(`${b}/bench/admin/stats`)
        .then((st) => (maxRss = Math.max(maxRss, st.rss)))
        .catch(() => {});
    }, 1000);
    const only = opt.only?.split(',');
    const rows: Row[] = [];
    const run = async (name: string, f: () => Promise<Row>) => {
      if (only && !only.some((o) => name.toLowerCase().includes(o.toLowerCase()))) return;
      const r = await f();
      log(
        `${r.name}: ${r.real.rps} req/s p99 ${r.real.p99} ms${r.bare ? `; bare ${r.bare.rps} req/s` : ''}; constant p99 ${r.constant.p99} ms`,
      );
      rows.push(r);
    };
    const appConst = { url: `${b}/bench/const` };
    // Seven rounds, not three: this ratio is the one the issue's goal names.
    const [bareConst, appConstant] = await interleaved([{ url: `${bareUrl}/bench/const` }, appConst], 7);
    const ofBare = pairedRatio(appConstant!, bareConst!);
    log(`constant: bare Fastify ${bareConst!.rps} req/s, through the app ${appConstant!.rps} req/s`);
    const cpu = await constantCpu(server.child.pid!, `${bareUrl}/bench/const`, appConst.url);
    if (cpu) log(`constant, CPU per request: bare ${cpu.bareUs} µs, app ${cpu.appUs} µs`);
    await run('unknown /api path', async () => {
      const [real, constant] = await interleaved([{ url: `${b}/api/no-such-route` }, appConst]);
      return { name: 'unknown /api path (JSON 404)', real: real!, constant: constant! };
    });
    for (const c of CASES) {
      await run(c.name, async () => {
        await call(`${b}/bench/admin/list-cache`, { json: { mb: c.cacheOff ? 0 : 16 } });
        const cap = await call<{ status: number; statements: number; bytes: number }>(
          `${b}/bench/admin/capture`,
          { json: { name: c.key, url: c.path, token } },
        );
        if (cap.status !== 200) throw new Error(`${c.path} answered ${cap.status}`);
        const [real, bare, constant] = await interleaved([
          { url: `${b}${c.path}`, token },
          { url: `${b}/bench/sql/${c.key}` },
          appConst,
        ]);
        return {
          name: c.name,
          real: real!,
          bare: bare!,
          constant: constant!,
          statements: cap.statements,
          bytes: cap.bytes,
        };
      });
    }
    clearInterval(rssPoll);
    const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
    const pct = (a: number, z: number) => `${Math.round((100 * a) / Math.max(z, 1))} %`;
    const L = [
      `${opt.db === 'pg' ? 'PostgreSQL' : 'PGlite'}, ${tickets.toLocaleString('en')} tickets, ${CONNECTIONS} connections, ` +
        `${DURATION} s per route in 3 interleaved slices, LOG_LEVEL=${env.LOG_LEVEL}, ${process.env.BENCH_TSX === '1' ? 'tsx' : 'compiled'}; ` +
        `load average at the end ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}; server RSS ${mb(startRss)} after loading, at most ${mb(maxRss)} during the runs.`,
      '',
      '| route | req/s | p50 / p99 ms | p99 / constant p99 (constant p99 ms) | bare SQL req/s | real / bare SQL | statements, bytes | errors |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      `| bare Fastify constant (framework ceiling) | ${bareConst!.rps} | ${bareConst!.p50} / ${bareConst!.p99} | | | | | ${bareConst!.errors} |`,
      `| constant through the app | ${appConstant!.rps} (${Math.round(100 * ofBare.median)} % of bare Fastify, median of 7 rounds, ${Math.round(100 * ofBare.lo)}–${Math.round(100 * ofBare.hi)} %) | ${appConstant!.p50} / ${appConstant!.p99} | 1.0 | | | | ${appConstant!.errors} |`,
      ...(cpu
        ? [
            `| constant, server CPU per request at ${FIXED_RATE.toLocaleString('en')} req/s: bare ${cpu.bareUs} µs, app ${cpu.appUs} µs | ` +
              `(bare / app ${Math.round(100 * cpu.ratio.median)} %, median of 7 rounds, ${Math.round(100 * cpu.ratio.lo)}–${Math.round(100 * cpu.ratio.hi)} %) | | | | | | |`,
          ]
        : []),
      ...rows.map(
        (r) =>
          `| ${r.name} | ${r.real.rps} | ${r.real.p50} / ${r.real.p99} | ${(r.real.p99 / Math.max(r.constant.p99, 1)).toFixed(1)} (${r.constant.p99}) | ` +
          `${r.bare ? r.bare.rps : ''} | ${r.bare ? pct(r.real.rps, r.bare.rps) : ''} | ${r.statements ?? ''}${r.bytes !== undefined ? `, ${r.bytes}` : ''} | ` +
          `${r.bare ? r.real.errors + r.bare.errors : r.real.errors - r.real.non2xx} |`,
      ),
    ];
    console.log(L.join('\n'));
  } finally {
    server.child.kill('SIGTERM');
    await Promise.race([server.exited, sleep(20_000)]);
    server.child.kill('SIGKILL');
    pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const abort = (code: number) => {
  for (const c of children) c.kill('SIGKILL');
  process.exit(code);
};
process.once('SIGINT', () => abort(130));
process.once('SIGTERM', () => abort(143));
await main();
