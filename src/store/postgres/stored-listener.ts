import type pg from 'pg';
import { SpacedCalls } from './spaced-calls.js';

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5000;
/** Wakes the listeners at most this often: every process's NOTIFYs reach every process. */
const WAKE_SPACING_MS = 20;

/**
 * One connection held for LISTEN on a channel; each notification calls every listener. When the
 * connection drops (the server restarted), it reconnects with backoff and calls the listeners once,
 * since rows may have arrived unheard. Meanwhile the worker's poll is the fallback.
 */
export class StoredListener {
  private readonly listeners = new Set<() => void>();
  private readonly wakes = new SpacedCalls(() => this.notifyAll(), WAKE_SPACING_MS);
  private client: pg.PoolClient | undefined;
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RECONNECT_MIN_MS;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
  ) {}

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.client && !this.connecting) this.connect();
    return () => this.listeners.delete(listener);
  }

  private notifyAll(): void {
    for (const listener of this.listeners) listener();
  }

  private connect(): void {
    this.connecting = (async () => {
      let client: pg.PoolClient | undefined;
      try {
        client = await this.pool.connect();
        const dropped = (error?: unknown) => this.drop(client!, error);
        client.on('error', dropped);
        client.on('end', dropped);
        client.on('notification', (message) => message.channel === this.channel && this.wakes.call());
        await client.query(`LISTEN "${this.channel.replace(/"/g, '""')}"`);
        if (this.closed) return this.drop(client);
        this.client = client;
        this.retryMs = RECONNECT_MIN_MS;
        // Rows stored while nobody listened (a reconnect) are due now.
        this.notifyAll();
      } catch (error) {
        if (client) this.drop(client, error);
        else this.retry();
      } finally {
        this.connecting = undefined;
      }
    })();
  }

  private drop(client: pg.PoolClient, error?: unknown): void {
    client.removeAllListeners('notification');
    client.removeAllListeners('end');
    client.removeAllListeners('error');
    // Swallow late errors of a connection we gave up on.
    client.on('error', () => undefined);
    if (this.client === client) this.client = undefined;
    try {
      client.release(error instanceof Error ? error : true);
    } catch {
      // Released already (error and end both fire for one drop).
    }
    this.retry();
  }

  private retry(): void {
    if (this.closed || this.retryTimer || this.listeners.size === 0) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.client && !this.connecting) this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.wakes.cancel();
    await this.connecting;
    if (this.client) this.drop(this.client);
  }
}
