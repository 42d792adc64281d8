import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { checkAddress, type AddressPolicy } from '../internal/address-policy.js';

/** The error a refused address gives: a connection is never opened to it. */
export class AddressNotAllowedError extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor(message: string) {
    super(message);
    this.name = 'AddressNotAllowedError';
  }
}

/**
 * A `lookup` for net/http/https that resolves as usual, then refuses the connection unless every
 * address the name resolved to is allowed by `policy`. The check runs on the addresses the socket will
 * really use, so a name that resolved to a public address when it was registered and to a private one
 * now (DNS rebinding) is still refused. `resolve` is the underlying resolver (tests pass a stub).
 */
export function guardedLookup(
  policy: AddressPolicy,
  resolve: LookupFunction = dnsLookup as LookupFunction,
): LookupFunction {
  return (hostname, options, callback) => {
    const all: LookupAllOptions = { ...options, all: true };
    resolve(hostname, all, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = (Array.isArray(addresses) ? addresses : [{ address: addresses, family: 0 }]) as LookupAddress[];
      for (const { address } of list) {
        const verdict = checkAddress(address, policy);
        if (!verdict.ok)
          return callback(new AddressNotAllowedError(`${hostname} resolved to ${verdict.reason}`), '', 0);
      }
      if (list.length === 0) return callback(new AddressNotAllowedError(`${hostname} resolved to no address`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
