import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkUrlHost, type AddressPolicy } from '../internal/address-policy.js';
import { AddressNotAllowedError, guardedLookup } from './guarded-lookup.js';

export interface GuardedPostInput {
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** Where the request may connect (see AddressPolicy). */
  policy: AddressPolicy;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The resolver under the guard. @default dns.lookup (tests pass a stub: nothing leaves the machine) */
  resolve?: LookupFunction;
}

/**
 * One POST to a URL someone else chose (a webhook endpoint, a reply URL), with the address checked twice:
 * the URL's host before anything happens, and every resolved address at connect time, through the
 * socket's own lookup. Redirects are not followed; the answer's body is drained and dropped. Resolves
 * with the status; rejects on a refused address (`AddressNotAllowedError`), a network error or timeout.
 */
export function guardedPost(input: GuardedPostInput): Promise<{ status: number }> {
  const host = checkUrlHost(input.url, input.policy);
  if (!host.ok) return Promise.reject(new AddressNotAllowedError(`${input.url}: ${host.reason}`));
  const url = new URL(input.url);
  const request = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
  if (!request) return Promise.reject(new AddressNotAllowedError(`${input.url}: only http and https are allowed`));
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
  return new Promise((resolve, reject) => {
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
        res.resume();
        res.on('error', () => undefined);
        resolve({ status: res.statusCode ?? 0 });
      },
    );
    req.on('error', (error) => reject(signal.aborted && timeout.aborted ? timeout.reason : error));
    req.end(input.body);
  });
}
