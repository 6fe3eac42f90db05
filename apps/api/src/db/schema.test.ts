/**
 * schema.ts against what the migrations build (issue 29, C15). The migrations are the database's truth
 * and schema.ts is what every query is typed and built with: a column the one has and the other has not,
 * a nullability, a type, a default, a key or a unique rule that differ would fail (or silently pass)
 * only at run time. A fresh database is migrated, read back from the catalog and compared, both ways,
 * with the drizzle tables of schema.ts.
 */
import { is, SQL } from 'drizzle-orm';
import { getTableConfig, PgDialect, PgTable, type IndexedColumn } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/harness';
import type { Database } from './client';
import * as schema from './schema';

/** Tables of the migrations that schema.ts need not declare: the migration runner's own. */
const NOT_IN_SCHEMA = new Set(['schema_migrations']);

interface Shape {
  tables: Set<string>;
  /** `table.column` → `type, null|not null, default …, identity|generated` */
  columns: Map<string, string>;
  /** `table: kind name (columns) [→ target (columns) on delete …]`, kinds pk, fk, unique, index. */
  keys: Set<string>;
}

const dialect = new PgDialect();
const sqlText = (s: SQL) => dialect.sqlToQuery(s).sql;

/** One spelling for both sides: drizzle writes `numeric(12, 2)`, the catalog `numeric(12,2)`. */
const normType = (t: string) =>
  t
    .toLowerCase()
    .replace(/\s*,\s*/g, ',')
    .replace(/^serial$/, 'integer')
    .replace(/^bigserial$/, 'bigint')
    .replace(/^varchar/, 'character varying')
    .replace(/^timestamptz$/, 'timestamp with time zone');

/**
 * A default as its value: the catalog's `'open'::text`, `'{}'::jsonb`, `(0)::bigint` and drizzle's
 * `'open'`, `{}`, `0` all read the same; expressions (`now()`) compare as written, spaces aside.
 */
function normDefault(d: string): string {
  let s = d.trim();
  for (let prev = ''; prev !== s;) {
    prev = s;
    s = s.replace(/::[a-z ]+(\(\d+(,\s*\d+)?\))?(\[\])?$/i, '').trim();
    if (/^\((.*)\)$/.test(s) && !/^\(.*\)\s*\(/.test(s)) s = s.slice(1, -1).trim();
  }
  if (/^'.*'$/s.test(s)) s = s.slice(1, -1).replaceAll("''", "'");
  return s.replace(/\s+/g, '').toLowerCase();
}

function drizzleDefault(value: unknown): string {
  if (is(value, SQL)) return normDefault(sqlText(value));
  if (typeof value === 'string') return normDefault(value);
  if (value !== null && typeof value === 'object') return normDefault(JSON.stringify(value));
  return normDefault(String(value));
}

const list = (cols: readonly string[]) => `(${cols.join(', ')})`;
const action = (a: string | undefined) => (a ?? 'no action').toLowerCase();
const PG_ACTION: Record<string, string> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

/** An index's parts as one text: quotes, table names, case, spaces and a key's outer brackets aside. */
const normSql = (t: string) =>
  t
    .replace(/"[a-z0-9_]+"\./g, '')
    .replaceAll('"', '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
function unwrap(t: string): string {
  const s = t.trim();
  if (!s.startsWith('(') || !s.endsWith(')')) return s;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    if (s[i] === ')') depth--;
    if (depth === 0 && i < s.length - 1) return s;
  }
  return unwrap(s.slice(1, -1));
}
/** The catalog writes a predicate with a bracket around each part; drizzle as the schema says it. */
const normWhere = (t: string) => normSql(t).replace(/[()]/g, '').replace(/\s+/g, ' ').trim();

function splitTop(t: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '(') depth++;
    else if (t[i] === ')') depth--;
    else if (t[i] === ',' && depth === 0) {
      parts.push(t.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(t.slice(start));
  return parts.map((p) => unwrap(normSql(p)));
}

function indexColumn(c: Partial<IndexedColumn | SQL>): string {
  if (is(c, SQL)) return unwrap(normSql(sqlText(c)));
  const col = c as { name: string; indexConfig?: { order?: string; opClass?: string } };
  const opClass = col.indexConfig?.opClass ? ` ${col.indexConfig.opClass}` : '';
  return `${col.name}${opClass}${col.indexConfig?.order === 'desc' ? ' desc' : ''}`;
}

/** `unique index name using method (keys) where …`, the same way from both sides. */
const indexText = (i: { unique: boolean; name: string; method: string; keys: string[]; where?: string }) =>
  `${i.unique ? 'unique index' : 'index'} ${i.name} using ${i.method} (${i.keys.join(', ')})` +
  (i.where ? ` where ${normWhere(i.where)}` : '');

function fromSchema(): Shape {
  const shape: Shape = { tables: new Set(), columns: new Map(), keys: new Set() };
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const t = getTableConfig(value);
    shape.tables.add(t.name);
    const pkColumns = new Set([
      ...t.columns.filter((c) => c.primary).map((c) => c.name),
      ...t.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)),
    ]);
    for (const c of t.columns) {
      const notNull = c.notNull || pkColumns.has(c.name);
      let extra = '';
      if (c.generatedIdentity) extra = `, identity ${c.generatedIdentity.type ?? 'always'}`;
      else if (c.generated) extra = ', generated';
      else if (c.hasDefault && c.default !== undefined) extra = `, default ${drizzleDefault(c.default)}`;
      shape.columns.set(
        `${t.name}.${c.name}`,
        `${normType(c.getSQLType())}, ${notNull ? 'not null' : 'null'}${extra}`,
      );
      if (c.isUnique) shape.keys.add(`${t.name}: unique ${list([c.name])}`);
    }
    const pk = t.columns.filter((c) => c.primary).map((c) => c.name);
    if (pk.length > 0) shape.keys.add(`${t.name}: pk ${list(pk)}`);
    for (const p of t.primaryKeys) shape.keys.add(`${t.name}: pk ${list(p.columns.map((c) => c.name))}`);
    for (const fk of t.foreignKeys) {
      const r = fk.reference();
      shape.keys.add(
        `${t.name}: fk ${list(r.columns.map((c) => c.name))} → ${getTableConfig(r.foreignTable).name} ` +
          `${list(r.foreignColumns.map((c) => c.name))} on delete ${action(fk.onDelete)} on update ${action(fk.onUpdate)}`,
      );
    }
    for (const u of t.uniqueConstraints)
      shape.keys.add(`${t.name}: unique ${list(u.columns.map((c) => c.name))}`);
    for (const i of t.indexes) {
      const cfg = i.config;
      const text = indexText({
        unique: cfg.unique,
        name: cfg.name ?? '(unnamed)',
        method: cfg.method ?? 'btree',
        keys: cfg.columns.map(indexColumn),
        where: cfg.where ? sqlText(cfg.where) : undefined,
      });
      shape.keys.add(`${t.name}: ${text}`);
    }
  }
  return shape;
}

