import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkUrlHost, type AddressPolicy } from '../internal/address-policy.js';
import { readNodeBody } from '../internal/read-node-body.js';
import { AddressNotAllowedError, guardedLookup } from './guarded-lookup.js';

/** What is read of an answer unless the caller says otherwise: a webhook receiver's answer is not used. */
export const DEFAULT_MAX_ANSWER_BYTES = 16 * 1024;

export interface GuardedPostInput {
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** Where the request may connect (see AddressPolicy). */
  policy: AddressPolicy;
  /** The whole exchange, the answer's body included. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The resolver under the guard. @default dns.lookup (tests pass a stub: nothing leaves the machine) */
  resolve?: LookupFunction;
  /** At most this much of the answer's body is read; past it the connection is closed. @default 16 KiB */
  maxAnswerBytes?: number;
}

export interface GuardedAnswer {
  status: number;
  /** The answer's body, or null when it was over `maxAnswerBytes` (not read on). */
  body: Buffer | null;
}

const timeoutError = () => new DOMException('The request did not complete within timeoutMs', 'TimeoutError');

/**
 * One POST to a URL someone else chose (a webhook endpoint, a custom reply endpoint), with the address
 * checked twice: the URL's host before anything happens, and every resolved address at connect time,
 * through the socket's own lookup. Redirects are not followed. The answer's body is read up to
 * `maxAnswerBytes`, all within `timeoutMs`. Rejects on a refused address (`AddressNotAllowedError`), a
 * network error, the caller's abort, or a timeout (a `TimeoutError` DOMException).
 */
export function guardedPost(input: GuardedPostInput): Promise<GuardedAnswer> {
  const host = checkUrlHost(input.url, input.policy);
  if (!host.ok) return Promise.reject(new AddressNotAllowedError(`${input.url}: ${host.reason}`));
  const url = new URL(input.url);
  const request = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
  if (!request) return Promise.reject(new AddressNotAllowedError(`${input.url}: only http and https are allowed`));
  // A plain timer held by this call, not AbortSignal.timeout: under GC pressure Node 20 may collect a
  // composite timeout signal before it fires. The deadline is also checked on the answer itself, so an
  // answer that lands after timeoutMs is a timeout even when the timer fires late on a busy loop.
  const deadline = Date.now() + input.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(timeoutError()), input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, controller.signal]) : controller.signal;
  const maxAnswerBytes = input.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const exchange = new Promise<GuardedAnswer>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...input.headers, 'content-length': String(Buffer.byteLength(input.body)) },
        lookup: guardedLookup(input.policy, input.resolve),
        signal,
        // One connection per request: a pooled socket would skip the lookup, and with it the check.
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        void readNodeBody(res, maxAnswerBytes).then((read) => {
          if (!read.ok) res.destroy();
          if (Date.now() > deadline) return reject(timeoutError());
          if (read.ok) return resolve({ status, body: read.body });
          if (read.reason === 'too-large') return resolve({ status, body: null });
          reject(signal.aborted ? signal.reason : new Error('the answer was cut off'));
        });
      },
    );
    req.on('error', (error) => reject(signal.aborted ? signal.reason : error));
    req.end(input.body);
  });
  return exchange.finally(() => clearTimeout(timer));
}
