import { prefixedId } from '../../internal/prefixed-id.js';
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { Scope, SCOPES } from '../../api/scopes.js';
import type { AuthenticatedKey, Clock } from '../route-handler.js';
import type { Page } from '../../api/schemas/page.js';
import { Collection, type ListOptions } from './collection.js';
import { kindsVersion } from './kind-versions.js';
import { statement } from './statement.js';

export const KeyKind = z.enum(['live', 'test']);
export type KeyKind = z.output<typeof KeyKind>;

/** What is kept about a key: never its value, only a sha256 of it (in `api_key_hashes`). */
export const KeyRecord = z.object({
  id: z.string().min(1),
  label: z.string(),
  scopes: z.array(Scope),
  kind: KeyKind,
  /** The last 4 characters of the current value, to tell keys apart. */
  last4: z.string(),
  created_at: z.string(),
  rotated_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  /** The emulator's own admin key: every scope, and `/_emulator/*`. */
  admin: z.boolean(),
});
export type KeyRecord = z.output<typeof KeyRecord>;

/** After a rotation the old value keeps working this long (docs/keys-and-limits.md), by the emulator clock. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

/** `svc_live_` or `svc_test_` + 32 url-safe characters (docs/keys-and-limits.md). */
export const KEY_FORMAT = /^svc_(live|test)_[A-Za-z0-9_-]{32}$/;

const LAST_USED_RESOLUTION_MS = 60_000;

export const KEYS_KIND = 'api_keys';
/** The kind api_key_hashes' triggers count their writes under (database.ts). */
export const KEY_HASHES_KIND = 'api_key_hashes';

export function generateKey(kind: KeyKind): string {
  return prefixedId(`svc_${kind}`, 24);
}

