import type Database from 'better-sqlite3';
import { statement } from './statement.js';

/** The kinds of record whose writes are counted: what GET /v1/analytics/summary reads. */
export const VERSIONED_KINDS = ['conversations', 'messages', 'leads'] as const;
export type VersionedKind = (typeof VERSIONED_KINDS)[number];

const KINDS_SQL = VERSIONED_KINDS.map((kind) => `'${kind}'`).join(', ');
const BUMP = (row: 'new' | 'old') =>
  `INSERT INTO kind_versions (kind, n) VALUES (${row}.kind, 1) ON CONFLICT (kind) DO UPDATE SET n = n + 1;`;

/**
 * A counter per kind that every insert, update and delete of its documents bumps, kept by triggers so that no
 * writer (a handler, a reset, an import, plain SQL) can miss it. What is computed from a whole kind is then
 * computed again only once the kind has changed: the analytics summary parsed every conversation, message
 * and lead of the workspace on each request, most of the emulator's time under read load (issue 25, point 8).
 */
export const KIND_VERSIONS_SQL = `
CREATE TABLE IF NOT EXISTS kind_versions (kind TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS kind_version_insert AFTER INSERT ON docs WHEN new.kind IN (${KINDS_SQL})
BEGIN ${BUMP('new')} END;
CREATE TRIGGER IF NOT EXISTS kind_version_update AFTER UPDATE ON docs WHEN new.kind IN (${KINDS_SQL})
BEGIN ${BUMP('new')} END;
CREATE TRIGGER IF NOT EXISTS kind_version_delete AFTER DELETE ON docs WHEN old.kind IN (${KINDS_SQL})
BEGIN ${BUMP('old')} END;
`;

/**
 * A number that grows with every write to any of `kinds` (the sum of their counters): equal numbers mean
 * their documents are unchanged.
 */
export function kindsVersion(db: Database.Database, kinds: readonly VersionedKind[]): number {
  return (
    statement(db, `SELECT total(n) AS n FROM kind_versions WHERE kind IN (SELECT value FROM json_each(?))`).get(
      JSON.stringify(kinds),
    ) as { n: number }
  ).n;
}
