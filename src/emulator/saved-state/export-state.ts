import type Database from 'better-sqlite3';
import { ApiFailure } from '../api-failure.js';
import type { Clock } from '../route-handler.js';
import { EMULATOR_KEY_IDS } from '../handlers/keys.js';
import { KEYS_KIND } from '../state/key-store.js';
import { flushRequestCounts } from '../state/request-stats.js';
import { secretBox } from '../state/secret-box.js';
import {
  LEFT_OUT,
  MAX_STATE_BYTES,
  SEALED_FIELDS,
  STATE_FORMAT,
  STATE_FORMAT_VERSION,
  type StateDocument,
} from './state-document.js';
import { newStateBox } from './state-key.js';

type Doc = Record<string, unknown>;

/** The emulator's own two keys stay with each emulator (`--admin-key`, `--test-key`): never exported. */
export const OWN_KEY_IDS: readonly string[] = Object.values(EMULATOR_KEY_IDS);

/**
 * The workspace as a state document, read in one transaction so that a campaign or a delivery moving on meanwhile
 * cannot tear it. Secrets leave the secret box only to be sealed again with the state key; without one they are
 * LEFT_OUT. A delivery in flight is written as pending: it goes again after an import (at least once, as always).
 */
export function exportState(db: Database.Database, clock: Clock, options: { stateKey?: string } = {}): StateDocument {
  const sealing = options.stateKey === undefined ? undefined : newStateBox(options.stateKey);
  const stored = secretBox(db);
  const reseal = (doc: Doc): Doc => {
    const copy = { ...doc };
    for (const field of SEALED_FIELDS) {
      const value = copy[field];
      if (typeof value === 'string') copy[field] = sealing ? sealing.box.seal(stored.open(value)) : LEFT_OUT;
    }
    return copy;
  };
  flushRequestCounts(db);
  return db.transaction(() => {
    const collections: Record<string, Doc[]> = {};
    const rows = db.prepare('SELECT kind, id, data FROM docs ORDER BY kind, seq').iterate() as IterableIterator<{
      kind: string;
      id: string;
      data: string;
    }>;
    for (const row of rows) {
      if (row.kind === KEYS_KIND && OWN_KEY_IDS.includes(row.id)) continue;
      (collections[row.kind] ??= []).push(reseal(JSON.parse(row.data) as Doc));
    }
    const all = <T>(sql: string) => db.prepare(sql).all() as T[];
    return {
      format: STATE_FORMAT,
      format_version: STATE_FORMAT_VERSION,
      clock: { now: clock.iso() },
      secrets: sealing?.secrets ?? null,
      collections,
      api_key_hashes: all<StateDocument['api_key_hashes'][number]>(
        `SELECT hash AS sha256, key_id, expires_at FROM api_key_hashes
         WHERE key_id NOT IN (SELECT value FROM json_each('${JSON.stringify(OWN_KEY_IDS)}')) ORDER BY rowid`,
      ),
      deliveries: all<StateDocument['deliveries'][number]>(
        `SELECT id, endpoint_id, event, body, attempts, CASE state WHEN 'in_flight' THEN 'pending' ELSE state END AS state,
         next_attempt_at, created_at FROM deliveries ORDER BY rowid`,
      ),
      delivery_attempts: all<StateDocument['delivery_attempts'][number]>(
        `SELECT endpoint_id, delivery_id, event, attempt, status_code, error, delivered_at, next_retry_at, created_at
         FROM delivery_attempts ORDER BY seq`,
      ),
      delivery_attempts_total: Number(
        (
          db.prepare("SELECT value FROM meta WHERE name = 'delivery_attempts_total'").get() as
            | { value: string }
            | undefined
        )?.value ?? 0,
      ),
      request_counts: all<StateDocument['request_counts'][number]>(
        'SELECT api_key_id, minute, requests, server_errors FROM request_counts ORDER BY api_key_id, minute',
      ),
    };
  })();
}

/**
 * The document as a person reads and diffs it (two-space indent, collections in name order, documents oldest
 * first); refused when larger than an import would take.
 */
export function stateText(doc: StateDocument): string {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_STATE_BYTES) {
    throw new ApiFailure(
      'INVALID_STATE',
      `The state is ${bytes} bytes, more than the ${MAX_STATE_BYTES} an import takes; keep a workspace this large with --db`,
    );
  }
  return text;
}
