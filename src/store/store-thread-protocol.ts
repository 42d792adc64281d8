import type { DeliveryStore } from './delivery-store.js';
import type { SqliteStoreOptions } from './sqlite-store-options.js';
import { DeliveryStoreError, type DeliveryStoreErrorCode } from './store-error.js';

/**
 * The messages between the SQLite stores of a process (on its event loop) and the one thread that runs
 * them. Calls made in one turn of the event loop travel as one message, and answers as one message per
 * turn of the thread's, so a burst of deliveries costs one hand-over each way, not one per delivery.
 */

/** The store methods that cross: everything but `ready` (answered where it is asked), `watch` and the `pruneDoneAfterMs` property. */
export type StoreMethod = Exclude<keyof DeliveryStore, 'ready' | 'watch' | 'pruneDoneAfterMs'>;

/** `open` starts a store in the thread under the caller's `storeId`; the others call its methods. */
export type StoreCall =
  | [callId: number, storeId: number, method: 'open', args: [SqliteStoreOptions]]
  | [callId: number, storeId: number, method: StoreMethod, args: unknown[]];
export type StoreAnswer = [callId: number, ok: true, value: unknown] | [callId: number, ok: false, error: ThreadError];

/** To the thread. */
export interface CallsMessage {
  calls: StoreCall[];
}
/** From the thread. */
export interface AnswersMessage {
  answers: StoreAnswer[];
}

/** An error as it crosses: structured cloning keeps a message but drops `code`, which callers branch on. */
export interface ThreadError {
  name: string;
  message: string;
  code?: string;
}

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, message: error.message, ...(typeof code === 'string' && { code }) };
}

const BUILT_IN: Record<string, new (message: string) => Error> = { TypeError, RangeError };

/** The error again, on the caller's side: a DeliveryStoreError stays one; others keep name, message and code. */
export function fromThreadError(error: ThreadError): Error {
  if (error.name === 'DeliveryStoreError')
    return new DeliveryStoreError(error.code as DeliveryStoreErrorCode, error.message);
  const rebuilt = new (BUILT_IN[error.name] ?? Error)(error.message);
  if (rebuilt.name !== error.name) rebuilt.name = error.name;
  return error.code === undefined ? rebuilt : Object.assign(rebuilt, { code: error.code });
}
