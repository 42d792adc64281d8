import { Worker } from 'node:worker_threads';
import { threadEntry } from '../internal/module-entry.js';
import type { SqliteStoreOptions } from './sqlite-store-options.js';
import { DeliveryStoreError } from './store-error.js';
import {
  FAILED,
  fromThreadError,
  OPEN_ANSWER_BYTES,
  openFailure,
  type AnswersMessage,
  type CallsMessage,
  type OpenMessage,
  type StoreCall,
  type StoreMethod,
} from './store-thread-protocol.js';

/** Beyond the open's own busy wait: the thread's start (the process's first store), loading SQLite there. */
const OPEN_WAIT_MS = 30_000;

interface Waiting {
  /** The calling store's: told when the call fails, so it looks at its database file. */
  onFailure: () => void;
  record: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The event loop's side of the thread that runs this process's SQLite stores (sqlite-store-thread.ts).
 * One thread serves every store of the process: it starts with the first and stays, idle and never
 * keeping the process alive, so the next store opens without the wait of a thread's start.
 */
export class StoreThread {
  private static current: StoreThread | undefined;

  /** The process's store thread, started on first use (and again after one failed). */
  static shared(): StoreThread {
    if (!StoreThread.current || StoreThread.current.failed) StoreThread.current = new StoreThread();
    return StoreThread.current;
  }

  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private outbox: StoreCall[] = [];
  private flushScheduled = false;
  /**
   * Records sent and not yet answered. While there are some, new records wait here: the thread answers
   * them together once their commit is fsynced, and the records gathered meanwhile go then, in one
   * message. They would have waited for that fsync in the thread anyway (WalSync), so nothing is later,
   * and a burst costs a few hand-overs per fsync instead of one per turn of this event loop.
   */
  private recordsInThread = 0;
  private nextCallId = 1;
  private nextStoreId = 1;
  /** Set once the thread is gone: every call after it fails with this. */
  private failed: DeliveryStoreError | undefined;

  private constructor() {
    const { entry, eval: isEval } = threadEntry(import.meta.url, 'sqlite-store-thread');
    this.worker = new Worker(entry, { eval: isEval });
    // Idle, the thread must not keep the process alive; a call in flight must (see call()).
    this.worker.unref();
    this.worker.on('message', (message: AnswersMessage) => this.answered(message));
    this.worker.on('error', (error) => this.fail(threadFailure(error)));
    this.worker.on('exit', (code) =>
      this.fail(new DeliveryStoreError('STORE_FAILED', `The delivery store's thread stopped (exit code ${code})`)),
    );
  }

  /**
   * Opens a store in the thread and answers its id, waiting for the thread (Atomics.wait) as opening a
   * SQLite file on the event loop waits: so the database is opened once, there, and a bad path or option
   * throws from here. That wait is the open itself (a lock another process holds on the file: up to
   * `busyTimeoutMs`), and the thread's start for the process's first store.
   */
  open(options: SqliteStoreOptions): number {
    if (this.failed) throw this.failed;
    const storeId = this.nextStoreId++;
    const answer = new SharedArrayBuffer(OPEN_ANSWER_BYTES);
    this.worker.postMessage({ open: { storeId, options, answer } } satisfies OpenMessage);
    const state = new Int32Array(answer, 0, 2);
    const waited = Atomics.wait(state, 0, 0, OPEN_WAIT_MS + (options.busyTimeoutMs ?? 5000));
    if (waited === 'timed-out')
      throw new DeliveryStoreError(
        'STORE_FAILED',
        `The delivery store's thread did not open ${options.path} in time (its thread did not start, or is stuck)`,
      );
    if (Atomics.load(state, 0) === FAILED) throw openFailure(answer);
    return storeId;
  }

  call(storeId: number, method: StoreMethod, args: unknown[], onFailure: () => void): Promise<unknown> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      const callId = this.nextCallId++;
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(callId, { onFailure, record: method === 'record', resolve, reject });
      this.outbox.push([callId, storeId, method, args] as StoreCall);
      if (this.flushScheduled || (method === 'record' && this.recordsInThread > 0)) return;
      // setImmediate runs after the poll phase: every request read in this turn goes in one message.
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const calls = this.outbox;
    this.outbox = [];
    if (calls.length === 0 || this.failed) return;
    for (const call of calls) if (call[2] === 'record') this.recordsInThread++;
    try {
      this.worker.postMessage({ calls } satisfies CallsMessage);
    } catch {
      // An argument that cannot be cloned: send the calls one by one, so only that call fails.
      for (const call of calls) {
        try {
          this.worker.postMessage({ calls: [call] } satisfies CallsMessage);
        } catch (error) {
          this.settle(call[0])?.reject(error);
        }
      }
    }
  }

  private answered({ answers }: AnswersMessage): void {
    for (const [callId, ok, value] of answers) {
      const waiting = this.settle(callId);
      if (!waiting) continue;
      if (ok) {
        waiting.resolve(value);
        continue;
      }
      waiting.onFailure();
      waiting.reject(fromThreadError(value));
    }
    if (this.recordsInThread === 0 && this.outbox.length > 0 && !this.flushScheduled) this.flush();
  }

  private settle(callId: number): Waiting | undefined {
    const waiting = this.waiting.get(callId);
    this.waiting.delete(callId);
    if (waiting?.record) this.recordsInThread--;
    if (this.waiting.size === 0) this.worker.unref();
    return waiting;
  }

  /** The thread is gone: whatever still waits fails (a record answers 503 and the service retries it). */
  private fail(reason: DeliveryStoreError): void {
    this.failed ??= reason;
    this.outbox = [];
    for (const callId of [...this.waiting.keys()]) this.settle(callId)?.reject(this.failed);
  }

  /** Why calls fail now, or undefined while the thread runs. */
  get failure(): DeliveryStoreError | undefined {
    return this.failed;
  }
}

/** An uncaught error of the thread arrives as an Error only when it was a built-in one; say what it was either way. */
function threadFailure(error: unknown): DeliveryStoreError {
  const { message, code } = error as { message?: unknown; code?: unknown };
  const what = typeof message === 'string' && message !== '' ? message : String(code ?? error);
  return new DeliveryStoreError('STORE_FAILED', `The delivery store's thread failed: ${what}`, { cause: error });
}
