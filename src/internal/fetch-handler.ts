import { logRefusal, methodNotAllowed, tooLarge, type HttpAnswer } from './http-answer.js';
import type { AdapterOptions, EndpointCore } from './node-listener.js';
import { readLimited } from './read-limited.js';

function toResponse(answer: HttpAnswer): Response {
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...answer.headers },
  });
}

/** The fetch-standard `(Request) => Promise<Response>` handler (Hono, Next.js route handlers, Bun, Deno, …). */
export function fetchHandler(core: EndpointCore, options: AdapterOptions): (request: Request) => Promise<Response> {
  const { maxBodyBytes, log, what } = options;
  return async (request) => {
    if (request.method !== 'POST') return toResponse(logRefusal(log, methodNotAllowed(request.method), what));
    const rawBody = await readLimited(request, maxBodyBytes);
    if (rawBody === null) return toResponse(logRefusal(log, tooLarge(maxBodyBytes), what));
    return toResponse(await core({ headers: request.headers, rawBody }));
  };
}
