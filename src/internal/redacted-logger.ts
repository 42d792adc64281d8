import { pino, type Logger } from 'pino';

/**
 * Paths that must never reach a log: the secrets and the signature (a valid signature replays within
 * the tolerance window). Our own log calls never include them; redaction also catches a user's.
 */
export const REDACT_PATHS = [
  'secret',
  'secrets',
  'signature',
  'headers["x-service-signature"]',
  'req.headers["x-service-signature"]',
  'headers.authorization',
  'req.headers.authorization',
];

/** The logger of an endpoint the service signs: the user's pino (as a child) or our own, both redacting. */
export function redactedLogger(component: string, logger: Logger | undefined): Logger {
  const redact = { paths: REDACT_PATHS, censor: '[redacted]' };
  if (logger) return logger.child({ component }, { redact });
  return pino({ name: component, level: process.env.LOG_LEVEL ?? 'info', redact });
}
