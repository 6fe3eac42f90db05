/**
 * The embedded database past its capacity: many connections on one route, each sending its next request
 * as soon as the previous one is answered (bench/lib/overload-client.ts). Reports, per run, the answered
 * requests (2xx) per second with their p50 / p99, the 503s (and whether each carried Retry-After), other
 * answers, timeouts and the server's RSS (after start, and its peak: VmHWM). Servers of several builds
 * (variants) run in turn on the same data, round after round, so the neighbours' load on a shared machine
 * falls on each alike; the load average is printed with every run.
 *
 *   npm run bench:overload -- [--tickets N] [--duration S] [--connections C] [--rounds R]
 *     [--routes detail,list,list-off] [--data DIR] [--variant 'label|bundle.js|K=V,K=V' ...]
 *
 * A variant without a bundle (`after||`) runs the current sources' bench server, compiled as
 * `npm start` runs the API. `--data DIR` keeps the loaded database there and reuses it next time (a
 * million tickets take minutes to load). Default: one variant, the current sources, PGlite.
 *
 * To compare with another commit: check it out, `npm run bench:overload -- --save-bundle bench/.data/old`
 * (bundles its bench server there and exits; under the repository, where its packages resolve), come
 * back, and pass `--variant 'old|bench/.data/old/bench-server.js' --variant 'new||'`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { call } from './lib/cannon';
import { BENCH_CONTACT_EXT, BENCH_PASSWORD, BENCH_PORTAL, BENCH_USER } from './lib/generate';
import { freePort } from './lib/pg';
import { root, startServer, type RunningServer } from './lib/server';

const { values: opt } = parseArgs({
  options: {
    tickets: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '2' },
    routes: { type: 'string', default: 'detail,list' },
    data: { type: 'string' },
    variant: { type: 'string', multiple: true },
    'save-bundle': { type: 'string' },
  },
});
const TICKETS = Number(opt.tickets);
const DURATION = Number(opt.duration);
const CONNECTIONS = Number(opt.connections);
const children = new Set<ChildProcess>();
const log = (...a: unknown[]) => console.error('[overload]', ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The 1-minute load average. */
const load = () => loadavg()[0]!.toFixed(1);

const P = `/api/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}`;
const ROUTES: Record<string, { name: string; path: string; cacheMb: number }> = {
  detail: { name: 'ticket detail', path: `${P}/tickets/10`, cacheMb: 16 },
  list: { name: 'ticket list (200)', path: `${P}/tickets`, cacheMb: 16 },
  'list-off': { name: 'ticket list (200), cache off', path: `${P}/tickets`, cacheMb: 0 },
};

