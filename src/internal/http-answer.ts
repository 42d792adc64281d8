import type { Logger } from 'pino';

/** The error envelope of the endpoints convo-kit serves to the service (the receiver, a reply endpoint). */
export interface ErrorBody<Code extends string = string> {
  error: { code: Code; message: string };
}

/** What such an endpoint answers, before an adapter turns it into an HTTP response. */
export interface HttpAnswer<Body = unknown> {
  status: number;
  body: Body;
  headers?: Record<string, string>;
}

export function errorAnswer<Code extends string>(
  status: number,
  code: Code,
  message: string,
  headers?: Record<string, string>,
): HttpAnswer<ErrorBody<Code>> {
  return { status, body: { error: { code, message } }, ...(headers && { headers }) };
}

export const tooLarge = (maxBodyBytes: number) =>
  errorAnswer(413, 'PAYLOAD_TOO_LARGE', `Body is over this endpoint's limit of ${maxBodyBytes} bytes (maxBodyBytes)`, {
    connection: 'close',
  });

export const bodyTimeout = (bodyTimeoutMs: number) =>
  errorAnswer(408, 'BODY_TIMEOUT', `The body did not arrive within ${bodyTimeoutMs} ms (bodyTimeoutMs)`, {
    connection: 'close',
  });

export const methodNotAllowed = (method: string | undefined) =>
  errorAnswer(405, 'METHOD_NOT_ALLOWED', `The service POSTs to this endpoint; got ${String(method)}`, {
    allow: 'POST',
  });

/** Every refused request is logged with why (never with a secret, signature or the body). */
export function logRefusal<A extends HttpAnswer>(
  log: Logger,
  answer: A,
  what: string,
  context: Record<string, unknown> = {},
): A {
  const body = answer.body as Partial<ErrorBody>;
  if (body && typeof body === 'object' && body.error) {
    const { code, message } = body.error;
    log.warn({ status: answer.status, code, ...context }, `rejected ${what}: ${message}`);
  }
  return answer;
}
