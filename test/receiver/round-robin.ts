import type { SignedDelivery } from '../../src/testing/index.js';
import { sleep } from './harness.js';

/** One POST as the service makes it; a refused connection or a 5xx answers `status` 0 or the code. */
export async function postTo(url: string, d: SignedDelivery): Promise<{ status: number; duplicate?: boolean }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: d.headers,
      body: d.body,
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json().catch(() => ({}))) as { duplicate?: boolean };
    return { status: res.status, duplicate: body.duplicate };
  } catch {
    return { status: 0 };
  }
}

export interface SendLog {
  /** Delivery ids answered 200 (acked) at least once. */
  acked: Set<string>;
  /** Answers by status (0: no connection). */
  statuses: Map<number, number>;
  /** 200s that said `duplicate: true`. */
  duplicates: number;
}

/**
 * Sends each `[delivery, slot]` to `urls()[slot]`, `lanes` at a time. A failed send is retried, as the
 * service retries, on the next slot after a short pause, up to `attempts` times (bounded).
 */
export async function sendRoundRobin(
  plan: readonly (readonly [SignedDelivery, number])[],
  urls: () => readonly string[],
  options: { lanes: number; attempts: number; onSent?: (n: number) => void },
): Promise<SendLog> {
  const log: SendLog = { acked: new Set(), statuses: new Map(), duplicates: 0 };
  let next = 0;
  let sent = 0;
  const lane = async () => {
    while (next < plan.length) {
      const [d, slot] = plan[next++]!;
      for (let attempt = 0; attempt < options.attempts; attempt++) {
        const list = urls();
        const answer = await postTo(list[(slot + attempt) % list.length]!, d);
        log.statuses.set(answer.status, (log.statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 200) {
          log.acked.add(d.deliveryId);
          if (answer.duplicate) log.duplicates++;
          break;
        }
        await sleep(100);
      }
      options.onSent?.(++sent);
    }
  };
  await Promise.all(Array.from({ length: options.lanes }, lane));
  return log;
}
