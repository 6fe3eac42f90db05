import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './client';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/**
 * Any constant shared by every process; pg_advisory_lock serialises concurrent starts, and whoever holds
 * it is migrating (the readiness probe looks for it in pg_locks: classid 0, objid the constant).
 */
export const MIGRATION_LOCK = 7_270_001;

let names: string[] | undefined;
/** The migrations this build knows, in the order they apply. */
export function migrationNames(): string[] {
  names ??= readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return names;
}

/** Applies the plain-SQL migrations not yet applied, in name order, each in its own transaction. */
export async function migrate(database: Database): Promise<string[]> {
  const files = migrationNames();
  return database.withConnection(async (sql) => {
    if (database.kind === 'pg') await sql.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await sql.exec(
        'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
      );
      const done = new Set(
        (await sql.query<{ name: string }>('select name from schema_migrations')).rows.map((r) => r.name),
      );
      const applied: string[] = [];
      for (const file of files) {
        if (done.has(file)) continue;
        const text = readFileSync(MIGRATIONS_DIR + file, 'utf8').replaceAll('--> statement-breakpoint', '');
        await sql.exec('begin');
        try {
          await sql.exec(text);
          await sql.query('insert into schema_migrations (name) values ($1)', [file]);
          await sql.exec('commit');
        } catch (e) {
          await sql.exec('rollback');
          throw new Error(`Migration ${file} failed: ${(e as Error).message}`, { cause: e });
        }
        applied.push(file);
      }
      return applied;
    } finally {
      if (database.kind === 'pg') await sql.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  });
}
