/**
 * Copying an embedded installation's database elsewhere (`npm run db -- move | dump`, cli/db.ts).
 *
 * The schema comes from the migrations (the target gets the schema this build makes, not a copy of the
 * catalog), then the data table by table: parents before children along the foreign keys, each table
 * read in primary-key order in batches (keyset paging, so a table of a million rows never sits in
 * memory), every value in PostgreSQL's own text form (lossless between versions: PGlite is PostgreSQL
 * 18, a server may be older). Rows are written with the target's triggers off: they would otherwise
 * write notifications, touch tickets and bump list versions for rows that are only being copied.
 * Generated columns (the search vectors) are left to the target to compute. A foreign key that points
 * back along the order (a table referring to itself, or a cycle) is dropped during the copy and added
 * again after it, which checks every row. Sequences end past the largest id and at least where the
 * source's stood. Everything on the target happens in one transaction: a failed move leaves it empty.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RawSql } from './client';
import { migrationNames } from './migrate';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Rows per batch: enough to amortise a round trip, few enough that wide rows stay a few MB. */
export const BATCH_ROWS = 2_000;

/** The session settings both sides compute checksums under: each value's text must be the same. */
export const SESSION_SETTINGS = [
  "set timezone = 'UTC'",
  "set datestyle = 'ISO, YMD'",
  "set intervalstyle = 'postgres'",
  'set extra_float_digits = 1',
  "set bytea_output = 'hex'",
];

export interface Column {
  name: string;
  /** As format_type writes it, for casts from text. */
  type: string;
  identity: boolean;
}

export interface Table {
  name: string;
  /** The columns copied (generated ones are left out). */
  columns: Column[];
  primaryKey: Column[];
}

export interface ForeignKey {
  table: string;
  name: string;
  parent: string;
  definition: string;
}

export interface Sequence {
  name: string;
  /** The column it numbers, when it belongs to one. */
  owner?: { table: string; column: string };
}

export interface Plan {
  /** Tables in the order they are copied (parents first). */
  tables: Table[];
  /** Foreign keys dropped during the copy and added after it (self references, cycles). */
  deferred: ForeignKey[];
  sequences: Sequence[];
}

export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The tables, keys and sequences of schema public (schema_migrations aside: the target writes its own). */
export async function readPlan(sql: RawSql): Promise<Plan> {
  const tables = (
    await sql.query<{ oid: number; name: string }>(
      `select c.oid, c.relname as name from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and c.relname <> 'schema_migrations'
        order by c.relname`,
    )
  ).rows;
  const byName = new Map<string, Table>();
  for (const t of tables) {
    const cols = (
      await sql.query<{ name: string; type: string; identity: string; generated: string }>(
        `select attname as name, format_type(atttypid, atttypmod) as type, attidentity as identity,
            attgenerated as generated
          from pg_attribute where attrelid = $1 and attnum > 0 and not attisdropped order by attnum`,
        [t.oid],
      )
    ).rows;
    const pk = (
      await sql.query<{ name: string }>(
        `select a.attname as name from pg_index i
          cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
          join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
          where i.indrelid = $1 and i.indisprimary order by k.ord`,
        [t.oid],
      )
    ).rows.map((r) => r.name);
    const columns = cols
      .filter((c) => c.generated === '')
      .map((c) => ({ name: c.name, type: c.type, identity: c.identity !== '' }));
    if (pk.length === 0)
      throw new Error(`Table ${t.name} has no primary key: it cannot be copied in batches`);
    byName.set(t.name, {
      name: t.name,
      columns,
      primaryKey: pk.map((n) => columns.find((c) => c.name === n)!),
    });
  }
  const fks = (
    await sql.query<ForeignKey>(
      `select conrelid::regclass::text as table, conname as name, confrelid::regclass::text as parent,
          pg_get_constraintdef(oid) as definition
        from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace
        order by conrelid::regclass::text, conname`,
    )
  ).rows;
  // Kahn's order along the foreign keys; where only cycles are left, the first table alphabetically
  // goes next and its keys to the tables still waiting are deferred.
  const order: Table[] = [];
  const deferred: ForeignKey[] = [];
  const waiting = new Set(byName.keys());
  while (waiting.size > 0) {
    const ready = [...waiting].filter((n) =>
      fks.every((f) => f.table !== n || f.parent === n || !waiting.has(f.parent)),
    );
    const next = ready.length > 0 ? ready : [[...waiting].sort()[0]!];
    for (const n of next.sort()) {
      waiting.delete(n);
      order.push(byName.get(n)!);
    }
  }
  const position = new Map(order.map((t, i) => [t.name, i]));
  for (const f of fks) {
    // A key to itself or to a table copied later cannot hold while rows arrive.
    if (f.parent === f.table || position.get(f.parent)! > position.get(f.table)!) deferred.push(f);
  }
  const sequences = (
    await sql.query<{ name: string; table: string | null; column: string | null }>(
      `select c.relname as name, d.refobjid::regclass::text as table, a.attname as column
        from pg_class c
        left join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = c.oid
          and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
        left join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
        where c.relkind = 'S' and c.relnamespace = 'public'::regnamespace order by c.relname`,
    )
  ).rows.map((s) => ({
    name: s.name,
    ...(s.table && s.column ? { owner: { table: s.table, column: s.column } } : {}),
  }));
  return { tables: order, deferred, sequences };
}

