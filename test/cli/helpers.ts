import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import { sign } from '../../src/signature/index.js';
import { type DeliveryStore } from '../../src/store/index.js';

export function tempDir(prefix: string): { path: string; file(name: string): string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `convo-kit-${prefix}-`));
  return { path, file: (name) => join(path, name), remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Runs `work` over `items` with at most `limit` at once (child processes on a small machine). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** Polls `check` until it returns a value (bounded); for state another process changes. */
export async function waitUntil<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`Timed out waiting until ${what}`);
}

export interface TargetReceiver {
  url: string;
  receiver: Receiver;
  /** Delivery ids the target's handler ran for, in order. */
  handled: string[];
  close(): Promise<void>;
}

/** A second, independent receiver (the library's own) on a real port: what a user's app would run. */
export async function startTargetReceiver(options: {
  secret: string;
  dbPath: string;
  port?: number;
}): Promise<TargetReceiver> {
  const receiver = createReceiver({
    secret: options.secret,
    dbPath: options.dbPath,
    logger: pino({ level: 'silent' }),
  });
  const handled: string[] = [];
  receiver.on('*', ({ deliveryId }) => {
    handled.push(deliveryId);
  });
  const server: Server = createServer(receiver.listener);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  await receiver.start();
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    receiver,
    handled,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await receiver.close();
    },
  };
}

export { freePort } from '../support/run-command.js';

/** Stores `envelope` the way the receiver does (signed bytes, received at `receivedAt`); returns the bytes. */
export async function recordBody(
  store: DeliveryStore,
  delivery: { id: string; secret: string; receivedAt: number },
  envelope: { event: string } & Record<string, unknown>,
): Promise<Buffer> {
  const { id, receivedAt } = delivery;
  const body = Buffer.from(JSON.stringify({ id: `evt_${id}`, ...envelope }));
  const timestamp = String(Math.floor(receivedAt / 1000));
  const signature = sign({ secret: delivery.secret, timestamp, body });
  await store.record({ id, eventId: `evt_${id}`, event: envelope.event, body, signature, timestamp, receivedAt });
  return body;
}

/** A small delivery of `event`, stored as the receiver stores it, for tests that need history. */
export async function recordSigned(
  store: DeliveryStore,
  delivery: { id: string; event: string; secret: string; receivedAt: number },
): Promise<void> {
  const { id, event, receivedAt } = delivery;
  await recordBody(store, delivery, {
    event,
    created_at: new Date(receivedAt).toISOString(),
    data: { id: `obj_${id}` },
  });
}
