import type { ReadBodyOptions } from './read-node-body.js';

/**
 * Reads a fetch body (a request's or a response's) into memory, refusing to hold more than `maxBytes`:
 * a declared Content-Length over the limit is refused before reading, and a stream that runs past it is
 * cancelled, not read on. Returns null when the body is too large. With a `budget` (bytes held across
 * requests, see BodyBudget) the bytes are reserved first, and `busy` means it had no room; on success the
 * caller gives back `byteLength`. With `timeoutMs`, a body not in by then is cancelled: `timeout`.
 * No runtime dependencies, so the client can share it without loading anything of the receiver.
 */
export async function readLimited(message: Request | Response, maxBytes: number): Promise<Uint8Array | null>;
export async function readLimited(
  message: Request | Response,
  maxBytes: number,
  options: ReadBodyOptions,
): Promise<Uint8Array | null | 'busy' | 'timeout'>;
export async function readLimited(
  message: Request | Response,
  maxBytes: number,
  { budget, timeoutMs }: ReadBodyOptions = {},
): Promise<Uint8Array | null | 'busy' | 'timeout'> {
  const declared = Number(message.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await message.body?.cancel();
    return null;
  }
  if (!message.body) return new Uint8Array(0);
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const refuse = async (answer: null | 'busy' | 'timeout') => {
    budget?.give(size);
    await reader.cancel();
    return answer;
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    if (timeoutMs !== undefined) timer = setTimeout(resolve, timeoutMs, 'timeout');
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === 'timeout') return await refuse('timeout');
      if (next.done) break;
      const { value } = next;
      if (size + value.byteLength > maxBytes) return await refuse(null);
      if (budget && !budget.take(value.byteLength)) return await refuse('busy');
      size += value.byteLength;
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
