import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore, type DeliveryStore } from '../../src/store/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations.js';
import { delivery, deliveryStoreContract, LEASE, T0 } from './delivery-store-contract.js';
import { tempDir } from './temp-dir.js';

describe('the DeliveryStore contract, on SQLite', () => {
  deliveryStoreContract(() => {
    const dir = tempDir();
    return {
      open: (options) => createSqliteStore({ path: dir.path('deliveries.db'), ...options }),
      remove: async () => dir.remove(),
    };
  });
});

describe('SQLite only', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: DeliveryStore;
  beforeEach(() => {
    dir = tempDir();
    store = createSqliteStore({ path: dir.path('deliveries.db') });
  });
  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  it('commits before it resolves: another connection sees every row', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => store.record(delivery(`dlv_${i}`))));
    expect(results.every((r) => r.inserted)).toBe(true);
    const other = new Database(dir.path('deliveries.db'), { readonly: true });
    expect(other.prepare('SELECT count(*) FROM inbox').pluck().get()).toBe(40);
    other.close();
  });

  it('refuses (does not resolve) a write whose WAL cannot be flushed to disk', async () => {
    const fragile = createSqliteStore({ path: dir.path('fragile.db') });
    rmSync(dir.path('fragile.db-wal'));
    await expect(fragile.record(delivery('dlv_unsynced'))).rejects.toThrow(/ENOENT/);
    await fragile.close();
  });

  it('rejects when another process holds the write lock past the busy timeout', async () => {
    const busyStore = createSqliteStore({ path: dir.path('busy.db'), busyTimeoutMs: 20 });
    const other = new Database(dir.path('busy.db'));
    other.exec('BEGIN IMMEDIATE');
    await expect(busyStore.record(delivery('dlv_busy'))).rejects.toThrow(/locked|busy/i);
    other.exec('ROLLBACK');
    await expect(busyStore.record(delivery('dlv_busy'))).resolves.toEqual({ inserted: true, id: 'dlv_busy' });
    other.close();
    await busyStore.close();
  });

  it('records the schema version and runs in WAL mode', async () => {
    await store.close();
    const db = new Database(dir.path('deliveries.db'), { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('upgrades a file written by the first schema: rows, bodies and attempts survive under the inbox tables', async () => {
    await store.close();
    const path = dir.path('v1.db');
    const old = new Database(path);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    const body = Buffer.from('{"id":"evt_old","event":"ticket.created","data":{}}');
    old
      .prepare(
        `INSERT INTO deliveries (seq, id, event, size, signature, timestamp, received_at, status, attempts, next_attempt_at, last_error, updated_at)
         VALUES (1, 'dlv_old', 'ticket.created', ?, 'sha256=x', '1763683200', ?, 'failed', 1, ?, 'boom', ?)`,
      )
      .run(body.length, T0, T0 + 1000, T0);
    old.prepare('INSERT INTO delivery_bodies (seq, body) VALUES (1, ?)').run(body);
    old
      .prepare(
        `INSERT INTO delivery_attempts (delivery_id, attempt, owner, started_at, finished_at, outcome, error)
         VALUES ('dlv_old', 1, 'worker-a', ?, ?, 'failed', 'boom')`,
      )
      .run(T0, T0 + 10);
    old.close();

    store = createSqliteStore({ path });
    expect(await store.get('dlv_old')).toMatchObject({ status: 'failed', attempts: 1, lastError: 'boom' });
    expect(Buffer.from((await store.get('dlv_old'))!.body).equals(body)).toBe(true);
    expect(await store.attempts('dlv_old')).toEqual([
      expect.objectContaining({ deliveryId: 'dlv_old', attempt: 1, outcome: 'failed', error: 'boom' }),
    ]);
    // The upgraded file works: the due row is claimed through the recreated index, and new rows go in.
    expect((await store.claim({ limit: 5, ...LEASE, now: T0 + 1000 })).map((r) => r.id)).toEqual(['dlv_old']);
    await expect(store.record(delivery('dlv_new'))).resolves.toEqual({ inserted: true, id: 'dlv_new' });
    // Its event id came from the stored body: a replay of it under a new delivery id is a duplicate.
    await expect(store.record(delivery('dlv_replay', { eventId: 'evt_old' }))).resolves.toEqual({
      inserted: false,
      id: 'dlv_old',
    });

    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const names = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    expect(names).toEqual([
      'inbox',
      'inbox_attempts',
      'inbox_attempts_delivery',
      'inbox_bodies',
      'inbox_done',
      'inbox_due',
      'inbox_event_id',
      'inbox_steps',
      'inbox_steps_delivery',
    ]);
    expect(db.prepare('PRAGMA foreign_key_list(inbox_bodies)').get()).toMatchObject({ table: 'inbox' });
    db.close();
  });

  it('upgrades older duplicates and unreadable bodies: the first row keeps an event id, the rest have none', async () => {
    await store.close();
    const path = dir.path('v1-dups.db');
    const old = new Database(path);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    const insert = old.prepare(
      `INSERT INTO deliveries (id, event, size, signature, timestamp, received_at, status, updated_at) VALUES (?, 'message.received', 1, 's', '1', 1, 'pending', 1)`,
    );
    const body = old.prepare('INSERT INTO delivery_bodies (seq, body) VALUES (?, ?)');
    const rows: [string, string][] = [
      ['dlv_a', '{"id":"evt_x","event":"message.received","data":{}}'],
      ['dlv_b', '{"id":"evt_x","event":"message.received","data":{}}'],
      ['dlv_c', 'not json'],
      ['dlv_d', '{"id":7,"event":"message.received","data":{}}'],
    ];
    for (const [id, text] of rows) body.run(insert.run(id).lastInsertRowid, Buffer.from(text));
    old.close();
    store = createSqliteStore({ path });
    await expect(store.record(delivery('dlv_e', { eventId: 'evt_y' }))).resolves.toMatchObject({ inserted: true });
    const check = new Database(path, { readonly: true });
    expect(check.prepare('SELECT id, event_id FROM inbox ORDER BY seq').all()).toEqual([
      { id: 'dlv_a', event_id: 'evt_x' },
      { id: 'dlv_b', event_id: null },
      { id: 'dlv_c', event_id: null },
      { id: 'dlv_d', event_id: null },
      { id: 'dlv_e', event_id: 'evt_y' },
    ]);
    check.close();
  });

  it('refuses a file written by a newer schema', () => {
    const db = new Database(dir.path('newer.db'));
    db.pragma('user_version = 99');
    db.close();
    expect(() => createSqliteStore({ path: dir.path('newer.db') })).toThrow(/newer than this convo-kit/);
  });

  it('refuses bad options with the option named', () => {
    expect(() => createSqliteStore({ path: '' })).toThrow(/`path`/);
    expect(() => createSqliteStore({ path: dir.path('x.db'), durability: 'fast' as never })).toThrow(/`durability`/);
    expect(() => createSqliteStore({ path: dir.path('x.db'), pruneDoneAfterMs: -1 })).toThrow(/`pruneDoneAfterMs`/);
  });

  it('refuses a pruneDoneAfterMs under an hour: a pruned row no longer makes a replay a duplicate', () => {
    for (const pruneDoneAfterMs of [0, 1000, 59 * 60 * 1000])
      expect(() => createSqliteStore({ path: dir.path('x.db'), pruneDoneAfterMs })).toThrow(
        /`pruneDoneAfterMs` to be null or at least 3600000 ms/,
      );
    const kept = createSqliteStore({ path: dir.path('y.db'), pruneDoneAfterMs: 60 * 60 * 1000 });
    return kept.close();
  });
});
