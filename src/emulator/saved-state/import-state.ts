import type Database from 'better-sqlite3';
import { z } from 'zod';
import { Timestamp } from '../../api/schemas/common.js';
import { ApiFailure } from '../api-failure.js';
import type { EmulatorClock } from '../clock.js';
import { validateRequest } from '../platform/validate-request.js';
import { Collection } from '../state/collection.js';
import { KEYS_KIND } from '../state/key-store.js';
import { rebuildOutboundCounts } from '../state/outbound-counts.js';
import { flushRequestCounts } from '../state/request-stats.js';
import { secretBox } from '../state/secret-box.js';
import { statement } from '../state/statement.js';
import { OWN_KEY_IDS } from './export-state.js';
import { idFieldOf, SEALED_FIELDS, StateDocument } from './state-document.js';
import { openStateBox } from './state-key.js';

type Doc = Record<string, unknown>;

export interface ImportTarget {
  db: Database.Database;
  clock: EmulatorClock;
  /**
   * Forgets what was kept in memory about the state that was replaced, and starts the work the new one holds:
   * rate-limit windows, the campaign sender's cache, AI replies waiting, the scheduler (create-emulator.ts).
   */
  afterImport(): void;
}

/** What `PUT /_emulator/state` answers: the time the clock goes on from, and what was loaded. */
export const ImportSummary = z.object({
  imported: z.literal(true),
  now: Timestamp,
  /** Documents per collection. */
  collections: z.record(z.string(), z.number().int().min(0)),
  deliveries: z.number().int().min(0),
});
export type ImportSummary = z.output<typeof ImportSummary>;

/** Checks a document against StateDocument: a refusal is the 400 envelope naming the first wrong field. */
export function parseStateDocument(raw: unknown): StateDocument {
  return validateRequest({ body: StateDocument }, { params: {}, query: {}, body: raw, headers: {} })
    .body as StateDocument;
}

/** Every sealed secret opened with the state key and sealed again with this emulator's secret box, or a 400 naming it. */
function resealed(
  doc: StateDocument,
  db: Database.Database,
  stateKey: string | undefined,
): StateDocument['collections'] {
  if (doc.secrets === null) return doc.collections;
  if (stateKey === undefined) {
    throw new ApiFailure(
      'VALIDATION_FAILED',
      'The document holds secrets sealed with a state key: send that key (X-Emulator-State-Key, or CONVO_KIT_STATE_KEY for the CLI)',
      { details: [{ path: 'secrets', in: 'body', message: 'sealed with a state key that was not given' }] },
    );
  }
  const box = openStateBox(stateKey, doc.secrets);
  const stored = secretBox(db);
  const collections: StateDocument['collections'] = {};
  for (const [kind, docs] of Object.entries(doc.collections)) {
    collections[kind] = docs.map((item, i) => {
      const copy: Doc = { ...item };
      for (const field of SEALED_FIELDS) {
        const value = copy[field];
        if (typeof value !== 'string') continue;
        let secret: string;
        try {
          secret = box.open(value);
        } catch {
          const path = `collections.${kind}.${i}.${field}`;
          throw new ApiFailure(
            'VALIDATION_FAILED',
            `Invalid body field ${path}: the state key given does not open it`,
            {
              details: [{ path, in: 'body', message: 'the state key given does not open it (another key sealed it?)' }],
            },
          );
        }
        copy[field] = stored.seal(secret);
      }
      return copy;
    });
  }
  return collections;
}

/**
 * Replaces the whole workspace with a state document (docs/emulator.md, "Saving and loading state"), in one
 * transaction: a document refused (its schema, its secrets) or a write that fails leaves the current state as it
 * was. The emulator's own two keys stay; idempotency records go (an export holds none: their stored answers may
 * hold a key or secret shown once). Then the clock goes on from the document's time and the work it holds starts.
 */
export function importState(target: ImportTarget, raw: unknown, options: { stateKey?: string } = {}): ImportSummary {
  const { db, clock } = target;
  const doc = parseStateDocument(raw);
  const collections = resealed(doc, db, options.stateKey);
  const own = JSON.stringify(OWN_KEY_IDS);
  // Counts still in memory go into the table first, so that replacing them is part of the transaction.
  flushRequestCounts(db);
  db.transaction(() => {
    const ownKeys = new Collection<Doc>(db, KEYS_KIND).all().filter((k) => OWN_KEY_IDS.includes(String(k.id)));
    statement(db, 'DELETE FROM docs').run();
    for (const [kind, docs] of Object.entries(collections))
      new Collection<Doc>(db, kind, idFieldOf(kind)).insertMany(docs);
    new Collection<Doc>(db, KEYS_KIND).insertMany(ownKeys.reverse());
    statement(db, 'DELETE FROM api_key_hashes WHERE key_id NOT IN (SELECT value FROM json_each(?))').run(own);
    const hash = statement(db, 'INSERT OR IGNORE INTO api_key_hashes (hash, key_id, expires_at) VALUES (?, ?, ?)');
    for (const row of doc.api_key_hashes) hash.run(row.sha256, row.key_id, row.expires_at);
    statement(db, 'DELETE FROM deliveries').run();
    const delivery = statement(
      db,
      'INSERT INTO deliveries (id, endpoint_id, event, body, attempts, state, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const d of doc.deliveries)
      delivery.run(d.id, d.endpoint_id, d.event, d.body, d.attempts, d.state, d.next_attempt_at, d.created_at);
    statement(db, 'DELETE FROM delivery_attempts').run();
    const attempt = statement(
      db,
      'INSERT INTO delivery_attempts (endpoint_id, delivery_id, event, attempt, status_code, error, delivered_at, next_retry_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const a of doc.delivery_attempts)
      attempt.run(
        a.endpoint_id,
        a.delivery_id,
        a.event,
        a.attempt,
        a.status_code,
        a.error,
        a.delivered_at,
        a.next_retry_at,
        a.created_at,
      );
    statement(
      db,
      "INSERT INTO meta (name, value) VALUES ('delivery_attempts_total', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
    ).run(String(doc.delivery_attempts_total));
    statement(db, 'DELETE FROM request_counts').run();
    const counts = statement(
      db,
      'INSERT INTO request_counts (api_key_id, minute, requests, server_errors) VALUES (?, ?, ?, ?)',
    );
    for (const c of doc.request_counts) counts.run(c.api_key_id, c.minute, c.requests, c.server_errors);
    statement(db, 'DELETE FROM idempotency').run();
    rebuildOutboundCounts(db);
  })();
  // Listeners hear the move as an advance: the clock's offset is written, the dispatcher and scheduler look again.
  clock.continueFrom(Date.parse(doc.clock.now));
  target.afterImport();
  return {
    imported: true,
    now: clock.iso(),
    collections: Object.fromEntries(Object.entries(collections).map(([kind, docs]) => [kind, docs.length])),
    deliveries: doc.deliveries.length,
  };
}
