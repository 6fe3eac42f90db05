/**
 * `npm run bench:import`: times the back-office import (issue 12), each document imported twice, the
 * second time unchanged, and proves that the second import changed no row.
 *
 *   npm run bench:import -- [--db pg|pglite] [--tickets N] [--generated-only]
 *
 * --db pg (default): a throwaway PostgreSQL cluster (bench/lib/pg.ts; BENCH_DATABASE_URL names an empty
 * database of yours instead); pglite: in-memory PGlite. --tickets: the generated document's tickets
 * (default 1,000,000; `generatedDocument`: three comments a ticket, an attachment every fifth comment,
 * ten companies). The example document and the demo portal are imported first unless --generated-only.
 *
 * For each import: wall time, the import's steps (validation, files, HTML, the transaction), statements,
 * and the process's peak RSS during it. Around the unchanged re-import of the generated document, every
 * table of the schema is compared: rows whose version (`xmin`) is newer than a transaction started just
 * before it (written) or whose `xmax` is (locked or deleted), row counts, and on PostgreSQL the
 * statistics' inserted / updated / deleted tuples; every sequence's last value; the list counters and
 * the events. All must stand still. The machine's load average is printed at the start and the end.
 *
 * A million tickets take a few GB of heap (the document, as the import receives it, is one object):
 * the npm script raises Node's heap limit.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase, type Database } from '../apps/api/src/db/client';
import { migrate } from '../apps/api/src/db/migrate';
import { buildDemoDocument } from '../apps/api/src/modules/admin/demo-data';
import { importDocument, type ImportStep } from '../apps/api/src/modules/admin/import.service';
import { generatedDocument } from '../apps/api/src/modules/admin/import.test-support';
import { systemClock } from '../apps/api/src/platform/clock';
import type { AppContext } from '../apps/api/src/platform/context';
import { FileUrlSigner } from '../apps/api/src/platform/files';
import { openFileStore } from '../apps/api/src/platform/file-store';
import { startThrowawayPg, type ThrowawayPg } from './lib/pg';

const { values: opt } = parseArgs({
  options: {
    db: { type: 'string', default: 'pg' },
    tickets: { type: 'string', default: '1000000' },
    'generated-only': { type: 'boolean', default: false },
  },
});
if (opt.db !== 'pg' && opt.db !== 'pglite') throw new Error('--db is pg or pglite');
const TICKETS = Number(opt.tickets);

const t0 = performance.now();
const log = (...a: unknown[]) =>
  console.log(`[import ${String(Math.round((performance.now() - t0) / 1000)).padStart(5)} s]`, ...a);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024).toLocaleString('en')} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface Run {
  ms: number;
  statements: number;
  peakRss: number;
  steps: Partial<Record<ImportStep, number>>;
}

/** One import with its time, statements, steps and the peak RSS sampled while it ran. */
async function timedImport(ctx: AppContext, doc: unknown): Promise<Run> {
  const database = ctx.database;
  const statements = database.stats.statements;
  const steps: Run['steps'] = {};
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 100);
  const started = performance.now();
  try {
    await importDocument(ctx, doc, {
      onStep: (step, ms) => {
        steps[step] = ms;
      },
    });
  } finally {
    clearInterval(sampler);
  }
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  return {
    ms: performance.now() - started,
    statements: database.stats.statements - statements,
    peakRss,
    steps,
  };
}

const describe = (r: Run) =>
  `${seconds(r.ms)}, ${r.statements.toLocaleString('en')} statements, peak RSS ${mb(r.peakRss)} ` +
  `(${Object.entries(r.steps)
    .map(([k, v]) => `${k} ${seconds(v)}`)
    .join(', ')})`;

// ---------------------------------------------------------------- the proof that nothing changed

interface TableState {
  rows: number;
  /** Rows whose xmin / xmax is a transaction newer than the mark (written / locked or deleted since). */
  written: number;
  touched: number;
  /** PostgreSQL's statistics: tuples inserted, updated, deleted (cumulative). */
  ins: number;
  upd: number;
  del: number;
}

interface Snapshot {
  tables: Map<string, TableState>;
  sequences: Map<string, string>;
  listVersions: string;
  events: number;
}

async function query<T>(database: Database, text: string): Promise<T[]> {
  return (await database.withConnection((s) => s.query<T>(text))).rows;
}

/** A transaction id: rows written after it have a newer xmin. */
async function mark(database: Database): Promise<string> {
  const [r] = await query<{ x: string }>(database, `select (txid_current() % 4294967296)::text as x`);
  return r!.x;
}

/**
 * The state the proof compares. A connection's statistics reach the views when it goes idle, at once
 * or, if it reported less than a second before, within 10 s (PostgreSQL 15+): hence the pause and
 * pg_stat_clear_snapshot(). The row versions need no pause.
 */
