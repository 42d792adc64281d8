import { resolve } from 'node:path';
import { DatabaseFileWatch } from './database-file-watch.js';
import type { DeliveryRecord, DeliveryStore } from './delivery-store.js';
import type { SqliteStoreOptions } from './sqlite-store-options.js';
import { DeliveryStoreError } from './store-error.js';
import { pruneAfterOption } from './store-rules.js';
import { StoreThread } from './store-thread.js';
import type { StoreMethod } from './store-thread-protocol.js';

/**
 * createSqliteStore with `thread: true`: every statement, commit and wait for another process's lock
 * happens on the store thread (store-thread.ts), so the event loop only hands deliveries over, a turn's
 * worth at a time, and hears back once they are committed.
 */
export function createThreadedSqliteStore(options: SqliteStoreOptions): DeliveryStore {
  const pruneDoneAfterMs = pruneAfterOption(options.pruneDoneAfterMs);
  const path = options.path === ':memory:' ? options.path : resolve(options.path);
  const thread = StoreThread.shared();
  // Opened (and migrated) once, on the thread; this waits for it, so a bad path, durability or schema throws here.
  const storeId = thread.open({ ...options, path });
  // Here too, so that ready() is one synchronous boolean; the thread checks the file at each commit, and
  // a failed call has this one look.
  const fileWatch = path === ':memory:' ? undefined : new DatabaseFileWatch(path);
  const lookAtFile = () => {
    try {
      fileWatch?.check();
    } catch {
      // Expected: the watch now knows the file is gone, and looks again at most once a second.
    }
  };
  let closed: Promise<void> | undefined;
  const call = (method: StoreMethod, args: unknown[]): Promise<unknown> =>
    closed
      ? Promise.reject(new DeliveryStoreError('STORE_CLOSED', 'The delivery store is closed'))
      : thread.call(storeId, method, args, lookAtFile);
  return {
    pruneDoneAfterMs,
    ready: () => thread.failure === undefined && (fileWatch?.usable() ?? true),
    record: (delivery) =>
      call('record', [{ ...delivery, body: ownBytes(delivery.body) }]) as ReturnType<DeliveryStore['record']>,
    claim: async (claim) => ((await call('claim', [claim])) as DeliveryRecord[]).map(withBuffer),
    claimById: async (id, claim) => withBuffer((await call('claimById', [id, claim])) as DeliveryRecord | undefined),
    renew: (id, owner, renewal) => call('renew', [id, owner, renewal]) as Promise<boolean>,
    complete: (id, owner, now) => call('complete', [id, owner, now]) as Promise<boolean>,
    fail: (id, owner, failure) => call('fail', [id, owner, failure]) as Promise<boolean>,
    get: async (id) => withBuffer((await call('get', [id])) as DeliveryRecord | undefined),
    attempts: (id) => call('attempts', [id]) as ReturnType<DeliveryStore['attempts']>,
    list: (query) => call('list', [query]) as ReturnType<DeliveryStore['list']>,
    requeue: (ids, now) => call('requeue', [ids, now]) as Promise<number>,
    prune: (olderThan) => call('prune', [olderThan]) as Promise<number>,
    steps: (eventKey) => call('steps', [eventKey]) as ReturnType<DeliveryStore['steps']>,
    saveStep: (step) => call('saveStep', [step]) as ReturnType<DeliveryStore['saveStep']>,
    deliverySteps: (id) => call('deliverySteps', [id]) as ReturnType<DeliveryStore['deliverySteps']>,
    clearSteps: (ids) => call('clearSteps', [ids]) as Promise<number>,
    backlog: () => call('backlog', []) as ReturnType<NonNullable<DeliveryStore['backlog']>>,
    close: () =>
      // A thread that failed has nothing left to close.
      (closed ??= thread.failure
        ? Promise.resolve()
        : (thread.call(storeId, 'close', [], lookAtFile) as Promise<void>)),
  };
}

/**
 * The body's bytes alone. Crossing to the thread copies a view's whole ArrayBuffer, and a request body
 * is usually a slice of a socket read of up to 64 KiB: copying the slice first moves 1 KiB, not 64.
 */
function ownBytes(body: Uint8Array): Uint8Array {
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : new Uint8Array(body);
}

/** A body arrives from the thread as a Uint8Array; a record carries a Buffer (over the same memory). */
function withBuffer<R extends DeliveryRecord | undefined>(record: R): R {
  if (!record) return record;
  const { body } = record;
  return { ...record, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
}
