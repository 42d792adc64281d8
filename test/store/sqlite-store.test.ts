import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore, DeliveryStoreError, type DeliveryStore, type NewDelivery } from '../../src/store/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations.js';
import { tempDir } from './temp-dir.js';

const T0 = 1_763_683_200_000;
const LEASE = { leaseMs: 30_000, owner: 'worker-a' };

function delivery(id: string, overrides: Partial<NewDelivery> = {}): NewDelivery {
  const body = Buffer.from(JSON.stringify({ id: `evt_${id}`, event: overrides.event ?? 'message.received', data: {} }));
  return {
    id,
    event: 'message.received',
    body,
    signature: 'sha256=' + 'a'.repeat(64),
    timestamp: String(T0 / 1000),
    receivedAt: T0,
    ...overrides,
  };
}

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

describe('record', () => {
  it('stores a delivery once; recording the same id again changes nothing', async () => {
    await expect(store.record(delivery('dlv_1'))).resolves.toEqual({ inserted: true });
    await expect(
      store.record(delivery('dlv_1', { event: 'ticket.created', body: Buffer.from('{}') })),
    ).resolves.toEqual({ inserted: false });
    const row = await store.get('dlv_1');
    expect(row).toMatchObject({
      id: 'dlv_1',
      event: 'message.received',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: T0,
    });
    expect(Buffer.from(row!.body).toString()).toContain('evt_dlv_1');
  });

  it('commits before it resolves: another connection sees every row', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => store.record(delivery(`dlv_${i}`))));
    expect(results.every((r) => r.inserted)).toBe(true);
    const other = new Database(dir.path('deliveries.db'), { readonly: true });
    expect(other.prepare('SELECT count(*) FROM inbox').pluck().get()).toBe(40);
    other.close();
  });

  it('inserts one row when the same id arrives 50 times at once', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => store.record(delivery('dlv_storm'))));
    expect(results.filter((r) => r.inserted)).toHaveLength(1);
    expect((await store.list()).data).toHaveLength(1);
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
    await expect(busyStore.record(delivery('dlv_busy'))).resolves.toEqual({ inserted: true });
    other.close();
    await busyStore.close();
  });
});

