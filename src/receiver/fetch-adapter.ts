import type { Logger } from 'pino';
import { logRejection, type DeliveryInput } from './handle-delivery.js';
import { readLimited } from '../internal/read-limited.js';
import { methodNotAllowed, tooLarge, type ReceiverResponse } from './receiver-response.js';

type Core = (input: DeliveryInput) => Promise<ReceiverResponse>;

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
