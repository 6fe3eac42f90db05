/**
 * `npm run bench:db-move`: times `npm run db -- move` (cli/db.ts) on a generated embedded installation
 * (bench/lib/generate.ts: 100 portals, 5,000 companies, 10,000 contacts and users, and `--tickets`
 * tickets, default 100,000, with 2 comments each and their reports, invoices, documents, contracts),
 * then `npm run db -- dump` of the same. The target is a throwaway PostgreSQL cluster (bench/lib/pg.ts),
 * or the empty database BENCH_DATABASE_URL names.
 *
 *   npm run bench:db-move -- [--tickets N]
 *
 * Prints rows, seconds and rows/s of the move (schema, copy, sequences and the per-table checksum
 * comparison, all of it) and of the dump, and the machine's load average at the start and the end.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { dumpDatabase, moveDatabase } from '../apps/api/src/cli/db';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase } from '../apps/api/src/db/client';
import { migrate } from '../apps/api/src/db/migrate';
import { openFileStore } from '../apps/api/src/platform/file-store';
import { growTo, rowCounts } from './lib/generate';
import { startThrowawayPg } from './lib/pg';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const { values: opt } = parseArgs({ options: { tickets: { type: 'string', default: '100000' } } });
const TICKETS = Number(opt.tickets);
const t0 = performance.now();
const log = (...a: unknown[]) =>
  console.log(`[db-move ${String(Math.round((performance.now() - t0) / 1000)).padStart(5)} s]`, ...a);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

log(`${cpus().length} cores, load ${load()}`);
const dataDir = mkdtempSync(join(tmpdir(), 'sportello-bench-move-'));
const target = await startThrowawayPg();
try {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  {
    const database = await openDatabase({ dataDir });
    await migrate(database);
    const fileStore = openFileStore(config);
    const grown = await growTo(database, fileStore, TICKETS, (n) =>
      log(`generated ${n.toLocaleString('en')} tickets`),
    );
    log(`generated in ${(grown.ms / 1000).toFixed(0)} s:`, JSON.stringify(await rowCounts(database)));
    await fileStore.close();
    await database.close();
  }
  const source = await openDatabase({ dataDir });
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  log(`move starts, load ${load()}`);
  const started = performance.now();
  const report = await source.withConnection((sql) => moveDatabase(sql, client));
  const s = (performance.now() - started) / 1000;
  const rows = report.reduce((a, r) => a + r.rows, 0);
  log(
    `moved ${report.length} tables, ${rows.toLocaleString('en')} rows in ${s.toFixed(1)} s: ` +
      `${Math.round(rows / s).toLocaleString('en')} rows/s (checksums equal: ${report.every((r) => r.same)}), load ${load()}`,
  );
  await client.end();
  const file = join(dataDir, 'dump.sql');
  const out = createWriteStream(file);
  const dumpStarted = performance.now();
  const dumped = await source.withConnection((sql) => dumpDatabase(sql, (q) => source.copyOut!(q), out));
  out.end();
  await once(out, 'finish');
  const ds = (performance.now() - dumpStarted) / 1000;
  log(
    `dumped ${dumped.rows.toLocaleString('en')} rows in ${ds.toFixed(1)} s: ` +
      `${Math.round(dumped.rows / ds).toLocaleString('en')} rows/s, ${(statSync(file).size / 1024 / 1024).toFixed(0)} MB, load ${load()}`,
  );
  await source.close();
} finally {
  target.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