describe('claim, complete and fail', () => {
  it('leases due rows up to the limit, oldest due first; the attempt is written when it ends', async () => {
    for (let i = 0; i < 3; i++) await store.record(delivery(`dlv_${i}`, { receivedAt: T0 + i }));
    const claimed = await store.claim({ ...LEASE, limit: 2, now: T0 + 10 });
    expect(claimed.map((r) => r.id)).toEqual(['dlv_0', 'dlv_1']);
    expect(claimed[0]).toMatchObject({
      status: 'processing',
      attempts: 1,
      leaseOwner: 'worker-a',
      leaseUntil: T0 + 10 + 30_000,
    });
    expect(await store.claim({ ...LEASE, limit: 5, now: T0 + 10 })).toHaveLength(1);
    expect(await store.claim({ ...LEASE, limit: 5, now: T0 + 10 })).toHaveLength(0);
    expect(await store.attempts('dlv_0')).toEqual([]);
    await store.fail('dlv_0', 'worker-a', { error: 'nope', retryAt: T0 + 20, now: T0 + 15 });
    expect(await store.attempts('dlv_0')).toEqual([
      {
        deliveryId: 'dlv_0',
        attempt: 1,
        owner: 'worker-a',
        startedAt: T0 + 10,
        finishedAt: T0 + 15,
        outcome: 'failed',
        error: 'nope',
      },
    ]);
  });

  it('does not claim a row received in the future of `now`', async () => {
    await store.record(delivery('dlv_later', { receivedAt: T0 + 1000 }));
    expect(await store.claim({ ...LEASE, limit: 5, now: T0 })).toHaveLength(0);
  });

  it('claims no row twice when two workers claim at once', async () => {
    for (let i = 0; i < 20; i++) await store.record(delivery(`dlv_${i}`));
    const [a, b] = await Promise.all([
      store.claim({ ...LEASE, owner: 'a', limit: 15, now: T0 }),
      store.claim({ ...LEASE, owner: 'b', limit: 15, now: T0 }),
    ]);
    const ids = [...a, ...b].map((r) => r.id);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });

  it('two stores on one file (two processes) never lease the same row', async () => {
    const other = createSqliteStore({ path: dir.path('deliveries.db') });
    for (let i = 0; i < 30; i++) await store.record(delivery(`dlv_${i}`));
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? other : store).claim({ ...LEASE, owner: `w${i}`, limit: 7, now: T0 }),
      ),
    );
    const ids = claims.flat().map((r) => r.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    await other.close();
  });

  it('completes only while the caller holds the lease', async () => {
    await store.record(delivery('dlv_1'));
    await store.claim({ ...LEASE, limit: 1, now: T0 });
    await expect(store.complete('dlv_1', 'someone-else', T0 + 1)).resolves.toBe(false);
    await expect(store.complete('dlv_1', 'worker-a', T0 + 1)).resolves.toBe(true);
    await expect(store.complete('dlv_1', 'worker-a', T0 + 2)).resolves.toBe(false);
    expect(await store.get('dlv_1')).toMatchObject({
      status: 'done',
      nextAttemptAt: null,
      leaseOwner: null,
      lastError: null,
    });
    expect((await store.attempts('dlv_1'))[0]).toMatchObject({ outcome: 'done', finishedAt: T0 + 1 });
  });

  it('a failed row waits for its retry time; a dead one is never claimed again', async () => {
    await store.record(delivery('dlv_1'));
    await store.claim({ ...LEASE, limit: 1, now: T0 });
    await store.fail('dlv_1', 'worker-a', { error: 'boom', retryAt: T0 + 5000, now: T0 + 1 });
    expect(await store.get('dlv_1')).toMatchObject({ status: 'failed', lastError: 'boom', nextAttemptAt: T0 + 5000 });
    expect(await store.claim({ ...LEASE, limit: 1, now: T0 + 4999 })).toHaveLength(0);
    const [again] = await store.claim({ ...LEASE, limit: 1, now: T0 + 5000 });
    expect(again).toMatchObject({ attempts: 2 });
    await store.fail('dlv_1', 'worker-a', { error: 'x'.repeat(10_000), dead: true, now: T0 + 5001 });
    const dead = await store.get('dlv_1');
    expect(dead).toMatchObject({ status: 'dead', nextAttemptAt: null });
    expect(dead!.lastError!.length).toBe(2000);
    expect(await store.claim({ ...LEASE, limit: 1, now: T0 + 10 ** 9 })).toHaveLength(0);
    expect((await store.attempts('dlv_1')).map((a) => a.outcome)).toEqual(['failed', 'dead']);
  });

  it('claims a processing row again once its lease expired, and records the lost attempt', async () => {
    await store.record(delivery('dlv_1'));
    await store.claim({ ...LEASE, limit: 1, now: T0 });
    expect(await store.claim({ ...LEASE, owner: 'worker-b', limit: 1, now: T0 + 29_999 })).toHaveLength(0);
    const [taken] = await store.claim({ ...LEASE, owner: 'worker-b', limit: 1, now: T0 + 30_000 });
    expect(taken).toMatchObject({ leaseOwner: 'worker-b', attempts: 2 });
    await expect(store.complete('dlv_1', 'worker-a')).resolves.toBe(false);
    await store.complete('dlv_1', 'worker-b', T0 + 30_001);
    expect((await store.attempts('dlv_1')).map((a) => [a.owner, a.outcome, a.startedAt])).toEqual([
      ['worker-a', 'lost', T0],
      ['worker-b', 'done', T0 + 30_000],
    ]);
  });

  it('claimById takes a pending or failed row whatever its retry time, but not a live lease or a done row', async () => {
    await store.record(delivery('dlv_1'));
    expect(await store.claimById('dlv_1', { ...LEASE, now: T0 })).toMatchObject({ id: 'dlv_1', attempts: 1 });
    expect(await store.claimById('dlv_1', { ...LEASE, owner: 'b', now: T0 + 1 })).toBeUndefined();
    await store.fail('dlv_1', 'worker-a', { error: 'e', retryAt: T0 + 60_000, now: T0 + 2 });
    expect(await store.claimById('dlv_1', { ...LEASE, now: T0 + 3 })).toMatchObject({ attempts: 2 });
    await store.complete('dlv_1', 'worker-a', T0 + 4);
    expect(await store.claimById('dlv_1', { ...LEASE, now: T0 + 5 })).toBeUndefined();
    expect(await store.claimById('dlv_missing', { ...LEASE, now: T0 + 5 })).toBeUndefined();
  });

  it('refuses nonsense lease options with the option named', async () => {
    await expect(store.claim({ limit: 1, leaseMs: 0, owner: 'a' })).rejects.toThrow(/`leaseMs`/);
    await expect(store.claim({ limit: -1, leaseMs: 10, owner: 'a' })).rejects.toThrow(/`limit`/);
    await expect(store.claim({ limit: 1, leaseMs: 10, owner: '' })).rejects.toThrow(/`owner`/);
  });
});

