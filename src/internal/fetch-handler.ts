import { bodyTimeout, logRefusal, methodNotAllowed, tooLarge, type HttpAnswer } from './http-answer.js';
import { busy, type AdapterOptions, type Endpoint } from './endpoint.js';
import { readLimited } from './read-limited.js';

function toResponse(answer: HttpAnswer): Response {
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...answer.headers },
  });
}

/** The fetch-standard `(Request) => Promise<Response>` handler (Hono, Next.js route handlers, Bun, Deno, …). */
export function fetchHandler<A>(
  endpoint: Endpoint<A>,
  options: AdapterOptions,
): (request: Request) => Promise<Response> {
  const { maxBodyBytes, log, what, budget, bodyTimeoutMs } = options;
  const refuse = async (request: Request, answer: HttpAnswer) => {
    await request.body?.cancel();
    return answer;
  };
  async function answerFor(request: Request): Promise<HttpAnswer> {
    if (request.method !== 'POST') return refuse(request, logRefusal(log, methodNotAllowed(request.method), what));
    const admission = endpoint.admit(request.headers);
    if (!admission.ok) return refuse(request, admission.answer);
    const rawBody = await readLimited(request, maxBodyBytes, { budget, timeoutMs: bodyTimeoutMs });
    if (rawBody === null) return logRefusal(log, tooLarge(maxBodyBytes), what);
    if (rawBody === 'busy') return logRefusal(log, busy(), what);
    if (rawBody === 'timeout') return logRefusal(log, bodyTimeout(bodyTimeoutMs), what);
    try {
      return await endpoint.handle({ headers: request.headers, rawBody }, admission.admitted);
    } finally {
      budget?.give(rawBody.byteLength);
    }
  }
  return async (request) => {
    const answer = await answerFor(request);
    options.onAnswer?.(answer, request.headers);
    return toResponse(answer);
  };
}