async function fromDatabase(database: Database): Promise<Shape> {
  return database.withConnection(async (sql) => {
    const shape: Shape = { tables: new Set(), columns: new Map(), keys: new Set() };
    const tables = await sql.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p')`,
    );
    for (const t of tables.rows) if (!NOT_IN_SCHEMA.has(t.name)) shape.tables.add(t.name);
    const columns = await sql.query<{
      tbl: string;
      col: string;
      type: string;
      notnull: boolean;
      def: string | null;
      identity: string;
      generated: string;
    }>(
      `select c.relname as tbl, a.attname as col, format_type(a.atttypid, a.atttypmod) as type,
              a.attnotnull as notnull, pg_get_expr(d.adbin, d.adrelid) as def,
              a.attidentity::text as identity, a.attgenerated::text as generated
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         join pg_namespace n on n.oid = c.relnamespace
         left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped`,
    );
    for (const c of columns.rows) {
      if (!shape.tables.has(c.tbl)) continue;
      let extra = '';
      if (c.identity) extra = `, identity ${c.identity === 'a' ? 'always' : 'byDefault'}`;
      else if (c.generated) extra = ', generated';
      else if (c.def !== null) extra = `, default ${normDefault(c.def)}`;
      shape.columns.set(
        `${c.tbl}.${c.col}`,
        `${normType(c.type)}, ${c.notnull ? 'not null' : 'null'}${extra}`,
      );
    }
    const constraints = await sql.query<{
      tbl: string;
      kind: string;
      cols: string[];
      ftbl: string | null;
      fcols: string[] | null;
      del: string;
      upd: string;
    }>(
      `select c.relname as tbl, k.contype::text as kind,
              array(select a.attname from unnest(k.conkey) with ordinality u(n, o)
                      join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by u.o)::text[] as cols,
              f.relname as ftbl,
              array(select a.attname from unnest(k.confkey) with ordinality u(n, o)
                      join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.n order by u.o)::text[] as fcols,
              k.confdeltype::text as del, k.confupdtype::text as upd
         from pg_constraint k
         join pg_class c on c.oid = k.conrelid
         join pg_namespace n on n.oid = c.relnamespace
         left join pg_class f on f.oid = k.confrelid
        where n.nspname = 'public' and k.contype in ('p', 'f', 'u')`,
    );
    for (const k of constraints.rows) {
      if (!shape.tables.has(k.tbl)) continue;
      if (k.kind === 'p') shape.keys.add(`${k.tbl}: pk ${list(k.cols)}`);
      if (k.kind === 'u') shape.keys.add(`${k.tbl}: unique ${list(k.cols)}`);
      if (k.kind === 'f')
        shape.keys.add(
          `${k.tbl}: fk ${list(k.cols)} → ${k.ftbl} ${list(k.fcols ?? [])} on delete ${PG_ACTION[k.del]} ` +
            `on update ${PG_ACTION[k.upd]}`,
        );
    }
    // Indexes of their own (not the ones behind a primary key or a unique constraint).
    const indexes = await sql.query<{ tbl: string; name: string; unique: boolean; def: string }>(
      `select c.relname as tbl, i.relname as name, x.indisunique as unique, pg_get_indexdef(x.indexrelid) as def
         from pg_index x
         join pg_class i on i.oid = x.indexrelid
         join pg_class c on c.oid = x.indrelid
         join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public'
          and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid and k.contype in ('p', 'u'))`,
    );
    for (const i of indexes.rows) {
      if (!shape.tables.has(i.tbl)) continue;
      // CREATE [UNIQUE] INDEX name ON public.tbl USING method (keys) [WHERE (predicate)]
      const m = /USING (\w+) \((.*)\)(?: WHERE (.*))?$/s.exec(i.def);
      if (!m) throw new Error(`Unread index definition: ${i.def}`);
      let keys = m[2]!;
      let where = m[3];
      // A WHERE inside the keys' brackets is the predicate's: split at the keys' closing bracket.
      let depth = 0;
      const open = i.def.indexOf('(', i.def.indexOf(`USING ${m[1]} `));
      for (let k = open; k < i.def.length; k++) {
        if (i.def[k] === '(') depth++;
        if (i.def[k] === ')' && --depth === 0) {
          keys = i.def.slice(open + 1, k);
          const rest = i.def.slice(k + 1).trim();
          where = rest.startsWith('WHERE ') ? rest.slice(6) : undefined;
          break;
        }
      }
      const text = indexText({ unique: i.unique, name: i.name, method: m[1]!, keys: splitTop(keys), where });
      shape.keys.add(`${i.tbl}: ${text}`);
    }
    return shape;
  });
}