async function snapshot(database: Database, since: string): Promise<Snapshot> {
  if (database.kind === 'pg') await new Promise((r) => setTimeout(r, 11_000));
  const tables = new Map<string, TableState>();
  const names = (
    await query<{ name: string }>(
      database,
      `select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
    )
  ).map((r) => r.name);
  const stats = new Map(
    (
      await database.withConnection(async (s) => {
        await s.query('select pg_stat_clear_snapshot()');
        return (
          await s.query<{ name: string; ins: string; upd: string; del: string }>(
            `select relname as name, n_tup_ins::text as ins, n_tup_upd::text as upd, n_tup_del::text as del
               from pg_stat_user_tables where schemaname = current_schema()`,
          )
        ).rows;
      })
    ).map((r) => [r.name, r]),
  );
  for (const name of names) {
    const [r] = await query<{ rows: string; written: string; touched: string }>(
      database,
      `select count(*)::text as rows,
              count(*) filter (where age(xmin) < age('${since}'::xid))::text as written,
              count(*) filter (where xmax::text <> '0' and age(xmax) < age('${since}'::xid))::text as touched
         from "${name}"`,
    );
    const st = stats.get(name);
    tables.set(name, {
      rows: Number(r!.rows),
      written: Number(r!.written),
      touched: Number(r!.touched),
      ins: Number(st?.ins ?? 0),
      upd: Number(st?.upd ?? 0),
      del: Number(st?.del ?? 0),
    });
  }
  const sequences = new Map(
    (
      await query<{ name: string; value: string | null }>(
        database,
        `select sequencename as name, last_value::text as value from pg_sequences where schemaname = current_schema()`,
      )
    ).map((r) => [r.name, r.value ?? 'unused']),
  );
  const [lv] = await query<{ v: string | null }>(
    database,
    `select string_agg(company_id || ':' || version, ',' order by company_id) as v from company_list_versions`,
  );
  const [ev] = await query<{ n: string }>(database, `select count(*)::text as n from events`);
  return { tables, sequences, listVersions: lv?.v ?? '', events: Number(ev!.n) };
}

/** What moved between two snapshots: one line per moved table, sequence, counter; empty = nothing. */
function changes(a: Snapshot, b: Snapshot): string[] {
  const out: string[] = [];
  for (const [name, after] of b.tables) {
    const before = a.tables.get(name);
    if (!before) {
      out.push(`${name}: new table`);
      continue;
    }
    const moved = [
      after.rows !== before.rows && `rows ${before.rows} → ${after.rows}`,
      after.written > 0 && `${after.written} rows written`,
      after.touched > 0 && `${after.touched} rows locked or deleted`,
      after.ins !== before.ins && `n_tup_ins +${after.ins - before.ins}`,
      after.upd !== before.upd && `n_tup_upd +${after.upd - before.upd}`,
      after.del !== before.del && `n_tup_del +${after.del - before.del}`,
    ].filter(Boolean);
    if (moved.length) out.push(`${name}: ${moved.join(', ')}`);
  }
  for (const [name, value] of b.sequences)
    if (a.sequences.get(name) !== value) out.push(`sequence ${name}: ${a.sequences.get(name)} → ${value}`);
  if (a.listVersions !== b.listVersions) out.push('company_list_versions: a counter moved');
  if (a.events !== b.events) out.push(`events: ${a.events} → ${b.events}`);
  return out;
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  let pg: ThrowawayPg | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'sportello-bench-import-'));
  try {
    if (opt.db === 'pg') pg = await startThrowawayPg();
    const database = await openDatabase({ databaseUrl: pg?.url });
    await migrate(database);
    const secret = 'bench-secret-'.padEnd(40, 'x');
    const ctx: AppContext = {
      config: loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }),
      database,
      clock: systemClock,
      fileStore: openFileStore(loadConfig({ DATA_DIR: dir })),
      signer: new FileUrlSigner(secret),
      secret,
    };
    log(
      `${opt.db === 'pg' ? 'PostgreSQL' : 'PGlite (in memory)'}; ${cpus().length} × ${cpus()[0]?.model.trim()}, ` +
        `${mb(totalmem())} RAM, Node ${process.version}; load average ${load()}`,
    );
    try {
      if (!opt['generated-only']) {
        const example = JSON.parse(readFileSync('apps/api/src/test/fixtures/example.json', 'utf8'));
        for (const run of ['first', 're-import'])
          log(`example.json ${run}: ${describe(await timedImport(ctx, example))}`);
        const demo = await buildDemoDocument(new Date());
        for (const run of ['first', 're-import'])
          log(`demo ${run}: ${describe(await timedImport(ctx, demo))}`);
      }

      let started = performance.now();
      const doc = generatedDocument(TICKETS);
      log(
        `generated ${TICKETS.toLocaleString('en')} tickets in ${seconds(performance.now() - started)}, ` +
          `RSS ${mb(process.memoryUsage.rss())}`,
      );
      const first = await timedImport(ctx, doc);
      log(`generated first import: ${describe(first)}; load average ${load()}`);

      started = performance.now();
      const since = await mark(database);
      const before = await snapshot(database, since);
      log(`snapshot of every table in ${seconds(performance.now() - started)}`);
      const again = await timedImport(ctx, doc);
      log(`generated re-import (unchanged): ${describe(again)}; load average ${load()}`);
      const after = await snapshot(database, since);
      const moved = changes(before, after);
      const rows = [...after.tables.values()].reduce((n, t) => n + t.rows, 0);
      if (moved.length === 0)
        log(
          `changed no row: ${after.tables.size} tables (${rows.toLocaleString('en')} rows), none written, ` +
            `locked or deleted; ${after.sequences.size} sequences, the list counters and the events ` +
            `(${after.events}) unmoved`,
        );
      else log(`CHANGED:\n  ${moved.join('\n  ')}`);
      log(`done; load average ${load()}; process peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
      return moved.length === 0 ? 0 : 1;
    } finally {
      await database.close();
    }
  } finally {
    pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
