import type { DeliveryStore } from './delivery-store.js';
import type { SqliteStoreOptions } from './sqlite-store-options.js';
import { DeliveryStoreError, type DeliveryStoreErrorCode } from './store-error.js';

/**
 * The messages between the SQLite stores of a process (on its event loop) and the one thread that runs
 * them. Calls made in one turn of the event loop travel as one message, and answers as one message per
 * turn of the thread's, so a burst of deliveries costs one hand-over each way, not one per delivery.
 */

/**
 * The store methods that cross: everything but `ready` (answered where it is asked), `watch`, the
 * `pruneDoneAfterMs` property, and `stepTransaction`, which SQLite stores do not offer.
 */
export type StoreMethod = Exclude<keyof DeliveryStore, 'ready' | 'watch' | 'pruneDoneAfterMs' | 'stepTransaction'>;

/** A call of a store's method, to the store the thread opened under `storeId`. */
export type StoreCall = [callId: number, storeId: number, method: StoreMethod, args: unknown[]];
export type StoreAnswer = [callId: number, ok: true, value: unknown] | [callId: number, ok: false, error: ThreadError];

/** To the thread. */
export interface CallsMessage {
  calls: StoreCall[];
}

/**
 * To the thread: open a store under `storeId`. The caller waits on `answer` (Atomics.wait), so the database
 * is opened once, there, and a bad path or option still throws from createSqliteStore itself.
 */
export interface OpenMessage {
  open: { storeId: number; options: SqliteStoreOptions; answer: SharedArrayBuffer };
}

/** The open's answer: [0] is 0 while waiting, then OPENED or FAILED; [1] the byte length of the error's JSON after the two. */
export const OPEN_ANSWER_BYTES = 8 + 16 * 1024;
export const OPENED = 1;
export const FAILED = 2;

/** On the thread: the open's outcome into the shared answer, then wakes the caller. */
export function answerOpen(answer: SharedArrayBuffer, error?: unknown): void {
  const state = new Int32Array(answer, 0, 2);
  if (error !== undefined) {
    const json = new TextEncoder().encode(JSON.stringify(toThreadError(error)));
    // A message longer than the room is cut; the JSON then does not parse, and readOpenAnswer says so.
    const length = Math.min(json.byteLength, OPEN_ANSWER_BYTES - 8);
    new Uint8Array(answer, 8, length).set(json.subarray(0, length));
    state[1] = length;
  }
  Atomics.store(state, 0, error === undefined ? OPENED : FAILED);
  Atomics.notify(state, 0);
}

/** On the caller's side: the error the thread's open failed with, rebuilt. */
export function openFailure(answer: SharedArrayBuffer): Error {
  const state = new Int32Array(answer, 0, 2);
  const text = new TextDecoder().decode(new Uint8Array(answer, 8, state[1]).slice());
  try {
    return fromThreadError(JSON.parse(text) as ThreadError);
  } catch {
    return new DeliveryStoreError('STORE_FAILED', `The delivery store could not be opened: ${text.slice(0, 500)}`);
  }
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
