/**
 * `npm run db -- move` and `dump` on the demo installation: moved into a real PostgreSQL, every table
 * compared (row count and checksum) independently of the tool's own check, sequences past their ids,
 * a non-empty target refused, the source unchanged; and the dump restored with psql compares the same.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { openDatabase, type RawSql } from '../db/client';
import { migrate } from '../db/migrate';
import { checksum, copyRanges, ident, readBatches, readPlan, SESSION_SETTINGS, type Table } from '../db/move';
import { loadDemoDataIfEmpty } from '../modules/admin/demo';
import { systemClock } from '../platform/clock';
import { openFileStore } from '../platform/file-store';
import { FileUrlSigner } from '../platform/files';
import { pgBinaries } from '../test/pg-cluster';
import { parseArgs, redacted } from './db';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

function dbCli(env: Record<string, string>, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/db.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, out }));
  });
}

const clientSql = (c: pg.Client): RawSql => ({
  query: async (text, params) => ({ rows: (await c.query(text, params as unknown[])).rows }),
  exec: async (text) => {
    await c.query(text);
  },
});

/** Every table's row count and checksum. */
async function snapshot(sql: RawSql, tables: Table[]) {
  for (const s of SESSION_SETTINGS) await sql.exec(s);
  const out: Record<string, string> = {};
  for (const t of tables) {
    const c = await checksum(sql, t);
    out[t.name] = `${c.rows}/${c.sum}`;
  }
  return out;
}

it('parses move --to and dump [--out]', () => {
  expect(parseArgs(['--', 'move', '--to', 'postgres://u:p@h/db'])).toEqual({
    command: 'move',
    to: 'postgres://u:p@h/db',
  });
  expect(parseArgs(['dump', '--out', 'x.sql'])).toEqual({ command: 'dump', out: 'x.sql' });
  expect(parseArgs(['move', '--to', 'mysql://h/db'])).toBeUndefined();
  expect(parseArgs(['move'])).toBeUndefined();
  expect(redacted('postgres://u:secret@h:5432/db')).not.toContain('secret');
});

it('reads a table in key order, each row once, across batches (move and dump)', async () => {
  const database = await openDatabase({});
  try {
    await database.withConnection(async (sql) => {
      // Keys of 1 to 5 digits, and a two-column key: the order is the keys', not their text's.
      await sql.exec(`create table one (id int primary key, v text);
        insert into one select g, 'v' || g from generate_series(1, 12345) g;
        create table two (a int, b text, primary key (a, b));
        insert into two select g % 7, 'b' || g from generate_series(1, 3000) g`);
      const plan = await readPlan(sql);
      for (const t of plan.tables) {
        const total = Number(
          (await sql.query<{ n: string }>(`select count(*)::text as n from ${t.name}`)).rows[0]!.n,
        );
        const seen: string[] = [];
        for await (const rows of readBatches(sql, t, 1000)) seen.push(...rows.map((r) => r.join('|')));
        expect(new Set(seen).size, t.name).toBe(total);
        expect(seen.length, t.name).toBe(total);
        let copied = 0;
        for await (const q of copyRanges(sql, t, 1000))
          copied += (await database.copyOut!(q)).split('\n').length - 1;
        expect(copied, t.name).toBe(total);
      }
      const ids: number[] = [];
      for await (const rows of readBatches(
        sql,
        plan.tables.find((t) => t.name === 'one')!,
        1000,
      ))
        ids.push(...rows.map((r) => Number(r[0])));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });
  } finally {
    await database.close();
  }
}, 180_000);

const bins = pgBinaries();
const skip = !process.env.TEST_DATABASE_URL
  ? 'runs in the PostgreSQL pass (set TEST_DATABASE_URL)'
  : 'reason' in bins
    ? bins.reason
    : undefined;

