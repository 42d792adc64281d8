import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Moves WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that
 * crosses the threshold: it copies the WAL into the database file and fsyncs both, stalling every
 * request for milliseconds (tens under load). A worker thread with its own connection checkpoints
 * (PASSIVE: it never blocks the writer) every `intervalMs`; the main connection's automatic checkpoint
 * stays on at a much larger threshold, as a safety net should the worker fall behind.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma(message === 'truncate' ? 'wal_checkpoint(TRUNCATE)' : 'wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or closing: the next round catches up, and the writer's own safety-net checkpoint remains.
  }
  parentPort.postMessage('done');
});
`;

/**
 * After the disk was full, checkpoints TRUNCATE for this long. A PASSIVE checkpoint never empties a WAL
 * that is written to continuously (the WAL restarts only once every frame is copied back), so once there
 * is room again the retried deliveries grow the WAL into it; if it fills the disk again before a
 * checkpoint completes, copying it back needs room that is no longer there and every write fails
 * until someone frees space. TRUNCATE waits for a gap between writes and empties the WAL file. It holds
 * the writer for its length, so only while the disk is under pressure.
 */
const PRESSURE_MS = 60_000;

/** The main connection's fallback threshold, in pages (SQLite's default is 1000). */
export const SAFETY_NET_CHECKPOINT_PAGES = 20_000;

export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly timer: NodeJS.Timeout;
  private busy = false;
  private pressureUntil = 0;
  /** Watched from the start: a worker that died early (its file gone before it opened) must not hang close(). */
  private readonly exited: Promise<void>;

  constructor(path: string, intervalMs = 200) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(SOURCE, { eval: true, workerData: { path, driver } });
    this.exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('message', () => (this.busy = false));
    // A checkpointer that dies leaves the safety net in place; it must never take the receiver down.
    this.worker.on('error', () => clearInterval(this.timer));
    this.worker.unref();
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      this.worker.postMessage(Date.now() < this.pressureUntil ? 'truncate' : 'checkpoint');
    }, intervalMs);
    this.timer.unref();
  }

  /** A write failed for want of disk space: empty the WAL at each checkpoint for a while (PRESSURE_MS). */
  diskFull(): void {
    this.pressureUntil = Date.now() + PRESSURE_MS;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    // Unref'd so it never keeps a process alive; while closing it must, or `await close()` would end the process early.
    this.worker.ref();
    this.worker.postMessage('close');
    await this.exited;
  }
}
