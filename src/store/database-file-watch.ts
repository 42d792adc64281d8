import { statSync } from 'node:fs';
import { DeliveryStoreError } from './store-error.js';

/** While the file is gone, a write looks again at most this often (a flood of refusals costs no syscalls). */
const RECHECK_MS = 1000;

/**
 * Notices that the database file at a path is no longer the file the connection has open: removed
 * (alone or with its directory) or replaced. SQLite goes on writing to an unlinked file, so without
 * this a deleted database keeps acking deliveries that vanish with the process (README "Durability").
 * One stat of the path per commit that an ack waits on (not per delivery), compared by device and
 * inode with the file as opened. Synchronous: a stat of a cached path costs microseconds, less than
 * a round trip through libuv's thread pool.
 */
export class DatabaseFileWatch {
  private readonly dev: bigint;
  private readonly ino: bigint;
  private gone: DeliveryStoreError | undefined;
  private checkedAt = 0;

  /** Call right after opening: the path names the open file now. */
  constructor(private readonly path: string) {
    const opened = statSync(path, { bigint: true });
    this.dev = opened.dev;
    this.ino = opened.ino;
  }

  /** Returns when the path still names the open file; throws STORE_GONE (and remembers it) when not. */
  check(): void {
    this.checkedAt = Date.now();
    let now: { dev: bigint; ino: bigint } | undefined;
    try {
      now = statSync(this.path, { bigint: true, throwIfNoEntry: false });
    } catch {
      // Not a directory, no permission: the file at the path cannot be ours either.
    }
    if (now && now.dev === this.dev && now.ino === this.ino) {
      this.gone = undefined;
      return;
    }
    this.gone ??= new DeliveryStoreError(
      'STORE_GONE',
      `The database file ${this.path} was removed or replaced while open: SQLite would go on writing to a file no one can open again, so nothing is stored until that same file is back at the path. Restart the process to open (or create) the database there.`,
    );
    throw this.gone;
  }

  /**
   * False while the file is known gone, looking again at most once a second: otherwise one boolean, no
   * syscall, so the receiver can ask it of every request's headers (README "Durability").
   */
  usable(): boolean {
    if (!this.gone) return true;
    if (Date.now() - this.checkedAt < RECHECK_MS) return false;
    try {
      this.check();
      return true;
    } catch {
      return false;
    }
  }

  /** Before a write: throws STORE_GONE at once while the file is known gone (`usable`, without the syscall). */
  requireUsable(): void {
    if (!this.usable()) throw this.gone!;
  }
}

export const isStoreGone = (error: unknown) => error instanceof DeliveryStoreError && error.code === 'STORE_GONE';
