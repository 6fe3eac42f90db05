/**
 * Raw-SQL helpers for list queries. Lists are built as ONE statement that answers one JSON value
 * (json_agg with nested json for children), so a list costs the same number of statements whatever
 * its length. Timestamps are rendered inside SQL as UTC ISO strings, so the answer does not depend on
 * the session time zone of the server.
 */
import { createHash } from 'node:crypto';
import { sql, type Query, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client';

export type Queryable = Db | Tx;

const dialect = new PgDialect();
/** Statement text → its prepared-statement name. */
const names = new Map<string, string>();
/**
 * A safety net, not a budget: the texts are a fixed set (values are always parameters), but a text that
 * embedded a value would otherwise prepare a new statement on every connection for every value.
 */
const MAX_NAMED = 500;

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `q_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Rows of a raw statement (PGlite and node-postgres both answer `{rows}`). Each statement text is a
 * named (prepared) statement, so PostgreSQL parses and plans these large JSON queries once per
 * connection instead of on every request; PGlite ignores the name. Statement texts must not embed
 * values: pass them as parameters.
 */
export async function queryRows<T>(db: Queryable, q: SQL): Promise<T[]> {
  const query = dialect.sqlToQuery(q);
  const r = (await db._.session.prepareQuery(query, undefined, nameOf(query.sql), false).execute()) as {
    rows: T[];
  };
  return r.rows;
}

/** Rendered statements by shape (queryShaped); a fixed, small set per module. */
const shapes = new Map<string, { query: Query; name: string | undefined }>();

/**
 * Rows of a statement whose text depends only on a shape named by `key` (`module:…`, unique to its
 * caller): `build` makes it once per process, with `sql.placeholder(name)` for every value, and
 * each call sends `values` by name. For large statements built per request (the one search), where
 * building and rendering the fragments cost more than the database's work.
 */
export async function queryShaped<T>(
  db: Queryable,
  key: string,
  build: () => SQL,
  values: Record<string, unknown>,
): Promise<T[]> {
  let shape = shapes.get(key);
  if (!shape) {
    const query = dialect.sqlToQuery(build());
    shape = { query, name: nameOf(query.sql) };
    shapes.set(key, shape);
  }
  const r = (await db._.session.prepareQuery(shape.query, undefined, shape.name, false).execute(values)) as {
    rows: T[];
  };
  return r.rows;
}

/** A statement selecting one JSON array as `items` (`coalesce(json_agg(...), '[]')`). */
export async function queryJsonList<T>(db: Queryable, q: SQL): Promise<T[]> {
  const rows = await queryRows<{ items: T[] | string | null }>(db, q);
  const items = rows[0]?.items ?? [];
  return (typeof items === 'string' ? JSON.parse(items) : items) as T[];
}

/** `to_char(expr at time zone 'UTC')` as an ISO 8601 string with milliseconds and Z. */
export const iso = (expr: string): SQL =>
  sql.raw(`to_char((${expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The same as a raw string, to build nested json_build_object fragments. */
export const isoText = (expr: string): string =>
  `to_char((${expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A timestamptz parameter (sent as ISO text, so both drivers bind it the same way). */
export const tsParam = (d: Date): SQL => sql`${d.toISOString()}::timestamptz`;

/** An int[] parameter for `= any(...)`. */
export const intArrayParam = (ids: readonly number[]): SQL => sql`${sql.param([...ids])}::int[]`;

/** `%`, `_` and `\` escaped, for `ilike '%' || $1 || '%'`. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
