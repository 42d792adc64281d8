import { randomBytes, scryptSync } from 'node:crypto';
import { ApiFailure } from '../api-failure.js';
import { boxWithKey, type SecretBox } from '../state/secret-box.js';
import type { StateSecrets } from './state-document.js';

export { STATE_KEY_ENV } from './state-key-env.js';
/** A passphrase shorter than this is refused: it would be guessed against the export offline. */
export const MIN_STATE_KEY_CHARS = 16;
const MAX_STATE_KEY_CHARS = 1024;

/** scrypt's recommended interactive cost (2^15, r 8): about 100 ms and 32 MiB once per export or import. */
const NEW_SECRETS = { kdf: 'scrypt', cost: 2 ** 15, block_size: 8, parallelization: 1 } as const;

/** Refuses a state key too short or too long; the message names its length, never the key. */
export function checkStateKey(key: string, where: string): string {
  if (key.length < MIN_STATE_KEY_CHARS || key.length > MAX_STATE_KEY_CHARS) {
    throw new ApiFailure(
      'VALIDATION_FAILED',
      `The state key (${where}) must be ${MIN_STATE_KEY_CHARS} to ${MAX_STATE_KEY_CHARS} characters; one of ${key.length} arrived`,
      { details: [{ path: where, in: 'headers', message: `expected ${MIN_STATE_KEY_CHARS} characters or more` }] },
    );
  }
  return key;
}

function derive(stateKey: string, secrets: StateSecrets): SecretBox {
  const { cost: N, block_size: r, parallelization: p } = secrets;
  const key = scryptSync(stateKey, Buffer.from(secrets.salt, 'base64'), 32, { N, r, p, maxmem: 256 * N * r * p });
  return boxWithKey(key);
}

/** A fresh salt and the box that seals an export's secrets with the state key. */
export function newStateBox(stateKey: string): { secrets: StateSecrets; box: SecretBox } {
  const secrets: StateSecrets = { ...NEW_SECRETS, salt: randomBytes(16).toString('base64') };
  return { secrets, box: derive(stateKey, secrets) };
}

/** The box that opens a document's secrets, from the key the caller gave. */
export function openStateBox(stateKey: string, secrets: StateSecrets): SecretBox {
  return derive(stateKey, secrets);
}
