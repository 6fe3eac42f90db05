/**
 * `npm run bench:two-process`: the same load against one API process and against two (each with its
 * own DATA_DIR, both on one PostgreSQL), alternately in rounds, on the ticket list (bench/lib/generate.ts's
 * known contact, 200 tickets) and the constant route (the whole app, no database). One autocannon
 * process at 50 connections is the client; with two servers it deals its connections between them.
 *
 *   npm run bench:two-process -- [--tickets 10000] [--rounds 3] [--duration 10]
 *
 * Target (issue 27): two processes ≥ 1.6 × one process's req/s, or the reason on this machine. The
 * reason is in the CPU each part spends per request (from /proc: each server, the autocannon process,
 * PostgreSQL's backends), which neighbours on a shared machine hardly move (they take time slices,
 * not work per request). From it the ceiling of the ratio on these cores: one process serves at most
 * one core's worth of its own work, two at most two, and all of it (servers, client, PostgreSQL) fits
 * in the cores the machine has: ceiling(n) = min(n / server, cores / (server + client + PostgreSQL)).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { autocannon, call, type Cannon } from './lib/cannon';
import { BENCH_CONTACT_EXT, BENCH_PASSWORD, BENCH_PORTAL, BENCH_USER } from './lib/generate';
import { freePort, startThrowawayPg } from './lib/pg';
import { cpuOf } from './lib/proc-cpu';
import { startServer, type RunningServer } from './lib/server';

const { values: opt } = parseArgs({
  options: {
    tickets: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
  },
});
const TICKETS = Number(opt.tickets);
const ROUNDS = Number(opt.rounds);
const DURATION = Number(opt.duration);
const CONNECTIONS = 50;
const CORES = cpus().length;
const t0 = performance.now();
const log = (...a: unknown[]) =>
  console.log(`[two-process ${String(Math.round((performance.now() - t0) / 1000)).padStart(4)} s]`, ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load1 = () => loadavg()[0]!.toFixed(1);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const children = new Set<ChildProcess>();
const cleanups: (() => void)[] = [];
const abort = (code: number) => {
  for (const c of children) c.kill('SIGKILL');
  for (const f of cleanups) f();
  process.exit(code);
};
process.once('SIGINT', () => abort(130));
process.once('SIGTERM', () => abort(143));

/** CPU ms of the machine's cores in all (busy: not idle, not iowait), from /proc/stat. */
function machineBusyMs(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  const busy = f[0]! + f[1]! + f[2]! + f[5]! + f[6]! + f[7]!;
  return busy * 10;
}

/** CPU ms of this process's reaped children (the autocannon runs, once each has exited). */
function reapedChildrenMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
}

async function drain(base: string): Promise<void> {
  let last = -1;
  for (let i = 0; i < 200; i++) {
    const { statements } = await call<{ statements: number }>(`${base}/bench/admin/stats`);
    if (statements === last) return;
    last = statements;
    await sleep(500);
  }
}

async function start(env: Record<string, string>): Promise<RunningServer> {
  const s = await startServer({ DEMO_DATA: 'false', ...env }, await freePort(), 'bench/lib/bench-server.ts');
  children.add(s.child);
  return s;
}

interface Run {
  round: number;
  route: string;
  processes: 1 | 2;
  load: string;
  got: Cannon;
  /** CPU used during the run, in cores (ms of CPU per ms of wall time). */
  servers: number[];
  client: number;
  postgres: number;
  machine: number;
}

