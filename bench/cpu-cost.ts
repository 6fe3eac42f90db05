/**
 * `npx tsx bench/cpu-cost.ts`: CPU milliseconds per request, of the API process and of PostgreSQL (all
 * its processes), for the routes `npm run bench:search` measures and the constant route. CPU time, not
 * wall time: on a machine shared with other work, req/s and p99 move with the neighbours' load; the CPU
 * a request costs moves less (contention for caches and cores still inflates it: compare with the
 * constant route of the same run), so a change can be judged there and its latency measured once the
 * machine is quiet.
 *
 * Loads the scale data like bench:search (or uses the loaded database of BENCH_DATABASE_URL, which must
 * be the only database in use on its cluster: every postgres process's CPU is counted), then for each
 * case runs autocannon with a few connections and reads /proc before and after.
 *
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/cpu-cost.ts [--tickets N] [--duration S]
 *     [--connections C] [--only customer|staff|lists] [--match text]
 *
 * BENCH_SERVER_BUNDLE=bench/.data/old/bench-server.js measures another commit's bench server (see
 * bench/overload.ts).
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { autocannon, call } from './lib/cannon';
import { BENCH_CONTACT_EXT, BENCH_PASSWORD, BENCH_PORTAL, BENCH_USER } from './lib/generate';
import { freePort, startThrowawayPg, type ThrowawayPg } from './lib/pg';
import { P, QUERIES, STAFF, staffToken } from './lib/search-cases';
import { cpuOf } from './lib/proc-cpu';
import { startServer } from './lib/server';

const { values: opt } = parseArgs({
  options: {
    tickets: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '4' },
    /** customer (the one search), staff (the desk), lists (customer lists beside the bare replay of their SQL). */
    only: { type: 'string' },
    match: { type: 'string' },
  },
});
const children = new Set<ChildProcess>();
const log = (...a: unknown[]) => console.error('[cpu]', ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU ms of every postgres process, by pid (a backend that ends between two reads is lost: rare). */
function postgresCpu(): Map<number, number> {
  const m = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    m.set(Number(d), cpuOf(Number(d)));
  }
  return m;
}
const delta = (a: Map<number, number>, b: Map<number, number>) =>
  [...b].reduce((s, [pid, ms]) => s + ms - (a.get(pid) ?? 0), 0);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sportello-cpu-'));
  const pg: ThrowawayPg = await startThrowawayPg();
  const env = { DATA_DIR: dir, DEMO_DATA: 'false', LOG_LEVEL: 'warn', DATABASE_URL: pg.url };
  const server = await startServer(
    env,
    await freePort(),
    // Another build's bench server (bench/overload.ts --save-bundle), to compare two commits.
    process.env.BENCH_SERVER_BUNDLE ?? 'bench/lib/bench-server.ts',
    'ignore',
  );
  children.add(server.child);
  const pid = server.child.pid!;
  const b = server.baseUrl;
  try {
    const tickets = Number(opt.tickets);
    await call(`${b}/bench/admin/grow`, { json: { tickets } });
    for (;;) {
      await sleep(1000);
      const j = await call<{ running: boolean; error: string | null }>(`${b}/bench/admin/job`);
      if (j.error) throw new Error(j.error);
      if (!j.running) break;
    }
    const cases: { name: string; url: string; token?: string }[] = [
      { name: 'constant route', url: `${b}/bench/const` },
    ];
    if (!opt.only || opt.only === 'customer') {
      const { token } = await call<{ token: string }>(`${b}/api/auth/login`, {
        json: { userName: BENCH_USER, password: BENCH_PASSWORD },
      });
      for (const { name, q } of QUERIES)
        cases.push({ name: `customer: ${name}`, url: `${b}${P}${encodeURIComponent(q)}`, token });
    }
    if (!opt.only || opt.only === 'staff') {
      const token = await staffToken(b);
      for (const { name, path } of STAFF) cases.push({ name: `staff: ${name}`, url: `${b}${path}`, token });
    }
    if (!opt.only || opt.only === 'lists') {
      // Each list, and the bare replay of the statements it ran (bench/lib/bench-server.ts): the
      // difference is the API's own work per request.
      const { token } = await call<{ token: string }>(`${b}/api/auth/login`, {
        json: { userName: BENCH_USER, password: BENCH_PASSWORD },
      });
      const base = `/api/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}`;
      for (const [key, name, path] of [
        ['list', 'My tickets (200)', `${base}/tickets`],
        ['detail', 'ticket detail', `${base}/tickets/10`],
        ['invoices', 'invoices from/to', `${base}/invoices?from=2025-11-20&to=2026-11-20`],
        ['reports', 'activity reports', `${base}/activities/activityreports`],
        ['documents', 'documents', `${base}/documents`],
        ['me', '/api/Users/me', '/api/Users/me'],
      ] as const) {
        await call(`${b}/bench/admin/capture`, { json: { name: key, url: path, token } });
        cases.push({ name: `list: ${name}`, url: `${b}${path}`, token });
        cases.push({ name: `list: ${name}, bare SQL`, url: `${b}/bench/sql/${key}` });
      }
    }
    const rows: string[] = [];
    for (const c of cases) {
      if (opt.match && c.name !== 'constant route' && !c.name.includes(opt.match)) continue;
      const run = (s: number) =>
        autocannon(c.url, s, {
          token: c.token,
          connections: Number(opt.connections),
          onChild: (x) => children.add(x),
        });
      await run(1); // warm-up: prepared statements, JIT
      const app0 = cpuOf(pid);
      const sys0 = cpuOf(pid, true);
      const db0 = postgresCpu();
      const r = await run(Number(opt.duration));
      const app = (cpuOf(pid) - app0) / r.requests;
      const sys = (cpuOf(pid, true) - sys0) / r.requests;
      const db = delta(db0, postgresCpu()) / r.requests;
      log(
        `${c.name}: ${r.requests} requests, app ${app.toFixed(3)} ms (system ${sys.toFixed(3)}), db ${db.toFixed(3)} ms`,
      );
      rows.push(
        `| ${c.name} | ${r.requests} | ${app.toFixed(3)} | ${sys.toFixed(3)} | ${db.toFixed(3)} | ${(app + db).toFixed(3)} | ${r.errors} |`,
      );
    }
    console.log(
      [
        `${Number(opt.connections)} connections, ${opt.duration} s per case; load average at the end ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}.`,
        '',
        '| case | requests | API CPU ms / request | of which system | PostgreSQL CPU ms / request | total | errors |',
        '|---|---:|---:|---:|---:|---:|---:|',
        ...rows,
      ].join('\n'),
    );
  } finally {
    server.child.kill('SIGTERM');
    await Promise.race([server.exited, sleep(20_000)]);
    server.child.kill('SIGKILL');
    pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
