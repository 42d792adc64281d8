import { ApiFailure } from '../api-failure.js';
import type { AuthenticatedKey } from '../route-handler.js';
import { KEY_FORMAT, type KeyStore } from '../state/key-store.js';

const BEARER = /^Bearer +(\S+)$/i;

const REFUSALS = {
  unknown: 'The API key is not known to this service',
  revoked: 'The API key was revoked',
  expired: 'The API key was rotated more than 24 hours ago; use its new value',
} as const;

/** `Authorization: Bearer <key>` -> the key, or 401 UNAUTHENTICATED saying which rule failed (never echoing the key). */
export function authenticate(header: string | undefined, keys: KeyStore): AuthenticatedKey {
  if (header === undefined || header.trim() === '') {
    throw new ApiFailure('UNAUTHENTICATED', 'Missing Authorization header: send `Authorization: Bearer <API key>`');
  }
  const match = BEARER.exec(header.trim());
  if (!match) throw new ApiFailure('UNAUTHENTICATED', 'Malformed Authorization header: expected `Bearer <API key>`');
  const value = match[1]!;
  if (!KEY_FORMAT.test(value)) {
    throw new ApiFailure(
      'UNAUTHENTICATED',
      'Malformed API key: expected svc_live_ or svc_test_ followed by 32 url-safe characters',
    );
  }
  const result = keys.authenticate(value);
  if (typeof result === 'string') throw new ApiFailure('UNAUTHENTICATED', REFUSALS[result]);
  return result;
}
