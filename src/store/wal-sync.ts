import { closeSync, fsync, openSync } from 'node:fs';

/**
 * Makes commits durable without blocking the event loop. The connection commits with
 * synchronous=NORMAL (the WAL frames are written, not yet flushed); this then fsyncs the WAL file on
 * libuv's thread pool and only then are the callers answered. That is what synchronous=FULL does at
 * each commit, but FULL does it on the main thread, stalling every request for the length of an fsync.
 * Calls made while an fsync runs share the next one: group commit at the fsync too.
 */
export class WalSync {
  private fd: number | undefined;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(private readonly walPath: string) {}

  /** Resolves once everything committed before this call is on stable storage. */
  sync(): Promise<void> {
    // An fsync already running may have started before our frames were written: queue one more.
    if (this.running) {
      this.next ??= this.running.then(() => {
        this.next = undefined;
        return this.start();
      });
      return this.next;
    }
    return this.start();
  }

  private start(): Promise<void> {
    try {
      this.fd ??= openSync(this.walPath, 'r');
    } catch (error) {
      return Promise.reject(error);
    }
    const fd = this.fd;
    const done = new Promise<void>((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
    // Only for sequencing: never rejects (the caller of `done` hears the error).
    const running: Promise<void> = done
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        if (this.running === running) this.running = undefined;
      });
    this.running = running;
    return done;
  }

  /** Waits for the syncs asked for so far, then releases the file. */
  async close(): Promise<void> {
    await this.next?.catch(() => undefined);
    await this.running?.catch(() => undefined);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
