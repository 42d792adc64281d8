import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore, type DeliveryStore } from '../../src/store/index.js';
import { delivery, deliveryStoreContract } from './delivery-store-contract.js';
import { tempDir } from './temp-dir.js';

// createSqliteStore({ thread: true }): the same store, its SQLite work on the store thread (README "Durability").

describe('the DeliveryStore contract, on SQLite on the store thread', () => {
  deliveryStoreContract(() => {
    const dir = tempDir();
    return {
      open: (options) => createSqliteStore({ path: dir.path('deliveries.db'), thread: true, ...options }),
      remove: async () => dir.remove(),
    };
  });
});

describe('SQLite on the store thread only', () => {
  let dir: ReturnType<typeof tempDir>;
  const stores: DeliveryStore[] = [];
  const open = (name: string, options: { busyTimeoutMs?: number } = {}) => {
    const store = createSqliteStore({ path: dir.path(name), thread: true, ...options });
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    dir.remove();
  });

  it('waits for another process’s lock on the thread: the event loop keeps running, and the error keeps its code', async () => {
    const store = open('busy.db', { busyTimeoutMs: 400 });
    await store.list();
    const other = new Database(dir.path('busy.db'));
    other.exec('BEGIN IMMEDIATE');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const refused = await store.record(delivery('dlv_busy')).catch((error: unknown) => error);
    clearInterval(timer);
    other.exec('ROLLBACK');
    other.close();
    expect(refused).toBeInstanceOf(Error);
    expect(refused).toMatchObject({
      name: 'SqliteError',
      code: 'SQLITE_BUSY',
      message: expect.stringMatching(/locked/),
    });
    // On the event loop the 400 ms busy wait would have held every timer; here they ran throughout.
    expect(ticks).toBeGreaterThan(15);
    await expect(store.record(delivery('dlv_busy'))).resolves.toEqual({ inserted: true, id: 'dlv_busy' });
  });

  it('stores exactly the bytes of a body that is a slice of a larger buffer', async () => {
    const store = open('slice.db');
    const socketRead = Buffer.alloc(64 * 1024, 'z');
    const body = socketRead.subarray(100, 1124).fill('b');
    await store.record(delivery('dlv_slice', { body }));
    const stored = await store.get('dlv_slice');
    expect(stored!.body).toBeInstanceOf(Buffer);
    expect(Buffer.compare(stored!.body, Buffer.alloc(1024, 'b'))).toBe(0);
  });

  it('says it is not ready, synchronously, once a commit found its database file gone', async () => {
    mkdirSync(dir.path('data'));
    const store = open('data/inbox.db');
    await store.record(delivery('dlv_before'));
    expect(store.ready!()).toBe(true);
    rmSync(dir.path('data'), { recursive: true });
    await expect(store.record(delivery('dlv_after'))).rejects.toMatchObject({ code: 'STORE_GONE' });
    expect(store.ready!()).toBe(false);
  });

  it('fails only the call whose argument cannot cross to the thread; the calls beside it are answered', async () => {
    const store = open('clone.db');
    const [bad, good] = await Promise.allSettled([
      store.list({ cursor: (() => 'x') as unknown as string }),
      store.record(delivery('dlv_beside')),
    ]);
    expect(bad).toMatchObject({ status: 'rejected', reason: { name: 'DataCloneError' } });
    expect(good).toEqual({ status: 'fulfilled', value: { inserted: true, id: 'dlv_beside' } });
  });

  it('throws from createSqliteStore itself for a path it cannot open, as the store on the event loop does', () => {
    expect(() => createSqliteStore({ path: dir.path('missing/dir/x.db'), thread: true })).toThrow(/directory/);
  });

  it.each([
    ['closes and ends the process once a script awaits close()', ['thread'], 'closed'],
    ['does not keep a process alive that never closes it', ['thread', 'no-close'], 'recorded'],
  ])('%s', async (_name, flags, printed) => {
    const script = fileURLToPath(new URL('./fixtures/close-and-exit.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', script, dir.path('script.db'), ...flags],
      { timeout: 20_000 },
    );
    expect(stdout.trim()).toBe(printed);
    const db = new Database(dir.path('script.db'), { readonly: true });
    expect(db.prepare('SELECT count(*) FROM inbox').pluck().get()).toBe(1);
    db.close();
  });
});
