import type { Logger } from 'pino';
import { redactedLogger } from '../internal/redacted-logger.js';

export { REDACT_PATHS } from '../internal/redacted-logger.js';

export function receiverLogger(logger: Logger | undefined): Logger {
  return redactedLogger('convo-kit-receiver', logger);
}
