/**
 * `npm run bench:search`: the one search (issue 16: "search p99 ≤ 100 ms at 50 connections with
 * 1,000,000 tickets on PostgreSQL"). Loads the scale data of bench/lib/generate.ts into a throwaway
 * PostgreSQL (or PGlite with --db pglite), signs in as the known contact (portal p001, contact 1: its
 * own 200 tickets among its company's, every list flag but administrator) and runs autocannon on
 * searches of each kind in turn: words every ticket has (title, conversation), a ticket number, an
 * invoice number fragment, a two-character text and a word nothing has (every group read to its end).
 * Prints a Markdown table with the target's verdict.
 *
 *   npm run bench:search -- [--db pg|pglite] [--tickets N] [--duration S] [--connections C]
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { autocannon, call, type Cannon } from './lib/cannon';
import { BENCH_CONTACT_EXT, BENCH_PASSWORD, BENCH_PORTAL, BENCH_USER } from './lib/generate';
import { freePort, startThrowawayPg, type ThrowawayPg } from './lib/pg';
import { startServer } from './lib/server';

const { values: opt } = parseArgs({
  options: {
    db: { type: 'string', default: 'pg' },
    tickets: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
});
const DURATION = Number(opt.duration);
const CONNECTIONS = Number(opt.connections);
const TARGET_P99_MS = 100;
const children = new Set<ChildProcess>();
const log = (...a: unknown[]) => console.error('[search]', ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const P = `/api/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}/search?q=`;
const QUERIES: { name: string; q: string }[] = [
  { name: 'a word of every title ("printer")', q: 'printer' },
  { name: 'a word of every conversation ("technician")', q: 'technician' },
  { name: 'a ticket number ("T-150")', q: 'T-150' },
  { name: 'an invoice number fragment ("INV-10")', q: 'INV-10' },
  { name: 'two characters ("of")', q: 'of' },
  { name: 'a word nothing has ("zebra")', q: 'zebra' },
];

async function main(): Promise<void> {
  let pg: ThrowawayPg | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'sportello-search-'));
  const env: Record<string, string> = {
    DATA_DIR: dir,
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  };
  if (opt.db === 'pg') {
    pg = await startThrowawayPg();
    env.DATABASE_URL = pg.url;
  }
  const server = await startServer(env, await freePort(), 'bench/lib/bench-server.ts', 'ignore');
  children.add(server.child);
  const b = server.baseUrl;
  try {
    const tickets = Number(opt.tickets);
    log(`${opt.db}: loading ${tickets.toLocaleString('en')} tickets`);
    const started = Date.now();
    await call(`${b}/bench/admin/grow`, { json: { tickets } });
    for (;;) {
      await sleep(1000);
      const j = await call<{ running: boolean; error: string | null }>(`${b}/bench/admin/job`);
      if (j.error) throw new Error(j.error);
      if (!j.running) break;
    }
    log(`loaded in ${Math.round((Date.now() - started) / 1000)} s`);
    const { token } = await call<{ token: string }>(`${b}/api/auth/login`, {
      json: { userName: BENCH_USER, password: BENCH_PASSWORD },
    });
    const rows: { name: string; q: string; groups: string; r: Cannon }[] = [];
    for (const { name, q } of QUERIES) {
      const url = `${b}${P}${encodeURIComponent(q)}`;
      const answer = await call<{ groups: { kind: string; items: unknown[] }[] }>(url, {
        headers: { authorization: `Bearer ${token}` },
      });
      const groups = answer.groups.map((g) => `${g.kind} ${g.items.length}`).join(', ') || 'none';
      const run = (s: number) =>
        autocannon(url, s, { token, connections: CONNECTIONS, onChild: (c) => children.add(c) });
      await run(2); // warm-up: prepared statements, pool, JIT
      const r = await run(DURATION);
      log(`${name}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}`);
      rows.push({ name, q, groups, r });
    }
    const worst = Math.max(...rows.map((x) => x.r.p99));
    const L = [
      `${opt.db === 'pg' ? 'PostgreSQL' : 'PGlite'}, ${tickets.toLocaleString('en')} tickets, ${CONNECTIONS} connections, ` +
        `${DURATION} s per search after a 2 s warm-up; load average at the end ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}.`,
      '',
      '| search | groups found (items shown) | req/s | p50 ms | p99 ms | errors |',
      '|---|---|---:|---:|---:|---:|',
      ...rows.map(
        (x) => `| ${x.name} | ${x.groups} | ${x.r.rps} | ${x.r.p50} | ${x.r.p99} | ${x.r.errors} |`,
      ),
      '',
      `Target p99 ≤ ${TARGET_P99_MS} ms: worst p99 ${worst} ms, **${worst <= TARGET_P99_MS ? 'met' : 'not met'}**.`,
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
