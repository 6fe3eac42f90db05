import type { Db } from '../db/client';

/**
 * One prepared query per database handle, built on first use. The query must be `.prepare('name')`d:
 * on PostgreSQL each pooled connection then parses and plans it once (PGlite ignores the name).
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let q = byDb.get(db);
    if (q === undefined) {
      q = build(db);
      byDb.set(db, q);
    }
    return q;
  };
}