/** The migrations of this build, as the target runs them (migrate.ts's steps, in the caller's transaction). */
export function migrationScript(): { name: string; text: string }[] {
  return migrationNames().map((name) => ({
    name,
    text: readFileSync(MIGRATIONS_DIR + name, 'utf8').replaceAll('--> statement-breakpoint', ''),
  }));
}

export const CREATE_SCHEMA_MIGRATIONS =
  'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())';

/** The names of the migrations the source has applied, in order. */
export async function appliedMigrations(sql: RawSql): Promise<string[]> {
  return (await sql.query<{ name: string }>('select name from schema_migrations order by name')).rows.map(
    (r) => r.name,
  );
}

/** Row count and an order-independent checksum of a table's copied columns, the same on both sides. */
export async function checksum(sql: RawSql, t: Table): Promise<{ rows: string; sum: string }> {
  const row = `row(${t.columns.map((c) => ident(c.name)).join(', ')})::text`;
  const part = (from: number) =>
    `coalesce(sum(('x' || substr(h, ${from}, 15))::bit(60)::bigint::numeric), 0)`;
  const [r] = (
    await sql.query<{ rows: string; a: string; b: string }>(
      `select count(*)::text as rows, ${part(1)}::text as a, ${part(16)}::text as b
        from (select md5(${row}) as h from ${ident(t.name)}) s`,
    )
  ).rows;
  return { rows: r!.rows, sum: `${r!.a}:${r!.b}` };
}

/**
 * The table's rows in primary-key order, `BATCH_ROWS` at a time, each value as text (null stays null):
 * keyset paging, so each batch is an index range scan whatever the table's size.
 */
export async function* readBatches(
  sql: RawSql,
  t: Table,
  batch = BATCH_ROWS,
): AsyncGenerator<(string | null)[][]> {
  // Qualified, and the text aliased apart: in ORDER BY a bare name is the output column first (the
  // key's text, which sorts 10000 before 2).
  const keys = t.primaryKey.map((c) => `src.${ident(c.name)}`);
  const select = t.columns.map((c, i) => `src.${ident(c.name)}::text as c${i}`).join(', ');
  const keyAt = t.primaryKey.map((k) => t.columns.indexOf(k));
  let last: (string | null)[] | undefined;
  for (;;) {
    const where = last
      ? `where (${keys.join(', ')}) > (${t.primaryKey.map((k, i) => `$${i + 1}::${k.type}`).join(', ')})`
      : '';
    const { rows } = await sql.query<Record<string, string | null>>(
      `select ${select} from ${ident(t.name)} as src ${where} order by ${keys.join(', ')} limit ${batch}`,
      last ?? [],
    );
    if (rows.length === 0) return;
    const values = rows.map((r) => t.columns.map((_, i) => r[`c${i}`] ?? null));
    yield values;
    if (rows.length < batch) return;
    last = keyAt.map((i) => values[values.length - 1]![i]!);
  }
}

