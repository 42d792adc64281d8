import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createSqliteStore } from '../../src/store/index.js';
import { delivery } from './delivery-store-contract.js';
import { tempDir } from './temp-dir.js';

// createSqliteStore({ thread: true }) opens its database once, on the store thread: the event loop's side
// opens no connection of its own (it did, to migrate and close it again, before the thread opened it too).
// better-sqlite3 is counted on this side only (the thread loads its own copy), and still opens for real.
const opened = vi.hoisted(() => [] as string[]);
vi.mock('better-sqlite3', async (importOriginal) => {
  const Real = (await importOriginal<{ default: typeof BetterSqlite3 }>()).default;
  const Counted = function (this: unknown, filename: string, ...rest: unknown[]) {
    opened.push(filename);
    return new (Real as unknown as new (...args: unknown[]) => unknown)(filename, ...rest);
  } as unknown as typeof Real;
  return { default: Counted };
});

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
  opened.length = 0;
});
afterEach(() => dir.remove());

it('opens its database on the store thread alone, and the store works', async () => {
  const store = createSqliteStore({ path: dir.path('once.db'), thread: true });
  try {
    await expect(store.record(delivery('dlv_once'))).resolves.toEqual({ inserted: true, id: 'dlv_once' });
    expect((await store.get('dlv_once'))?.status).toBe('pending');
    expect(opened).toEqual([]);
  } finally {
    await store.close();
  }
});

it('still throws from createSqliteStore for a path it cannot open, having opened nothing here', () => {
  expect(() => createSqliteStore({ path: dir.path('missing/dir/x.db'), thread: true })).toThrow(/directory/);
  expect(opened).toEqual([]);
});

it('opens it here, once, when the store runs on the event loop (so the count above is a real one)', async () => {
  const store = createSqliteStore({ path: dir.path('here.db') });
  await store.close();
  expect(opened.filter((name) => name.endsWith('here.db'))).toHaveLength(1);
});
