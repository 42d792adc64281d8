import type { Logger } from 'pino';
import { logRejection, type DeliveryInput } from './handle-delivery.js';
import { methodNotAllowed, tooLarge, type ReceiverResponse } from './receiver-response.js';

type Core = (input: DeliveryInput) => Promise<ReceiverResponse>;

/** Reads a fetch body up to `maxBytes`; null when it is larger (the stream is cancelled, not read on). */
async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
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
  return Buffer.concat(chunks, size);
}

function toResponse(response: ReceiverResponse): Response {
  return new Response(JSON.stringify(response.body), {
    status: response.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...response.headers },
  });
}

/** The fetch-standard `(Request) => Promise<Response>` handler (Hono, Next.js route handlers, Bun, Deno, …). */
export function fetchHandler(core: Core, maxBodyBytes: number, log: Logger): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') return toResponse(logRejection(log, methodNotAllowed(request.method)));
    const rawBody = await readLimited(request, maxBodyBytes);
    if (rawBody === null) return toResponse(logRejection(log, tooLarge(maxBodyBytes)));
    return toResponse(await core({ headers: request.headers, rawBody }));
  };
}
