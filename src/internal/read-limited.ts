import type { BodyBudget } from './body-budget.js';

/**
 * Reads a fetch body (a request's or a response's) into memory, refusing to hold more than `maxBytes`:
 * a declared Content-Length over the limit is refused before reading, and a stream that runs past it is
 * cancelled, not read on. Returns null when the body is too large. With a `budget` (bytes held across
 * requests, see BodyBudget) the bytes are reserved first, and `busy` means it had no room; on success the
 * caller gives back `byteLength`. No runtime dependencies, so the client can share it without loading
 * anything of the receiver.
 */
export async function readLimited(message: Request | Response, maxBytes: number): Promise<Uint8Array | null>;
export async function readLimited(
  message: Request | Response,
  maxBytes: number,
  budget: BodyBudget | undefined,
): Promise<Uint8Array | null | 'busy'>;
export async function readLimited(
  message: Request | Response,
  maxBytes: number,
  budget?: BodyBudget,
): Promise<Uint8Array | null | 'busy'> {
  const declared = Number(message.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await message.body?.cancel();
    return null;
  }
  if (!message.body) return new Uint8Array(0);
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const refuse = async (answer: null | 'busy') => {
    budget?.give(size);
    await reader.cancel();
    return answer;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > maxBytes) return refuse(null);
    if (budget && !budget.take(value.byteLength)) return refuse('busy');
    size += value.byteLength;
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
