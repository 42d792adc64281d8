import type Database from 'better-sqlite3';
import { statement } from './statement.js';

/**
 * Triggers named `<table>_version_<event>` that count every insert, update and delete of `table`'s rows under
 * a kind: `kindOf` gives it as SQL, from the row written (`new`) or deleted (`old`).
 */
export function kindVersionTriggers(table: string, kindOf: (row: 'new' | 'old') => string): string {
  return (['INSERT', 'UPDATE', 'DELETE'] as const)
    .map((event) => {
      const kind = kindOf(event === 'DELETE' ? 'old' : 'new');
      return `CREATE TRIGGER IF NOT EXISTS ${table}_version_${event.toLowerCase()} AFTER ${event} ON ${table}
BEGIN INSERT INTO kind_versions (kind, n) VALUES (${kind}, 1) ON CONFLICT (kind) DO UPDATE SET n = n + 1; END;`;
    })
    .join('\n');
}

/**
 * A counter per kind of document that every insert, update and delete bumps, kept by triggers so that no
 * writer (a handler, a reset, an import, plain SQL) can miss it. What is computed from a kind's documents is
 * then computed again only once the kind has changed: the analytics summary parsed every conversation,
 * message and lead of the workspace on each request, and list pages read their documents again (issue 25,
 * point 8). The first triggers counted three kinds only; they are replaced by ones that count every kind.
 */
export const KIND_VERSIONS_SQL = `
CREATE TABLE IF NOT EXISTS kind_versions (kind TEXT PRIMARY KEY, n INTEGER NOT NULL);
DROP TRIGGER IF EXISTS kind_version_insert;
DROP TRIGGER IF EXISTS kind_version_update;
DROP TRIGGER IF EXISTS kind_version_delete;
${kindVersionTriggers('docs', (row) => `${row}.kind`)}
`;

/**
 * A number that grows with every write to any of `kinds` (the sum of their counters): equal numbers mean
 * their documents are unchanged.
 */
export function kindsVersion(db: Database.Database, kinds: readonly string[]): number {
  // One primary-key lookup per kind (1.5-3 us for one or two kinds): `kind IN (...)` and json_each took
  // about 10 us, 5% of a 429 answer's time when the key store checked its two kinds.
  const sum = kinds.map(() => 'coalesce((SELECT n FROM kind_versions WHERE kind = ?), 0)').join(' + ');
  return (statement(db, `SELECT ${sum} AS n`).get(...kinds) as { n: number }).n;
}

/**
 * Values computed from the documents of some kinds, kept per database until one of them is written, within a
 * budget per set of kinds: each value weighs `weigh(value)` (1 unless given), and once the kept ones would weigh
 * more than `budget` they are all dropped. Inside a transaction nothing is kept: a rollback would take the
 * version back while the values computed from its writes stayed.
 */
export function versionedCache<V>(budget: number, weigh: (value: V) => number = () => 1) {
  type Memo = { version: number; values: Map<string, V>; weight: number };
  const kept = new WeakMap<Database.Database, Map<string, Memo>>();
  return (db: Database.Database, kinds: readonly string[], key: string, compute: () => V): V => {
    if (db.inTransaction) return compute();
    const version = kindsVersion(db, kinds);
    let byKinds = kept.get(db);
    if (!byKinds) kept.set(db, (byKinds = new Map()));
    const kindsKey = kinds.join(' ');
    let memo = byKinds.get(kindsKey);
    if (!memo || memo.version !== version) byKinds.set(kindsKey, (memo = { version, values: new Map(), weight: 0 }));
    let value = memo.values.get(key);
    if (value === undefined) {
      value = compute();
      const weight = weigh(value);
      if (memo.weight + weight > budget) {
        memo.values.clear();
        memo.weight = 0;
      }
      if (weight <= budget) {
        memo.values.set(key, value);
        memo.weight += weight;
      }
    }
    return value;
  };
}
