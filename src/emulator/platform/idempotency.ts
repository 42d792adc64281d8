import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { IdempotencyKey } from '../../api/schemas/common.js';
import { ApiFailure } from '../api-failure.js';
import type { Clock } from '../route-handler.js';
import { canonicalJson } from './canonical-json.js';
import { jsonTextOf } from '../state/json-text.js';
import { statement } from '../state/statement.js';

/** Keys are kept 24 hours (docs/keys-and-limits.md), by the emulator clock. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export interface StoredResult {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface IdempotencyClaim {
  /** Identifies the claim for finish()/release(). */
  slot: string;
  bodyHash: string;
  scope: { apiKeyId: string; method: string; path: string; key: string };
}

/** A kept result as stored: the body is the JSON text first sent (null for none), answered again as is. */
export interface StoredReplay {
  status: number;
  json: string | null;
  headers: Record<string, string>;
}

/** A stored result for the same (API key, method, path, key) and body: answer it again. */
export type IdempotencyOutcome = { replay: StoredReplay } | { claim: IdempotencyClaim };

/**
 * Idempotency-Key handling exactly as docs/keys-and-limits.md says: one result per (API key, method, path, key)
 * for 24 h; a different body is 409 IDEMPOTENCY_KEY_REUSED; a second request while the first runs is
 * 409 IDEMPOTENCY_KEY_IN_USE; 5xx and 429 results are not kept, so the same key may retry them.
 */
export class IdempotencyGuard {
  // In memory on purpose: a request is only in flight inside this process.
  private readonly inFlight = new Map<string, string>();

  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
  ) {}

  static requireKey(header: string | undefined): string {
    if (header === undefined || !IdempotencyKey.safeParse(header).success) {
      throw new ApiFailure(
        'IDEMPOTENCY_KEY_REQUIRED',
        'This route needs an Idempotency-Key header of 1 to 200 characters',
        {
          details: [
            {
              path: 'idempotency-key',
              in: 'headers',
              message: header === undefined ? 'missing' : `expected 1 to 200 characters, got ${header.length}`,
            },
          ],
        },
      );
    }
    return header;
  }

  begin(scope: IdempotencyClaim['scope'], body: unknown): IdempotencyOutcome {
    const slot = JSON.stringify([scope.apiKeyId, scope.method, scope.path, scope.key]);
    const bodyHash = createHash('sha256')
      .update(canonicalJson(body ?? null))
      .digest('hex');
    const running = this.inFlight.get(slot);
    if (running !== undefined) {
      throw new ApiFailure(
        'IDEMPOTENCY_KEY_IN_USE',
        'A request with this Idempotency-Key is still in progress; retry after it completes',
      );
    }
    const stored = statement(
      this.db,
      'SELECT body_hash, status, response, headers, expires_at FROM idempotency WHERE api_key_id = ? AND method = ? AND path = ? AND idempotency_key = ?',
    ).get(scope.apiKeyId, scope.method, scope.path, scope.key) as
      | { body_hash: string; status: number; response: string | null; headers: string; expires_at: number }
      | undefined;
    if (stored && stored.expires_at > this.clock.now()) {
      if (stored.body_hash !== bodyHash) {
        throw new ApiFailure(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was already used with a different body; use a new key for a new request',
        );
      }
      return {
        replay: {
          status: stored.status,
          json: stored.response,
          headers: JSON.parse(stored.headers) as Record<string, string>,
        },
      };
    }
    this.inFlight.set(slot, bodyHash);
    return { claim: { slot, bodyHash, scope } };
  }

  /** Keeps the result (unless 5xx or 429) and frees the key. */
  finish(claim: IdempotencyClaim, result: StoredResult): void {
    this.inFlight.delete(claim.slot);
    if (result.status >= 500 || result.status === 429) return;
    const { apiKeyId, method, path, key } = claim.scope;
    statement(
      this.db,
      `INSERT INTO idempotency (api_key_id, method, path, idempotency_key, body_hash, status, response, headers, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET body_hash = excluded.body_hash, status = excluded.status, response = excluded.response, headers = excluded.headers, expires_at = excluded.expires_at`,
    ).run(
      apiKeyId,
      method,
      path,
      key,
      claim.bodyHash,
      result.status,
      result.body === undefined ? null : jsonTextOf(result.body),
      JSON.stringify(result.headers),
      this.clock.now() + IDEMPOTENCY_TTL_MS,
    );
    statement(this.db, 'DELETE FROM idempotency WHERE expires_at <= ?').run(this.clock.now());
  }

  /** Frees the key without keeping anything (the request failed unexpectedly). */
  release(claim: IdempotencyClaim): void {
    this.inFlight.delete(claim.slot);
  }

  clear(): void {
    statement(this.db, 'DELETE FROM idempotency').run();
  }
}