interface Variant {
  label: string;
  script: string;
  env: Record<string, string>;
}
const variants: Variant[] = (opt.variant ?? ['after||']).map((v) => {
  const [label = 'after', bundle = '', envs = ''] = v.split('|');
  const env = Object.fromEntries(
    envs
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  return { label, script: bundle ? resolve(bundle) : 'bench/lib/bench-server.ts', env };
});

/** CPU time the server has used, in ms (user + system, from the kernel; 100 ticks a second). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The server's own account of its memory (process.memoryUsage, from bench-server.ts's stats). */
interface Heap {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** The server's resident memory now and at its peak, from the kernel (no request to the busy server). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function drain(base: string): Promise<void> {
  let last = -1;
  for (let i = 0; i < 240; i++) {
    const { statements } = await call<{ statements: number }>(`${base}/bench/admin/stats`);
    if (statements === last) return;
    last = statements;
    await sleep(500);
  }
}

function client(url: string, token: string, seconds: number, connections = CONNECTIONS) {
  return new Promise<Record<string, unknown>>((res, rej) => {
    const child = spawn(
      join(root, 'node_modules/.bin/tsx'),
      ['bench/lib/overload-client.ts', url, token, String(connections), String(seconds)],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.add(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      children.delete(child);
      if (code !== 0) return rej(new Error(`overload client exited ${code}`));
      res(JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>);
    });
  });
}

async function start(v: Variant, dataDir: string): Promise<RunningServer> {
  const s = await startServer(
    { DATA_DIR: dataDir, DEMO_DATA: 'false', DATABASE_URL: '', LOG_LEVEL: 'info', ...v.env },
    await freePort(),
    v.script,
    'ignore',
  );
  children.add(s.child);
  return s;
}
async function stop(s: RunningServer): Promise<void> {
  s.child.kill('SIGTERM');
  await Promise.race([s.exited, sleep(30_000)]);
  s.child.kill('SIGKILL');
  children.delete(s.child);
}

/** Bundles the current sources' bench server into `dir` (with its migrations), as lib/server.ts does. */
async function saveBundle(dir: string): Promise<void> {
  const b = (await import(join(root, 'scripts/build-api.mjs'))) as {
    bundle(o: { entryPoints: Record<string, string>; outdir: string }): Promise<void>;
  };
  await b.bundle({ entryPoints: { 'bench-server': join(root, 'bench/lib/bench-server.ts') }, outdir: dir });
  cpSync(join(root, 'apps/api/src/db/migrations'), join(dir, 'migrations'), { recursive: true });
  log(`bundled into ${join(dir, 'bench-server.js')}`);
}

async function main(): Promise<void> {
  if (opt['save-bundle']) return saveBundle(resolve(opt['save-bundle']));
  const dataDir = resolve(opt.data ?? join(root, `bench/.data/overload-${TICKETS}`));
  const marker = join(dataDir, `loaded-${TICKETS}`);
  if (!existsSync(marker)) {
    mkdirSync(dataDir, { recursive: true });
    log(`loading ${TICKETS.toLocaleString('en')} tickets into ${dataDir}`);
    const s = await start(variants[variants.length - 1]!, dataDir);
    await call(`${s.baseUrl}/bench/admin/grow`, { json: { tickets: TICKETS } });
    let shown = 0;
    for (;;) {
      await sleep(2000);
      const j = await call<{ running: boolean; done: number; error: string | null }>(
        `${s.baseUrl}/bench/admin/job`,
      ).catch(() => ({ running: true, done: -1, error: null }));
      if (j.error) throw new Error(j.error);
      if (!j.running) break;
      if (j.done > shown) log(`  … ${(shown = j.done).toLocaleString('en')} tickets`);
    }
    await stop(s);
    writeFileSync(marker, new Date().toISOString());
  }
  const rows: string[] = [];
  const runs: unknown[] = [];
  for (let round = 1; round <= Number(opt.rounds); round++) {
    for (const v of variants) {
      const s = await start(v, dataDir);
      const pid = s.child.pid!;
      const b = s.baseUrl;
      const { token } = await call<{ token: string }>(`${b}/api/auth/login`, {
        json: { userName: BENCH_USER, password: BENCH_PASSWORD },
      });
      await sleep(2000);
      const atStart = memory(pid);
      for (const key of opt.routes.split(',')) {
        const r = ROUTES[key];
        if (!r) throw new Error(`unknown route ${key}`);
        await call(`${b}/bench/admin/list-cache`, { json: { mb: r.cacheMb } });
        // Warm-up at a few connections: JIT, prepared statements, the list cache.
        await client(`${b}${r.path}`, token, 2, 4);
        await drain(b);
        let maxRss = 0;
        const poll = setInterval(() => (maxRss = Math.max(maxRss, memory(pid).rss)), 200);
        // What the RSS is made of at its highest: V8's heap, or memory outside it (buffers, PGlite's
        // WebAssembly memory, the allocator's). The stats route touches no database: it is not queued.
        let atMax: Heap = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
        const heapPoll = setInterval(() => {
          void call<Heap>(`${b}/bench/admin/stats`)
            .then((h) => {
              if (h.rss > atMax.rss) atMax = h;
            })
            .catch(() => undefined);
        }, 500);
        const before = load();
        const cpuBefore = cpuMs(pid);
        const got = await client(`${b}${r.path}`, token, DURATION);
        const after = load();
        // The server's CPU per answered request: on a shared machine the one figure the neighbours'
        // load hardly moves (503s and everything else the server did are charged to the 2xx).
        const cpuPerOk = (cpuMs(pid) - cpuBefore) / Math.max(Number(got.ok), 1);
        clearInterval(poll);
        clearInterval(heapPoll);
        await drain(b);
        const m = memory(pid);
        const mb = (n: number) => Math.round(n / 1024 / 1024);
        const run = {
          round,
          variant: v.label,
          route: r.name,
          load: [before, after],
          ...got,
          cpuPerOk,
          atStart,
          m,
          maxRss,
          atMax,
        };
        runs.push(run);
        log(JSON.stringify(run));
        const other = Object.entries(got.other as Record<string, number>)
          .map(([k, n]) => `${n}×${k}`)
          .join(' ');
        rows.push(
          `| ${round} | ${v.label} | ${r.name} | ${before} → ${after} | ${String(got.okPerSecond)} | ${cpuPerOk.toFixed(1)} | ${String(got.okP50)} / ${String(got.okP99)} (max ${String(got.okMax)}) | ` +
            `${String(got.refused)} (${String(got.refusedWithRetryAfter)} with Retry-After; p99 ${String(got.refusedP99 ?? '–')}) | ${other || '0'} | ${String(got.timeouts)} | ${String(got.errors)} | ` +
            `${mb(atStart.rss)} / ${mb(maxRss)} (peak ${mb(m.peak)}) | ${mb(atMax.heapTotal)} / ${mb(atMax.external)} / ${mb(atMax.rss - atMax.heapTotal - atMax.external)} |`,
        );
      }
      await stop(s);
    }
  }
  console.log(
    [
      `PGlite, ${TICKETS.toLocaleString('en')} tickets, ${CONNECTIONS} connections, ${DURATION} s per run, compiled server, LOG_LEVEL=info.`,
      '',
      '| round | build | route | load average (1 min) | 2xx/s | server CPU ms per 2xx | 2xx p50 / p99 ms | 503 | other | timeouts | errors | RSS MB after start / max (VmHWM) | at the highest sample: V8 heap / external / rest MB |',
      '|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n'),
  );
  writeFileSync(join(dataDir, `runs-${Date.now()}.json`), JSON.stringify(runs, null, 1));
}

const abort = (code: number) => {
  for (const c of children) c.kill('SIGKILL');
  process.exit(code);
};
process.once('SIGINT', () => abort(130));
process.once('SIGTERM', () => abort(143));
await main();
