import type { IncomingMessage } from 'node:http';
import type { BodyBudget } from './body-budget.js';

export type BodyResult =
  | { ok: true; body: Buffer }
  | { ok: false; reason: 'too-large' | 'busy' | 'timeout' | 'aborted' };

export interface ReadBodyOptions {
  /** Bytes held across requests (see BodyBudget): reserved before they are read, `busy` when it has no room. */
  budget?: BodyBudget;
  /**
   * The whole body must be in within this long, else `timeout`: a body that trickles in (or never comes,
   * under a Content-Length that lies) would otherwise hold its share of the budget until the server's own
   * request timeout (300 s in Node), so a few such requests could keep every genuine one out.
   */
  timeoutMs?: number;
}

/**
 * Reads a request's raw bytes, refusing early (by Content-Length) or as soon as the limit is passed,
 * so an oversize or endless body never sits in memory. With a `budget`, the bytes are reserved from it
 * first (the declared length at once, else each chunk as it comes): `busy` when it has no room. On
 * success the caller holds `body.byteLength` of the budget and gives it back; on failure nothing is held.
 */
export function readNodeBody(
  req: IncomingMessage,
  maxBytes: number,
  { budget, timeoutMs }: ReadBodyOptions = {},
): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  const known = Number.isFinite(declared) && declared >= 0;
  if (known && declared > maxBytes) {
    req.resume();
    return Promise.resolve({ ok: false, reason: 'too-large' });
  }
  if (budget && known && !budget.take(declared)) return Promise.resolve({ ok: false, reason: 'busy' });
  // Node's parser never passes a declared length, so only a chunked body reserves as it goes.
  const perChunk = budget && !known ? budget : undefined;
  const reserved = known && budget ? declared : 0;
  return new Promise((resolve) => {
    // With a declared length, each chunk is copied into the one body buffer as it comes and dropped,
    // so a body is in memory once, not as chunks and then their concatenation.
    const whole = known ? Buffer.allocUnsafe(declared) : undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('aborted', onAbort);
      if (!result.ok) budget?.give(perChunk ? size : reserved);
      resolve(result);
    };
    // Keep draining (discarding) so the answer can be written; the adapter closes the connection after it.
    const refuse = (reason: 'too-large' | 'busy' | 'timeout') => {
      chunks.length = 0;
      req.resume();
      finish({ ok: false, reason });
    };
    const onData = (chunk: Buffer) => {
      const refused = size + chunk.length > maxBytes ? 'too-large' : perChunk?.take(chunk.length) === false && 'busy';
      if (refused) return refuse(refused);
      if (whole) chunk.copy(whole, size);
      else chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = () => finish({ ok: true, body: whole ? whole.subarray(0, size) : Buffer.concat(chunks, size) });
    const onAbort = () => finish({ ok: false, reason: 'aborted' });
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => refuse('timeout'), timeoutMs);
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('aborted', onAbort);
  });
}
