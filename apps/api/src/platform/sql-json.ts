/**
 * Raw-SQL helpers for list queries. Lists are built as ONE statement that answers one JSON value
 * (json_agg with nested json for children), so a list costs the same number of statements whatever
 * its length. Timestamps are rendered inside SQL as UTC ISO strings, so the answer does not depend on
 * the session time zone of the server.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';

export type Queryable = Db | Tx;

/** Rows of a raw statement (PGlite and node-postgres both answer `{rows}`). */
export async function queryRows<T>(db: Queryable, q: SQL): Promise<T[]> {
  const r = (await db.execute(q)) as unknown as { rows: T[] };
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
