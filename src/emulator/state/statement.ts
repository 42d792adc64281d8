import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A prepared statement, prepared once per database: preparing costs about ten times what running a
 * small statement does, and the platform runs several on every request (auth, rate counts, idempotency).
 */
export function statement(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}