describe.skipIf(skip !== undefined)(
  `moving the demo installation${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sportello-move-'));
    const names = [`sportello_move_${process.pid}`, `sportello_restore_${process.pid}`];
    const urlOf = (name: string) => {
      const u = new URL(process.env.TEST_DATABASE_URL!);
      u.pathname = `/${name}`;
      return u.toString();
    };
    let tables: Table[];
    let before: Record<string, string>;
    let indexNames: string[];
    const indexesOf = async (sql: RawSql) =>
      (
        await sql.query<{ name: string }>(
          `select indexname as name from pg_indexes where schemaname = 'public' order by 1`,
        )
      ).rows.map((r) => r.name);
    const admin = () => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });

    beforeAll(async () => {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      const database = await openDatabase({ dataDir });
      await migrate(database);
      const fileStore = openFileStore(config);
      const secret = 'move-test-secret-'.padEnd(40, 'x');
      const ctx = {
        config,
        database,
        clock: systemClock,
        fileStore,
        signer: new FileUrlSigner(secret),
        secret,
      };
      expect(await loadDemoDataIfEmpty(ctx)).toBe(true);
      await database.withConnection(async (sql) => {
        tables = (await readPlan(sql)).tables;
        before = await snapshot(sql, tables);
        indexNames = await indexesOf(sql);
      });
      await fileStore.close();
      await database.close();
      const a = admin();
      await a.connect();
      for (const n of names) await a.query(`create database ${n}`);
      await a.end();
    }, 240_000);
    afterAll(async () => {
      const a = admin();
      await a.connect();
      for (const n of names) await a.query(`drop database if exists ${n} with (force)`);
      await a.end();
      rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    const compareWith = async (url: string) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        expect(await snapshot(clientSql(c), tables)).toEqual(before);
        // Every index is there again (the move builds the secondary ones after the copy).
        expect(await indexesOf(clientSql(c))).toEqual(indexNames);
        expect(indexNames.length).toBeGreaterThan(100);
        // Each sequence hands out a value past its column's largest.
        const { rows } = await c.query<{ seq: string; tbl: string; col: string }>(
          `select s.relname as seq, d.refobjid::regclass::text as tbl, a.attname as col
          from pg_class s join pg_depend d on d.objid = s.oid and d.deptype in ('a', 'i')
            and d.refclassid = 'pg_class'::regclass
          join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
          where s.relkind = 'S' and s.relnamespace = 'public'::regnamespace`,
        );
        expect(rows.length).toBeGreaterThan(10);
        for (const r of rows) {
          const [m] = (
            await c.query<{ max: string | null; last: string; called: boolean }>(
              `select (select max(${ident(r.col)})::text from ${ident(r.tbl)}) as max,
              last_value::text as last, is_called as called from ${ident(r.seq)}`,
            )
          ).rows;
          const next = m!.called ? BigInt(m!.last) + 1n : BigInt(m!.last);
          expect(next > BigInt(m!.max ?? '0'), `${r.seq} after ${r.tbl}.${r.col}`).toBe(true);
        }
        // The server's own start finds nothing to migrate.
        const database = await openDatabase({ databaseUrl: url, maxConnections: 1 });
        expect(await migrate(database)).toEqual([]);
        await database.close();
      } finally {
        await c.end();
      }
    };

    it('moves every table into an empty PostgreSQL and refuses a database that is not empty', async () => {
      expect(Object.keys(before).length).toBeGreaterThan(50);
      expect(before.tickets).not.toMatch(/^0\//);
      const target = urlOf(names[0]!).replace('postgres@', 'postgres:pw-Mv81@');
      const moved = await dbCli({ DATA_DIR: dataDir }, ['--', 'move', '--to', target]);
      expect(moved.code, moved.out).toBe(0);
      expect(moved.out).toContain('every table has the same row count and checksum on both sides');
      expect(moved.out).not.toContain('pw-Mv81');
      await compareWith(urlOf(names[0]!));

      const again = await dbCli({ DATA_DIR: dataDir }, ['move', '--to', target]);
      expect(again.code).toBe(1);
      expect(again.out).toContain('The target database is not empty');
      // The embedded database is as it was.
      const database = await openDatabase({ dataDir });
      await database.withConnection(async (sql) => expect(await snapshot(sql, tables)).toEqual(before));
      await database.close();
    }, 600_000);

    it('writes a SQL dump that psql restores into an empty PostgreSQL', async () => {
      const file = join(dataDir, 'backup.sql');
      const dumped = await dbCli({ DATA_DIR: dataDir }, ['dump', '--out', file]);
      expect(dumped.code, dumped.out).toBe(0);
      expect(readFileSync(file, 'utf8')).toMatch(/^COPY public\."tickets" \(/m);
      execFileSync(
        join((bins as { bin: string }).bin, 'psql'),
        ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', file, urlOf(names[1]!)],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      await compareWith(urlOf(names[1]!));
    }, 600_000);
  },
);