const only = <T>(a: Iterable<T>, b: Set<T> | Map<T, unknown>) => [...a].filter((x) => !b.has(x)).sort();

describe('schema.ts and the migrations', () => {
  let database: Database;
  let db: Shape;
  let declared: Shape;
  beforeAll(async () => {
    database = await openTestDatabase();
    db = await fromDatabase(database);
    declared = fromSchema();
  });
  afterAll(() => database?.close());

  it('reads both sides alike (a comparison of two empty readings would pass)', () => {
    expect(db.columns.size).toBeGreaterThan(500);
    for (const shape of [db, declared]) {
      expect(shape.columns.get('blobs.created_at')).toBe('timestamp with time zone, not null, default now()');
      expect(shape.columns.get('tickets.id')).toBe('integer, not null, identity always');
      expect(shape.columns.get('tickets.ticket_number')).toBe('text, not null, default ');
      expect(shape.keys).toContain(
        'files: fk (uploaded_by_api_key_id) → api_keys (id) on delete set null on update no action',
      );
      expect(shape.keys).toContain(
        'signature_requests: index signature_requests_contact_idx using btree (contact_id) where signed_at is null',
      );
    }
  });

  it('declare the same tables', () => {
    expect({
      onlyMigrations: only(db.tables, declared.tables),
      onlySchema: only(declared.tables, db.tables),
    }).toEqual({
      onlyMigrations: [],
      onlySchema: [],
    });
  });

  it('declare the same columns, with the same types, nullability and defaults', () => {
    const differ = [...declared.columns]
      .filter(([k, v]) => db.columns.has(k) && db.columns.get(k) !== v)
      .map(([k, v]) => `${k}: schema.ts ${v}; migrations ${db.columns.get(k)}`)
      .sort();
    expect({
      onlyMigrations: only(db.columns.keys(), declared.columns),
      onlySchema: only(declared.columns.keys(), db.columns),
      differ,
    }).toEqual({ onlyMigrations: [], onlySchema: [], differ: [] });
  });

  it('declare the same primary keys, foreign keys, unique rules and indexes', () => {
    expect({
      onlyMigrations: only(db.keys, declared.keys),
      onlySchema: only(declared.keys, db.keys),
    }).toEqual({
      onlyMigrations: [],
      onlySchema: [],
    });
  });
});