async function main(): Promise<void> {
  log(
    `${CORES} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const pgServer = await startThrowawayPg();
  cleanups.push(() => pgServer.stop());
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'sportello-bench-two-')));
  cleanups.push(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const admin = new pg.Client({ connectionString: pgServer.url });
  await admin.connect();
  const servers: RunningServer[] = [];
  try {
    // One database, one SECRET (bench-server.ts's), a DATA_DIR each: what deploy/compose.yaml runs.
    const env = (i: number) => ({ DATABASE_URL: pgServer.url, DATA_DIR: dirs[i]!, LOG_LEVEL: 'warn' });
    servers.push(await start(env(0)));
    const a = servers[0]!.baseUrl;
    log(`generating ${TICKETS.toLocaleString('en')} tickets`);
    await call(`${a}/bench/admin/grow`, { json: { tickets: TICKETS } });
    for (;;) {
      await sleep(1000);
      const j = await call<{ running: boolean; error: string | null }>(`${a}/bench/admin/job`);
      if (j.error) throw new Error(j.error);
      if (!j.running) break;
    }
    servers.push(await start(env(1)));
    const bases = servers.map((s) => s.baseUrl);
    const { token } = await call<{ token: string }>(`${a}/api/auth/login`, {
      json: { userName: BENCH_USER, password: BENCH_PASSWORD },
    });
    const routes = [
      { name: 'ticket list (200 tickets)', path: `/api/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}/tickets` },
      { name: 'constant', path: '/bench/const' },
    ];
    const backendPids = async () =>
      (
        await admin.query<{ pid: number }>(
          'select pid from pg_stat_activity where backend_type = $1 and pid <> pg_backend_pid()',
          ['client backend'],
        )
      ).rows.map((r) => r.pid);

    const runs: Run[] = [];
    const measure = async (round: number, route: (typeof routes)[number], n: 1 | 2) => {
      const urls = bases.slice(0, n).map((b) => `${b}${route.path}`);
      for (const b of bases) await drain(b);
      await autocannon(urls, 2, { token, connections: CONNECTIONS, onChild: (c) => children.add(c) });
      for (const b of bases) await drain(b);
      const pids = await backendPids();
      const pgBefore = new Map(pids.map((p) => [p, cpuOf(p)]));
      const srvBefore = servers.map((s) => cpuOf(s.child.pid!));
      const clientBefore = reapedChildrenMs();
      const machineBefore = machineBusyMs();
      const load = load1();
      const started = performance.now();
      const got = await autocannon(urls, DURATION, {
        token,
        connections: CONNECTIONS,
        onChild: (c) => children.add(c),
      });
      const wall = performance.now() - started;
      const machine = machineBusyMs() - machineBefore;
      const client = reapedChildrenMs() - clientBefore;
      const srv = servers.map((s, i) => cpuOf(s.child.pid!) - srvBefore[i]!);
      let pgMs = 0;
      // A backend the pool closed during the run is gone from /proc: its share is lost (a few ms).
      for (const p of new Set([...pids, ...(await backendPids())]))
        pgMs += Math.max(0, cpuOf(p) - (pgBefore.get(p) ?? 0));
      const run: Run = {
        round,
        route: route.name,
        processes: n,
        load: `${load} → ${load1()}`,
        got,
        servers: srv.map((ms) => ms / wall),
        client: client / wall,
        postgres: pgMs / wall,
        machine: machine / wall,
      };
      runs.push(run);
      log(
        `round ${round}, ${route.name}, ${n} process${n > 1 ? 'es' : ''}: ${got.okRps} req/s p99 ${got.p99} ms errors ${got.errors}; ` +
          `CPU servers ${run.servers.map((c) => c.toFixed(2)).join(' + ')}, client ${run.client.toFixed(2)}, PostgreSQL ${run.postgres.toFixed(2)}, machine ${run.machine.toFixed(2)} of ${CORES}; load ${run.load}`,
      );
    };

    for (let round = 1; round <= ROUNDS; round++)
      for (const route of routes) {
        // Alternating which goes first, so neither always meets the other's leftovers.
        const order: (1 | 2)[] = round % 2 ? [1, 2] : [2, 1];
        for (const n of order) await measure(round, route, n);
      }

    const f2 = (x: number) => x.toFixed(2);
    const lines = [
      '',
      `PostgreSQL, ${TICKETS.toLocaleString('en')} tickets, ${CONNECTIONS} connections, ${DURATION} s runs, ${ROUNDS} rounds alternating (medians); ${CORES} cores shared by the servers, autocannon, PostgreSQL and whatever else runs.`,
      '',
      '| route | 1 process req/s | 2 processes req/s | 2 / 1 | CPU ms per request: server / client / PostgreSQL | two-core ceiling of 2 / 1 | machine busy, cores (1 / 2) |',
      '|---|---:|---:|---:|---|---:|---|',
    ];
    for (const route of routes) {
      const of = (n: 1 | 2) => runs.filter((r) => r.route === route.name && r.processes === n);
      const rps = (n: 1 | 2) => median(of(n).map((r) => r.got.okRps));
      // CPU per request is what neighbours hardly move (they take time slices, not work per request).
      const per = (pick: (r: Run) => number) =>
        median(runs.filter((r) => r.route === route.name).map((r) => pick(r) / Math.max(r.got.okRps, 1)));
      const srv = per((r) => 1000 * (r.servers[0]! + r.servers[1]!));
      const cli = per((r) => 1000 * r.client);
      const pgc = per((r) => 1000 * r.postgres);
      // What the cores allow: one process is bounded by one core for its own share as well.
      const all = srv + cli + pgc;
      const ceiling1 = Math.min(1000 / srv, (CORES * 1000) / all);
      const ceiling2 = Math.min((2 * 1000) / srv, (CORES * 1000) / all);
      const busy = (n: 1 | 2) => f2(median(of(n).map((r) => r.machine)));
      lines.push(
        `| ${route.name} | ${rps(1).toFixed(0)} | ${rps(2).toFixed(0)} | **${(rps(2) / rps(1)).toFixed(2)}** | ${srv.toFixed(3)} / ${cli.toFixed(3)} / ${pgc.toFixed(3)} | ${(ceiling2 / ceiling1).toFixed(2)} | ${busy(1)} / ${busy(2)} |`,
      );
    }
    lines.push(
      '',
      'Every run (CPU in cores: CPU ms used per ms of the run):',
      '',
      '| round | route | processes | req/s | p99 ms | errors | CPU servers / client / PostgreSQL / machine | load (1 min) |',
      '|---|---|---:|---:|---:|---:|---|---|',
    );
    for (const r of runs)
      lines.push(
        `| ${r.round} | ${r.route} | ${r.processes} | ${r.got.okRps} | ${r.got.p99} | ${r.got.errors} | ${r.servers.map(f2).join(' + ')} / ${f2(r.client)} / ${f2(r.postgres)} / ${f2(r.machine)} | ${r.load} |`,
      );
    console.log(lines.join('\n'));
  } finally {
    await admin.end();
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await Promise.race([s.exited, sleep(30_000)]);
    }
    for (const f of cleanups) f();
  }
}

await main();
