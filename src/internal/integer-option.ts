import { InvalidOptionError } from '../errors.js';
/**
 * An optional integer option of `createReceiver`/`createReplyEndpoint`: the fallback when undefined, else the
 * value, or a TypeError naming the option, its range and what it got.
 */
export function integerOption(
  name: string,
  value: unknown,
  fallback: number,
  { min = 1, max }: { min?: number; max?: number } = {},
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || (max !== undefined && value > max))
    throw new InvalidOptionError(
      `Expected \`${name}\` to be an integer from ${min} ${max === undefined ? 'and up' : `to ${max}`}, got \`${String(value)}\``,
    );
  return value;
}
