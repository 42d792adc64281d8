import type { Logger } from 'pino';
import type { EmulatorClock } from '../clock.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import type { EmulatorContext } from '../route-handler.js';
import type { KeyStore } from '../state/key-store.js';
import type { IdempotencyGuard } from './idempotency.js';
import type { RateLimiter } from './rate-limiter.js';

/** What the derived routes share: the route handlers' context plus the platform machinery (auth, limits, idempotency). */
export interface EmulatorServices {
  ctx: EmulatorContext;
  clock: EmulatorClock;
  keys: KeyStore;
  limiter: RateLimiter;
  idempotency: IdempotencyGuard;
  dispatcher: Dispatcher;
  logger: Logger;
  /** Back to the seeded state (`/_emulator/reset`). */
  reset(): void;
  /** Check every handler's answer against the endpoint's response schema (a mismatch is a 500). */
  checkResponses: boolean;
}
