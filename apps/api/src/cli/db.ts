/**
 * `npm run db -- move --to postgres://…`: copies this installation's embedded database (DATA_DIR) into
 * an EMPTY PostgreSQL database (docs/operations.md "Moving to PostgreSQL"): the schema by this build's
 * migrations, then every table in foreign-key order in batches, sequences past their largest id, then
 * each table's row count and checksum compared on both sides, all in one transaction of the target (a
 * failed or mismatched move leaves it empty). Secondary indexes are built after the copy. The embedded
 * database is only read.
 *
 * `npm run db -- dump [--out FILE]`: writes a plain SQL backup of the embedded database in pg_dump's
 * plain format (SET preamble, the schema, `COPY … FROM stdin` blocks, setval), which `psql -v
 * ON_ERROR_STOP=1 -f FILE` restores into an empty PostgreSQL database. PGlite's own pg_dump
 * (@electric-sql/pglite-tools) pins PGlite 0.5.8 and Debian's pg_dump 15 refuses a PostgreSQL 18 server
 * (PGlite 0.5.16 is 18.6), so the dump is written here, with the server's own COPY text.
 *
 * Both need the server stopped (one process per DATA_DIR). Exit codes: 0 done, 1 failure (target not
 * empty, a checksum differs, …), 2 usage/configuration, 3 DATA_DIR in use by a running server, 4
 * DATA_DIR unusable.
 */
import { createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import pg from 'pg';
import { openDatabase, type Database, type RawSql } from '../db/client';
import { DataDirLockedError } from '../db/data-dir-lock';
import { DataDirError } from '../db/data-dir-modes';
import { migrationNames } from '../db/migrate';
import {
  aroundData,
  appliedMigrations,
  checksum,
  copyRanges,
  CREATE_SCHEMA_MIGRATIONS,
  ident,
  insertStatement,
  migrationScript,
  readBatches,
  readPlan,
  SESSION_SETTINGS,
  sequenceValue,
  setvalStatement,
  type Plan,
} from '../db/move';
import { loadCliConfig } from './installation';
import { Progress } from './progress';

const USAGE =
  'Usage: npm run db -- move --to postgres://user:password@host:5432/database | dump [--out FILE]';

export type DbCommand = { command: 'move'; to: string } | { command: 'dump'; out?: string };

export function parseArgs(argv: string[]): DbCommand | undefined {
  const args = argv.filter((a) => a !== '--');
  if (args[0] === 'move' && args[1] === '--to' && args[2] && args.length === 3) {
    return /^postgres(ql)?:\/\//.test(args[2]) ? { command: 'move', to: args[2] } : undefined;
  }
  if (args[0] === 'dump' && args.length === 1) return { command: 'dump' };
  if (args[0] === 'dump' && args[1] === '--out' && args[2] && args.length === 3)
    return { command: 'dump', out: args[2] };
  return undefined;
}

/** The URL without its password, for messages. */
export function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the target';
  }
}

export class MoveError extends Error {}

export interface TableReport {
  table: string;
  rows: number;
  same: boolean;
}

/** The source must be at this build's schema: the target is made by this build's migrations. */
async function checkSource(source: RawSql): Promise<void> {
  const applied = await appliedMigrations(source);
  const known = migrationNames();
  if (applied.join() !== known.join()) {
    const missing = known.filter((n) => !applied.includes(n));
    throw new MoveError(
      missing.length > 0
        ? `The embedded database lacks ${missing.length} migration(s) of this version (${missing[0]}…): ` +
            'start the server once (it migrates), stop it, then move'
        : 'The embedded database was migrated by a newer version of Sportello: move with that version',
    );
  }
}

/**
 * Copies `source` (the embedded database) into the empty database `target` is connected to; answers
 * each table's count and whether its checksum matched. Throws MoveError (the target rolled back).
 */
