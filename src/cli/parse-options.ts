import { InvalidArgumentError } from 'commander';
import { CliError } from './cli-error.js';
import { wholeNumberIn } from '../internal/whole-number.js';

/** Option parsers for commander: each throws InvalidArgumentError saying what was expected, so commander prints it with the option's name. */

export function parseInteger(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = wholeNumberIn(value, min, max);
    if (n === undefined)
      throw new InvalidArgumentError(`Expected a whole number from ${min} to ${max}, got \`${value}\`.`);
    return n;
  };
}

export const parsePort = parseInteger(0, 65_535);

/** `localhost:3000/webhooks`, `127.0.0.1:4010`: a host (and port) written without the scheme in front. */
const SCHEMELESS = /^[\w.-]+(?::\d+)?(?:\/|$)/;

export function parseHttpUrl(value: string): string {
  // `new URL('localhost:4000')` reads `localhost:` as the scheme: say what is missing, not which scheme it is.
  if (SCHEMELESS.test(value.trim()))
    throw new InvalidArgumentError(
      `Expected an http:// or https:// URL, got \`${value}\`: write it as http://${value.trim()}.`,
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(
      `Expected an http:// or https:// URL such as http://localhost:3000/webhooks, got \`${value}\`.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError(`Expected an http:// or https:// URL, got the scheme \`${url.protocol}\`.`);
  }
  // fetch refuses such a URL ("cannot be constructed from a URL that includes credentials"), and commander's
  // own message would quote the password: a CliError, with the password hidden.
  if (url.username || url.password) {
    if (url.password) url.password = '***';
    throw new CliError('USAGE', `A URL with credentials (user:password@) cannot be sent to: ${url.href}`, {
      hint: 'Give it without them: deliveries are authenticated by their signature.',
    });
  }
  // The text as given (URL#href would add a trailing slash to a bare origin, changing e.g. a server URL).
  return value.trim();
}

export function parseUrlPath(value: string): string {
  if (!value.startsWith('/') || /\s/.test(value)) {
    throw new InvalidArgumentError(`Expected a URL path starting with \`/\` such as /webhooks, got \`${value}\`.`);
  }
  return value;
}

/** Unix time in whole seconds, the format of X-Service-Timestamp. */
export function parseUnixSeconds(value: string): number {
  if (!/^\d{1,15}$/.test(value)) {
    throw new InvalidArgumentError(`Expected Unix time in whole seconds such as 1763683200, got \`${value}\`.`);
  }
  return Number(value);
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const RELATIVE = /^(\d{1,9})(s|m|h|d|w)$/;

/** `1h`, `30m`, `2d` (that long before `now`) or an ISO-8601 date; returns epoch milliseconds. */
export function parseTimeBound(now: () => number = Date.now): (value: string) => number {
  return (value) => {
    const relative = RELATIVE.exec(value.trim());
    if (relative) return now() - Number(relative[1]) * UNIT_MS[relative[2]!]!;
    const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
    if (Number.isNaN(ms)) {
      throw new InvalidArgumentError(
        `Expected a duration ago (30s, 15m, 1h, 2d, 1w) or an ISO date such as 2025-11-21T09:00:00Z, got \`${value}\`.`,
      );
    }
    return ms;
  };
}

/** For repeatable options: `--id a --id b` gives ['a', 'b']. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