function hashOf(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Why a presented key was refused: the 401 message says which, never the key itself. */
export type KeyRefusal = 'unknown' | 'revoked' | 'expired';

/** A key value's key, as authenticate() keeps it. */
interface KnownKey {
  record: KeyRecord;
  /** When this value stops working (after a rotation), by the emulator clock; null while it is current. */
  expiresAt: number | null;
  key: AuthenticatedKey;
}

/** The kinds whose writes can change what a key value authenticates as: key records and value hashes. */
const KEY_KINDS = [KEYS_KIND, KEY_HASHES_KIND];
/** Key values kept at once: bounded memory whatever the number of keys. */
const MAX_KNOWN_KEYS = 10_000;

export class KeyStore {
  private readonly records: Collection<KeyRecord>;
  /** authenticate()'s answers by value hash, for `knownVersion` of KEY_KINDS. */
  private readonly known = new Map<string, KnownKey>();
  private knownVersion: number | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.records = new Collection<KeyRecord>(db, KEYS_KIND);
  }

  /** Creates a key and returns its value: the only time the value exists outside the caller. */
  create(input: { id: string; label: string; scopes: Scope[]; kind: KeyKind; admin?: boolean }): {
    record: KeyRecord;
    key: string;
  } {
    const key = generateKey(input.kind);
    const record = this.register(key, input);
    return { record, key };
  }

  /** Stores `value` as the one current value of key `id` (the emulator's own keys, given or generated at start). */
  register(
    value: string,
    input: { id: string; label: string; scopes: Scope[]; kind: KeyKind; admin?: boolean },
  ): KeyRecord {
    const record: KeyRecord = {
      id: input.id,
      label: input.label,
      scopes: input.admin ? [...SCOPES] : input.scopes,
      kind: input.kind,
      last4: value.slice(-4),
      created_at: this.records.get(input.id)?.created_at ?? this.clock.iso(),
      rotated_at: null,
      last_used_at: null,
      admin: input.admin ?? false,
    };
    this.db.transaction(() => {
      statement(this.db, 'DELETE FROM api_key_hashes WHERE key_id = ? OR hash = ?').run(record.id, hashOf(value));
      statement(this.db, 'INSERT INTO api_key_hashes (hash, key_id, expires_at) VALUES (?, ?, NULL)').run(
        hashOf(value),
        record.id,
      );
      this.records.put(record);
    })();
    return record;
  }

  /** Finds the key a value belongs to: a lookup by hash, so no comparison leaks timing about the value. */
  authenticate(value: string): AuthenticatedKey | KeyRefusal {
    const hash = hashOf(value);
    const known = this.knownKey(hash);
    if (typeof known === 'string') return known;
    if (known.expiresAt !== null && known.expiresAt <= this.clock.now()) return 'expired';
    this.touch(known);
    return known.key;
  }

  /**
   * The key a hash belongs to, kept until a key or a key value is written (kind-versions.ts): reading the hash
   * row and the key's document on every request was 4% of the emulator's time under load (issue 25, point 8).
   */
  private knownKey(hash: string): KnownKey | KeyRefusal {
    const version = this.db.inTransaction ? undefined : kindsVersion(this.db, KEY_KINDS);
    if (version === undefined || version !== this.knownVersion) {
      this.known.clear();
      this.knownVersion = version;
    }
    const kept = this.known.get(hash);
    if (kept) return kept;
    const row = statement(this.db, 'SELECT key_id, expires_at FROM api_key_hashes WHERE hash = ?').get(hash) as
      | { key_id: string; expires_at: number | null }
      | undefined;
    if (!row) return 'unknown';
    const record = this.records.get(row.key_id);
    // A revoked key's hashes point at nothing; an expired value is refused as such, before that.
    if (!record) return row.expires_at !== null && row.expires_at <= this.clock.now() ? 'expired' : 'revoked';
    const found: KnownKey = {
      record,
      expiresAt: row.expires_at,
      key: { id: record.id, kind: record.kind, scopes: record.scopes, admin: record.admin },
    };
    if (version !== undefined) {
      if (this.known.size >= MAX_KNOWN_KEYS) this.known.clear();
      this.known.set(hash, found);
    }
    return found;
  }

  /** Keeps `last_used_at` to the minute: one write per key per minute, not one per request. */
  private touch(known: KnownKey): void {
    const now = this.clock.now();
    const { record } = known;
    if (record.last_used_at !== null && now - Date.parse(record.last_used_at) < LAST_USED_RESOLUTION_MS) return;
    known.record = this.records.put({ ...record, last_used_at: new Date(now).toISOString() });
    // This write is the only change since the version was read (nothing else runs in between), so what is
    // kept stays true; every other key's record is as it was.
    if (this.knownVersion !== undefined) this.knownVersion = kindsVersion(this.db, KEY_KINDS);
  }

  count(): number {
    return this.records.count();
  }

  /** Every key but `keep` goes, and every value of it (a reset to the seed): from now on such a value is unknown. */
  removeAllExcept(keep: readonly string[]): void {
    const ids = JSON.stringify(keep);
    this.db.transaction(() => {
      statement(this.db, 'DELETE FROM docs WHERE kind = ? AND id NOT IN (SELECT value FROM json_each(?))').run(
        KEYS_KIND,
        ids,
      );
      statement(this.db, 'DELETE FROM api_key_hashes WHERE key_id NOT IN (SELECT value FROM json_each(?))').run(ids);
    })();
  }

  get(id: string): KeyRecord | undefined {
    return this.records.get(id);
  }

  list(options: ListOptions): Page<KeyRecord> {
    return this.records.list(options);
  }

  /** A new value; the values in use so far keep working for the grace period, then stop. */
  rotate(id: string): { record: KeyRecord; key: string; previousExpiresAt: number } {
    return this.db.transaction(() => {
      const current = this.records.require(id, 'key');
      const key = generateKey(current.kind);
      const previousExpiresAt = this.clock.now() + ROTATION_GRACE_MS;
      statement(this.db, 'UPDATE api_key_hashes SET expires_at = ? WHERE key_id = ? AND expires_at IS NULL').run(
        previousExpiresAt,
        id,
      );
      statement(this.db, 'INSERT INTO api_key_hashes (hash, key_id, expires_at) VALUES (?, ?, NULL)').run(
        hashOf(key),
        id,
      );
      const record = this.records.put({ ...current, last4: key.slice(-4), rotated_at: this.clock.iso() });
      return { record, key, previousExpiresAt };
    })();
  }

  /** Refused at once: the record goes, so every value of it (current or in grace) is unknown from now on. */
  revoke(id: string): void {
    this.db.transaction(() => {
      this.records.require(id, 'key');
      this.records.delete(id);
      // Hashes are kept (pointing at nothing) so a revoked value answers "revoked", not "unknown".
      statement(this.db, 'UPDATE api_key_hashes SET expires_at = NULL WHERE key_id = ?').run(id);
    })();
  }
}