/** One statement inserting a batch: one text array per column, each cast to its column's type. */
export function insertStatement(t: Table): string {
  const names = t.columns.map((c) => ident(c.name));
  const arrays = t.columns.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const aliases = t.columns.map((_, i) => `c${i}`);
  const casts = t.columns.map((c, i) => `u.${aliases[i]}::${c.type}`).join(', ');
  const overriding = t.columns.some((c) => c.identity) ? ' overriding system value' : '';
  return `insert into ${ident(t.name)} (${names.join(', ')})${overriding}
    select ${casts} from unnest(${arrays}) as u(${aliases.join(', ')})`;
}

/** Statements around the data: triggers off and deferred keys dropped before, the reverse after. */
export function aroundData(plan: Plan): { before: string[]; after: string[] } {
  const all = plan.tables.map((t) => ident(t.name));
  return {
    before: [
      // Rows the migrations wrote (a sweep's claim row): the source's come instead.
      `truncate ${all.join(', ')}`,
      ...all.map((t) => `alter table ${t} disable trigger user`),
      ...plan.deferred.map((f) => `alter table ${ident(f.table)} drop constraint ${ident(f.name)}`),
    ],
    after: [
      ...plan.deferred.map(
        (f) => `alter table ${ident(f.table)} add constraint ${ident(f.name)} ${f.definition}`,
      ),
      ...all.map((t) => `alter table ${t} enable trigger user`),
    ],
  };
}

/** Where the source's sequence stands: the last value handed out, or 0 when none was. */
export async function sequenceValue(sql: RawSql, s: Sequence): Promise<string> {
  const [r] = (
    await sql.query<{ v: string }>(
      `select (case when is_called then last_value else last_value - 1 end)::text as v from ${ident(s.name)}`,
    )
  ).rows;
  return r!.v;
}

/** Sets a target sequence past the largest id of its column and at least where the source's stood. */
export function setvalStatement(s: Sequence, sourceValue: string): string {
  const max = s.owner ? `(select max(${ident(s.owner.column)}) from ${ident(s.owner.table)})` : 'null';
  const v = `greatest(${literal(sourceValue)}::bigint, coalesce(${max}, 0)::bigint)`;
  // setval(…, false) for a sequence nothing was drawn from yet: the next value is its first.
  return `select pg_catalog.setval(${literal(`public.${ident(s.name)}`)}, greatest(${v}, 1), ${v} >= 1)`;
}

/**
 * The batch boundaries of a table for COPY, which takes no parameters: the primary key of every
 * `batch`-th row, as SQL literals of its type.
 */
export async function* copyRanges(sql: RawSql, t: Table, batch = BATCH_ROWS): AsyncGenerator<string> {
  const keys = t.primaryKey.map((c) => `src.${ident(c.name)}`);
  const tuple = `(${keys.join(', ')})`;
  const lit = (v: (string | null)[]) =>
    `(${v.map((x, i) => `${literal(x ?? '')}::${t.primaryKey[i]!.type}`).join(', ')})`;
  let last: (string | null)[] | undefined;
  for (;;) {
    const after = last ? `where ${tuple} > ${lit(last)}` : '';
    const { rows } = await sql.query<Record<string, string | null>>(
      `select ${keys.map((k, i) => `${k}::text as k${i}`).join(', ')} from ${ident(t.name)} as src ${after}
        order by ${keys.join(', ')} offset ${batch - 1} limit 1`,
    );
    const bound = rows[0] ? keys.map((_, i) => rows[0]![`k${i}`] ?? null) : undefined;
    const cols = t.columns.map((c) => `src.${ident(c.name)}`).join(', ');
    const where = [last && `${tuple} > ${lit(last)}`, bound && `${tuple} <= ${lit(bound)}`].filter(Boolean);
    yield `select ${cols} from ${ident(t.name)} as src ${where.length ? `where ${where.join(' and ')}` : ''} order by ${keys.join(', ')}`;
    if (!bound) return;
    last = bound;
  }
}
