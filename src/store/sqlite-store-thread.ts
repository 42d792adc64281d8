import { parentPort } from 'node:worker_threads';
import type { DeliveryStore } from './delivery-store.js';
import { createSqliteStoreCore } from './sqlite-store-core.js';
import { DeliveryStoreError } from './store-error.js';
import {
  answerOpen,
  toThreadError,
  type CallsMessage,
  type OpenMessage,
  type StoreAnswer,
  type StoreCall,
} from './store-thread-protocol.js';

/**
 * The thread that runs the process's SQLite stores (store-thread.ts starts it): it opens each store
 * the event loop asks for and answers the calls to it. Answers are gathered for one turn and sent
 * together, so the deliveries of one group commit (README "Durability") go back as one message.
 */
const port = parentPort!;
const stores = new Map<number, DeliveryStore>();
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

/** Opens the store the caller waits for (OpenMessage); a store that failed to open was never handed out. */
function open({ storeId, options, answer }: OpenMessage['open']): void {
  try {
    stores.set(storeId, createSqliteStoreCore(options));
  } catch (error) {
    answerOpen(answer, error);
    return;
  }
  answerOpen(answer);
}

function run([, storeId, method, args]: StoreCall): unknown {
  const store = stores.get(storeId);
  if (!store) throw new DeliveryStoreError('STORE_CLOSED', 'The delivery store is closed');
  if (method === 'close') return store.close().finally(() => stores.delete(storeId));
  return (store[method] as (...a: unknown[]) => unknown)(...args);
}

port.on('message', (message: CallsMessage | OpenMessage) => {
  if ('open' in message) return open(message.open);
  for (const call of message.calls) {
    // A store's own checks may throw before their promise: either way the caller is answered.
    new Promise((resolve) => resolve(run(call))).then(
      (value) => answer([call[0], true, value]),
      (error: unknown) => answer([call[0], false, toThreadError(error)]),
    );
  }
});
