import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/store/group-commit.js';

/** An fsync we finish by hand, so the test sees who waits for it. */
function heldSync() {
  let release!: () => void;
  let calls = 0;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { sync: () => (calls++, gate), release: () => release(), calls: () => calls };
}

describe('GroupCommit', () => {
  let db: Database.Database;
  afterEach(() => db?.close());

  function setup() {
    db = new Database(':memory:');
    db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
    return db.prepare('INSERT INTO t (n) VALUES (?)');
  }

  it('commits the writes of one turn together and answers a durable write only after the sync', async () => {
    const insert = setup();
    const fsync = heldSync();
    const writes = new GroupCommit(db, fsync.sync);
    let answered = 0;
    const all = [1, 2, 3].map((n) => writes.run(() => insert.run(n)).then(() => answered++));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect((db.prepare('SELECT count(*) AS c FROM t').get() as { c: number }).c).toBe(3);
    expect(answered).toBe(0);
    expect(fsync.calls()).toBe(1);
    fsync.release();
    await Promise.all(all);
    expect(answered).toBe(3);
  });

  it('answers bookkeeping writes at commit, without waiting for or causing a sync', async () => {
    const insert = setup();
    const fsync = heldSync();
    const writes = new GroupCommit(db, fsync.sync);
    await writes.run(() => insert.run(1), { durable: false });
    expect(fsync.calls()).toBe(0);
    const durable = writes.run(() => insert.run(2));
    const bookkeeping = writes.run(() => insert.run(3), { durable: false });
    await bookkeeping;
    expect(fsync.calls()).toBe(1);
    let durableDone = false;
    void durable.then(() => (durableDone = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(durableDone).toBe(false);
    fsync.release();
    await durable;
  });

  it('holds the writes made while an fsync runs, then commits them all in one transaction after it', async () => {
    const insert = setup();
    const syncs = [heldSync(), heldSync()];
    let next = 0;
    const writes = new GroupCommit(db, () => syncs[next++]!.sync());
    const first = writes.run(() => insert.run(1));
    await new Promise((resolve) => setImmediate(resolve));
    const count = () => (db.prepare('SELECT count(*) AS c FROM t').get() as { c: number }).c;
    expect(count()).toBe(1);
    // Three turns of the event loop while the first fsync runs: nothing of them is committed yet.
    const held: Promise<unknown>[] = [];
    for (const n of [2, 3, 4]) {
      held.push(writes.run(() => insert.run(n)));
      held.push(writes.run(() => insert.run(n + 10), { durable: false }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(count()).toBe(1);
    syncs[0]!.release();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBe(7);
    expect(next).toBe(2); // one commit, one fsync, for all six writes
    syncs[1]!.release();
    await Promise.all(held);
  });

  it('rejects only the failing write of a batch', async () => {
    const insert = setup();
    const writes = new GroupCommit(db);
    const results = await Promise.allSettled([
      writes.run(() => insert.run(1)),
      writes.run(() => insert.run(1)),
      writes.run(() => insert.run(2)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
