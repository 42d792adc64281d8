import { Option } from 'commander';
import { CliError } from './cli-error.js';
import { err } from './output.js';

/** The env var the demo receiver and the templates read too, so one export serves every command. */
export const SECRET_ENV = 'CONVO_KIT_WEBHOOK_SECRET';
export const DB_ENV = 'CONVO_KIT_DB';
/** Where `listen` stores deliveries and where `deliveries` and `replay` look for them. */
export const DEFAULT_DB_FILE = 'convo-kit-deliveries.db';

/** The webhook secret; from the environment when not given, so it stays out of shell history and `ps`. */
export function secretOption(purpose: string): Option {
  return new Option('-s, --secret <whsec>', `webhook secret (whsec_…) ${purpose}`).env(SECRET_ENV);
}

export function dbOption(): Option {
  return new Option('--db <file|url>', 'SQLite file of received deliveries, or a postgres:// URL (?schema=<name>)')
    .env(DB_ENV)
    .default(DEFAULT_DB_FILE);
}

export function jsonOption(): Option {
  return new Option('--json', 'print machine-readable JSON on stdout');
}

/**
 * Commander leaves a missing optional-but-needed value undefined; this names it and how to give it. A secret
 * without its `whsec_` prefix is taken, with a warning (never the value): a prefix dropped in a copy is the
 * commonest reason nothing verifies, since the whole string is the HMAC key (docs/webhook-deliveries.md).
 */
export function requireSecret(secret: string | undefined): string {
  if (!secret)
    throw new CliError('USAGE', 'No webhook secret given.', {
      hint: `Pass --secret whsec_… or set ${SECRET_ENV} (the secret returned once when the webhook endpoint was registered).`,
    });
  if (!secret.startsWith('whsec_'))
    err.warn('the secret does not start with `whsec_`; the whole value, prefix included, is the HMAC key.');
  return secret;
}
