/**
 * Reads a fetch body (a request's or a response's) into memory, refusing to hold more than `maxBytes`:
 * a declared Content-Length over the limit is refused before reading, and a stream that runs past it is
 * cancelled, not read on. Returns null when the body is too large. No dependencies, so the client can
 * share it without loading anything of the receiver.
 */
export async function readLimited(message: Request | Response, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(message.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await message.body?.cancel();
    return null;
  }
  if (!message.body) return new Uint8Array(0);
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
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
