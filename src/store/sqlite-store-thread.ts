import { parentPort } from 'node:worker_threads';
import type { DeliveryStore } from './delivery-store.js';
import { createSqliteStoreCore } from './sqlite-store-core.js';
import { DeliveryStoreError } from './store-error.js';
import { toThreadError, type CallsMessage, type StoreAnswer, type StoreCall } from './store-thread-protocol.js';

/**
 * The thread that runs the process's SQLite stores (store-thread.ts starts it): it opens each store
 * the event loop asks for and answers the calls to it. Answers are gathered for one turn and sent
 * together, so the deliveries of one group commit (README "Durability") go back as one message.
 */
const port = parentPort!;
const stores = new Map<number, DeliveryStore | Error>();
let answers: StoreAnswer[] = [];

function answer(reply: StoreAnswer): void {
  if (answers.length === 0) setImmediate(send);
  answers.push(reply);
}

function send(): void {
  const batch = answers;
  answers = [];
  port.postMessage({ answers: batch });
}

function run([, storeId, method, args]: StoreCall): unknown {
  if (method === 'open') {
    try {
      stores.set(storeId, createSqliteStoreCore(args[0]));
    } catch (error) {
      // Kept, so the calls already on their way to this store hear why it is not there.
      stores.set(storeId, error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    return undefined;
  }
  const store = stores.get(storeId);
  if (store instanceof Error) {
    if (method !== 'close') throw store;
    stores.delete(storeId);
    return undefined;
  }
  if (!store) throw new DeliveryStoreError('STORE_CLOSED', 'The delivery store is closed');
  if (method === 'close') return store.close().finally(() => stores.delete(storeId));
  return (store[method] as (...a: unknown[]) => unknown)(...args);
}

port.on('message', ({ calls }: CallsMessage) => {
  for (const call of calls) {
    // A store's own checks may throw before their promise: either way the caller is answered.
    new Promise((resolve) => resolve(run(call))).then(
      (value) => answer([call[0], true, value]),
      (error: unknown) => answer([call[0], false, toThreadError(error)]),
    );
  }
});
