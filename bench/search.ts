/**
 * `npm run bench:search`: the one search (issue 16: "search p99 ≤ 100 ms at 50 connections with
 * 1,000,000 tickets on PostgreSQL") and the staff inbox (issue 13: "inbox view p99 ≤ 50 ms, search by
 * number or word p99 ≤ 100 ms" at 1,000,000 tickets and 2,000,000 comments). Loads the scale data of
 * bench/lib/generate.ts into a throwaway PostgreSQL (or PGlite with --db pglite; or the database of
 * BENCH_DATABASE_URL, kept between runs: a loaded one is not loaded again), then runs autocannon:
 * - customer: signed in as the known contact (portal p001, contact 1: its own 200 tickets among its
 *   company's, every list flag but administrator), searches of each kind: words every ticket has
 *   (title, conversation), a ticket number, an invoice number fragment, a two-character text and a
 *   word nothing has (every group read to its end);
 * - staff: an agent of portal p001 (10,000 tickets, 20,000 comments; a seventh of the tickets assigned
 *   to them), each inbox view, a company filter, the unread counts, and searches by number and word;
 * - the constant route through the app in the same run, the machine's ceiling at that moment.
 * Prints a Markdown table with the targets' verdicts.
 *
 *   npm run bench:search -- [--db pg|pglite] [--tickets N] [--duration S] [--connections C]
 *                           [--only customer|staff]
 *
 * BENCH_SERVER_BUNDLE=bench/.data/old/bench-server.js runs another commit's bench server (see
 * bench/overload.ts), to compare two commits in the same conditions.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { autocannon, call } from './lib/cannon';
import { searchCases, searchTable } from './lib/search-load';
import { freePort, startThrowawayPg, type ThrowawayPg } from './lib/pg';
import { startServer } from './lib/server';

const { values: opt } = parseArgs({
  options: {
    db: { type: 'string', default: 'pg' },
    tickets: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
  },
});
const DURATION = Number(opt.duration);
const CONNECTIONS = Number(opt.connections);
const children = new Set<ChildProcess>();
const log = (...a: unknown[]) => console.error('[search]', ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  const server = await startServer(
    env,
    await freePort(),
    // Another build's bench server (bench/overload.ts --save-bundle), to compare two commits.
    process.env.BENCH_SERVER_BUNDLE ?? 'bench/lib/bench-server.ts',
    'ignore',
  );
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
    const rows = await searchCases(
      b,
      async (url, token) => {
        const run = (s: number) =>
          autocannon(url, s, { token, connections: CONNECTIONS, onChild: (c) => children.add(c) });
        await run(2); // warm-up: prepared statements, pool, JIT
        return run(DURATION);
      },
      (m) => log(m),
      opt.only === 'customer' || opt.only === 'staff' ? opt.only : undefined,
    );
    // The constant route through the whole app in the same run: the machine's ceiling at this moment
    // (a shared machine's figures only mean something as a ratio to it).
    const constUrl = `${b}/bench/const`;
    await autocannon(constUrl, 2, { connections: CONNECTIONS, onChild: (c) => children.add(c) });
    const k = await autocannon(constUrl, DURATION, {
      connections: CONNECTIONS,
      onChild: (c) => children.add(c),
    });
    log(`constant: ${k.rps} req/s, p50 ${k.p50} ms, p99 ${k.p99} ms`);
    const missed = rows.filter((x) => x.r.p99 > x.target);
    const L = [
      `${opt.db === 'pg' ? 'PostgreSQL' : 'PGlite'}, ${tickets.toLocaleString('en')} tickets, ${CONNECTIONS} connections, ` +
        `${DURATION} s per case after a 2 s warm-up; load average at the end ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}.`,
      '',
      ...searchTable(rows, k),
      '',
      missed.length === 0
        ? '**Every target met** in this run.'
        : `**Not met** in this run: ${missed.map((x) => `${x.name} (${x.r.p99} ms)`).join('; ')}.`,
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
