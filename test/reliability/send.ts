import type { SignedDelivery } from '../../src/testing/index.js';

export type Sendable = Pick<SignedDelivery, 'body' | 'headers'>;

/** POSTs one delivery as the service would; the status, or 0 when the connection failed (a killed process). */
export async function send(url: string, delivery: Sendable): Promise<number> {
  try {
    const res = await fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** Runs `work` over `items` with at most `concurrency` at once. */
export async function pool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