describe('requeue and prune', () => {
  it('requeue puts dead and done rows back as pending with attempts counted afresh, leaving live leases alone', async () => {
    for (const id of ['dlv_dead', 'dlv_live']) await store.record(delivery(id));
    await store.claim({ ...LEASE, limit: 2, now: T0 });
    await store.fail('dlv_dead', 'worker-a', { error: 'bad', dead: true, now: T0 + 1 });
    await expect(store.requeue(['dlv_dead', 'dlv_live', 'dlv_missing', 'dlv_dead'], T0 + 2)).resolves.toBe(1);
    expect(await store.get('dlv_dead')).toMatchObject({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: T0 + 2,
      lastError: 'bad',
    });
    expect(await store.get('dlv_live')).toMatchObject({ status: 'processing' });
    await expect(store.requeue(Array.from({ length: 1001 }, (_, i) => `dlv_${i}`))).rejects.toThrow(DeliveryStoreError);
  });

  it('prune deletes done rows older than the cut-off with their history, and nothing else', async () => {
    for (const id of ['dlv_old', 'dlv_new', 'dlv_failed']) await store.record(delivery(id));
    await store.claim({ ...LEASE, limit: 3, now: T0 });
    await store.complete('dlv_old', 'worker-a', T0 + 1);
    await store.complete('dlv_new', 'worker-a', T0 + 100);
    await store.fail('dlv_failed', 'worker-a', { error: 'e', retryAt: T0 + 1, now: T0 + 1 });
    await expect(store.prune(T0 + 50)).resolves.toBe(1);
    expect(await store.get('dlv_old')).toBeUndefined();
    expect(await store.attempts('dlv_old')).toEqual([]);
    expect(await store.get('dlv_new')).toBeDefined();
    expect(await store.get('dlv_failed')).toBeDefined();
  });
  it('prunes old done rows by itself on open when pruneDoneAfterMs is set, and keeps them with null', async () => {
    await store.record(delivery('dlv_done'));
    await store.claim({ ...LEASE, limit: 1, now: T0 });
    await store.complete('dlv_done', 'worker-a', T0 + 1);
    await store.close();
    store = createSqliteStore({ path: dir.path('deliveries.db'), pruneDoneAfterMs: null });
    expect(await store.get('dlv_done')).toBeDefined();
    await store.close();
    store = createSqliteStore({ path: dir.path('deliveries.db'), pruneDoneAfterMs: 24 * 3600 * 1000 });
    expect(await store.get('dlv_done')).toBeUndefined();
  });
});

describe('list', () => {
  beforeEach(async () => {
    const events = ['message.received', 'message.sent', 'ticket.created', 'messages.custom', 'contact.updated'];
    for (let i = 0; i < 10; i++)
      await store.record(
        delivery(`dlv_${String(i).padStart(2, '0')}`, { event: events[i % 5]!, receivedAt: T0 + i * 1000 }),
      );
  });

  it('walks every row newest first, page by page, without repeats', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list({ limit: 3, cursor });
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((d) => d.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `dlv_${String(9 - i).padStart(2, '0')}`));
  });

  it('filters by event pattern exactly as the service matches subscriptions', async () => {
    const events = async (eventPattern: string) =>
      [...new Set((await store.list({ eventPattern })).data.map((d) => d.event))].sort();
    expect(await events('message.*')).toEqual(['message.received', 'message.sent']);
    expect(await events('ticket.created')).toEqual(['ticket.created']);
    expect(await events('*')).toHaveLength(5);
    expect(await events('messages.*')).toEqual([]);
  });

  it('filters by status and received time, and leaves the body out of a summary', async () => {
    await store.claim({ ...LEASE, limit: 2, now: T0 + 60_000 });
    const processing = await store.list({ status: 'processing' });
    expect(processing.data.map((d) => d.id).sort()).toEqual(['dlv_00', 'dlv_01']);
    expect(processing.data[0]).not.toHaveProperty('body');
    expect(processing.data[0]!.size).toBeGreaterThan(10);
    expect((await store.list({ status: ['pending', 'processing'] })).data).toHaveLength(10);
    expect((await store.list({ since: T0 + 3000, until: T0 + 6000 })).data.map((d) => d.id)).toEqual([
      'dlv_05',
      'dlv_04',
      'dlv_03',
    ]);
  });

  it('refuses a bad limit, status or cursor with the field named', async () => {
    await expect(store.list({ limit: 0 })).rejects.toThrow(/`limit`/);
    await expect(store.list({ limit: 501 })).rejects.toThrow(/`limit`/);
    await expect(store.list({ status: 'finished' as never })).rejects.toThrow(/`status`.*finished/);
    await expect(store.list({ cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    await expect(store.list({ since: Number.NaN })).rejects.toThrow(/`since`/);
  });
});

describe('opening and closing', () => {
  it('keeps rows across a reopen and records the schema version', async () => {
    await store.record(delivery('dlv_1'));
    await store.close();
    store = createSqliteStore({ path: dir.path('deliveries.db') });
    expect(await store.get('dlv_1')).toBeDefined();
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
    await expect(store.record(delivery('dlv_new'))).resolves.toEqual({ inserted: true });

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
    ]);
    expect(db.prepare('PRAGMA foreign_key_list(inbox_bodies)').get()).toMatchObject({ table: 'inbox' });
    db.close();
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

  it('answers STORE_CLOSED after close', async () => {
    await store.close();
    await expect(store.record(delivery('dlv_1'))).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    await expect(store.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});
