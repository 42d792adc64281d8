import type { SecretSource } from './verify.js';
import { InvalidOptionError } from '../errors.js';

/** A provider of secrets: asked on every request, so a rotation or a vault lookup needs no restart. */
export type SecretProvider = Extract<SecretSource, (...args: never[]) => unknown>;

/** Secrets as a receiver or reply endpoint keeps them: a fixed list checked once, or a provider. */
export type CheckedSecrets = readonly string[] | SecretProvider;

/**
 * The `secret` / `secrets` pair of an options object, checked when the object is made: exactly one is
 * given, and fixed secrets are non-empty strings, so a mistake fails at start-up, not as a 503 to every
 * request. `what` names the secret for the message ("the endpoint's whsec_… secret").
 */
export function secretsOption(options: { secret?: unknown; secrets?: SecretSource }, what: string): CheckedSecrets {
  if (options.secret === undefined && options.secrets === undefined) {
    // `secret: process.env.X!` (README quick start) with X unset arrives here as a key holding undefined.
    const unset =
      'secret' in options ? ': `secret` is undefined (is the environment variable it is read from set?)' : '';
    throw new InvalidOptionError(
      `No secret given${unset}. Pass \`secret\` (${what}) or \`secrets\` (several, or a provider)`,
    );
  }
  if (options.secret !== undefined && options.secrets !== undefined)
    throw new InvalidOptionError(`Pass exactly one of \`secret\` (${what}) or \`secrets\` (several, or a provider)`);
  if (options.secret !== undefined) {
    if (typeof options.secret !== 'string' || options.secret === '')
      throw new InvalidOptionError(`Expected \`secret\` to be ${what}, got an empty or non-string value`);
    return [options.secret];
  }
  const secrets = options.secrets!;
  if (typeof secrets === 'function') return secrets;
  const list: readonly unknown[] = typeof secrets === 'string' ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0 || list.some((s) => typeof s !== 'string' || s === ''))
    throw new InvalidOptionError(
      `Expected \`secrets\` to be one or more non-empty secrets (${what}), or a function that provides them`,
    );
  return Object.freeze([...(list as string[])]);
}