export async function moveDatabase(
  source: RawSql,
  target: pg.Client,
  progressOf?: (total: number) => Progress,
): Promise<TableReport[]> {
  const present = await target.query<{ n: number }>(
    `select count(*)::int as n from pg_class where relnamespace = 'public'::regnamespace
      and relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
  );
  if (present.rows[0]!.n > 0)
    throw new MoveError(
      `The target database is not empty (${present.rows[0]!.n} relations in schema public): ` +
        'move into a new, empty database',
    );
  for (const s of SESSION_SETTINGS) {
    await source.exec(s);
    await target.query(s);
  }
  await checkSource(source);
  const plan = await readPlan(source);
  const counts = new Map<string, number>();
  for (const t of plan.tables) {
    const [r] = (await source.query<{ n: string }>(`select count(*)::text as n from ${ident(t.name)}`)).rows;
    counts.set(t.name, Number(r!.n));
  }
  const progress = progressOf?.([...counts.values()].reduce((a, b) => a + b, 0));
  await target.query('begin');
  try {
    await target.query(CREATE_SCHEMA_MIGRATIONS);
    for (const m of migrationScript()) {
      await target.query(m.text);
      await target.query('insert into schema_migrations (name) values ($1)', [m.name]);
    }
    const around = aroundData(plan);
    for (const s of around.before) await target.query(s);
    // Secondary indexes (the inbox's and search's, trigram GIN among them) are built once after the
    // copy instead of kept up row by row; those behind a constraint (keys, unique) stay.
    const indexes = await secondaryIndexes(target);
    for (const i of indexes) await target.query(`drop index ${ident(i.name)}`);
    await target.query("set local maintenance_work_mem = '256MB'");
    let done = 0;
    for (const t of plan.tables) {
      const insert = insertStatement(t);
      for await (const rows of readBatches(source, t)) {
        const columns = t.columns.map((_, i) => rows.map((r) => r[i] ?? null));
        await target.query(insert, columns);
        done += rows.length;
        progress?.update(done, t.name);
      }
    }
    for (const i of indexes) await target.query(i.definition);
    for (const s of around.after) await target.query(s);
    for (const s of plan.sequences) await target.query(setvalStatement(s, await sequenceValue(source, s)));
    const report: TableReport[] = [];
    for (const t of plan.tables) {
      const [a, b] = [await checksum(source, t), await checksum(targetSql(target), t)];
      report.push({ table: t.name, rows: Number(b.rows), same: a.rows === b.rows && a.sum === b.sum });
    }
    const differ = report.filter((r) => !r.same);
    if (differ.length > 0)
      throw new MoveError(`Rows differ after the copy in: ${differ.map((r) => r.table).join(', ')}`);
    await target.query('commit');
    return report;
  } catch (e) {
    await target.query('rollback').catch(() => {});
    throw e;
  }
}

/** The target's indexes that no constraint owns or relies on, with the statement that makes each. */
async function secondaryIndexes(target: pg.Client): Promise<{ name: string; definition: string }[]> {
  return (
    await target.query<{ name: string; definition: string }>(
      `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
        from pg_index i join pg_class c on c.oid = i.indexrelid
        join pg_class t on t.oid = i.indrelid
        where t.relnamespace = 'public'::regnamespace and t.relname <> 'schema_migrations'
          and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
        order by c.relname`,
    )
  ).rows;
}

function targetSql(client: pg.Client): RawSql {
  return {
    query: async (text, params) => ({ rows: (await client.query(text, params as unknown[])).rows }),
    exec: async (text) => {
      await client.query(text);
    },
  };
}

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/**
 * Writes the plain SQL backup of `source` to `out` (pg_dump's plain format; restore with psql);
 * `copyOut` answers a query's rows in COPY text format (Database.copyOut).
 */
export async function dumpDatabase(
  source: RawSql,
  copyOut: (query: string) => Promise<string>,
  out: Writable,
  progressOf?: (total: number) => Progress,
) {
  for (const s of SESSION_SETTINGS) await source.exec(s);
  await checkSource(source);
  const plan: Plan = await readPlan(source);
  let total = 0;
  for (const t of plan.tables)
    total += Number(
      (await source.query<{ n: string }>(`select count(*)::text as n from ${ident(t.name)}`)).rows[0]!.n,
    );
  const progress = progressOf?.(total);
  await write(
    out,
    [
      '--',
      '-- Sportello: SQL backup of the embedded database (pg_dump plain format).',
      `-- Restore into an empty PostgreSQL database: psql -v ON_ERROR_STOP=1 -f <this file> <database>`,
      '--',
      '',
      'SET statement_timeout = 0;',
      'SET lock_timeout = 0;',
      "SET client_encoding = 'UTF8';",
      'SET standard_conforming_strings = on;',
      'SET check_function_bodies = false;',
      'SET client_min_messages = warning;',
      ...SESSION_SETTINGS.map((s) => `${s};`),
      '',
      'BEGIN;',
      '',
      `${CREATE_SCHEMA_MIGRATIONS};`,
      '',
    ].join('\n'),
  );
  for (const m of migrationScript()) {
    await write(out, `-- Migration ${m.name}\n${m.text.trimEnd()}\n;\n`);
    await write(out, `INSERT INTO schema_migrations (name) VALUES ('${m.name.replaceAll("'", "''")}');\n\n`);
  }
  const around = aroundData(plan);
  await write(out, `${around.before.map((s) => `${s};`).join('\n')}\n\n`);
  let done = 0;
  for (const t of plan.tables) {
    await write(
      out,
      `COPY public.${ident(t.name)} (${t.columns.map((c) => ident(c.name)).join(', ')}) FROM stdin;\n`,
    );
    for await (const query of copyRanges(source, t)) {
      const text = await copyOut(query);
      await write(out, text);
      done += text === '' ? 0 : text.split('\n').length - 1;
      progress?.update(done, t.name);
    }
    await write(out, '\\.\n\n');
  }
  await write(out, `${around.after.map((s) => `${s};`).join('\n')}\n\n`);
  for (const s of plan.sequences)
    await write(out, `${setvalStatement(s, await sequenceValue(source, s))};\n`);
  await write(out, '\nCOMMIT;\n');
  return { tables: plan.tables.length, rows: done };
}

/** Opens the embedded database of DATA_DIR for reading (no migration: its files are only read). */
async function openSource(dataDir: string): Promise<Database | number> {
  try {
    return await openDatabase({ dataDir });
  } catch (e) {
    if (e instanceof DataDirLockedError || e instanceof DataDirError) {
      console.error(e.message);
      return e instanceof DataDirError ? 4 : 3;
    }
    throw e;
  }
}

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2));
  if (!parsed) {
    console.error(USAGE);
    return 2;
  }
  const config = loadCliConfig();
  if (typeof config === 'number') return config;
  if (config.DATABASE_URL) {
    console.error(
      'DATABASE_URL is set: this installation already runs on PostgreSQL (use pg_dump there). ' +
        `Unset it to ${parsed.command} the embedded database of DATA_DIR.`,
    );
    return 2;
  }
  const dataDir = resolve(config.DATA_DIR);
  const source = await openSource(dataDir);
  if (typeof source === 'number') return source;
  try {
    return await source.withConnection(async (sql) => {
      if (parsed.command === 'dump') {
        const out = parsed.out ? createWriteStream(parsed.out, { mode: 0o600 }) : process.stdout;
        let progress = new Progress('db dump', 0);
        const r = await dumpDatabase(
          sql,
          (query) => source.copyOut!(query),
          out,
          (total) => (progress = new Progress('db dump', total)),
        );
        if (parsed.out) {
          out.end();
          await once(out, 'finish');
        }
        progress.done(
          `${r.tables} tables, ${r.rows.toLocaleString('en')} rows in ${progress.elapsed().toFixed(1)} s`,
        );
        return 0;
      }
      const target = new pg.Client({ connectionString: parsed.to });
      try {
        await target.connect();
      } catch (e) {
        console.error(`Cannot connect to ${redacted(parsed.to)}: ${(e as Error).message}`);
        return 1;
      }
      target.on('error', () => {});
      console.error(`Moving ${dataDir} → ${redacted(parsed.to)}`);
      let progress = new Progress('db move', 0);
      try {
        const report = await moveDatabase(
          sql,
          target,
          (total) => (progress = new Progress('db move', total)),
        );
        const rows = report.reduce((a, r) => a + r.rows, 0);
        const s = progress.elapsed();
        progress.done(
          `${report.length} tables, ${rows.toLocaleString('en')} rows in ${s.toFixed(1)} s ` +
            `(${Math.round(rows / Math.max(s, 0.001)).toLocaleString('en')} rows/s); ` +
            'every table has the same row count and checksum on both sides',
        );
        console.error(
          `Next: start the server with DATABASE_URL=${redacted(parsed.to)} (and the same SECRET, ` +
            'DATA_DIR/secret when unset); DATA_DIR keeps the files unless FILE_STORE moves them.',
        );
        return 0;
      } catch (e) {
        if (e instanceof MoveError) {
          console.error(e.message);
          return 1;
        }
        throw e;
      } finally {
        await target.end().catch(() => {});
      }
    });
  } finally {
    await source.close();
  }
}

if (process.argv[1] && /cli[\\/]db\.ts$/.test(process.argv[1])) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
