import type { Logger } from 'pino';
import type { EmulatorClock } from '../clock.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import type { EmulatorContext } from '../route-handler.js';
import type { ImportSummary } from '../saved-state/import-state.js';
import type { StateDocument } from '../saved-state/state-document.js';
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
  /** The workspace as a state document, and its replacement by one (`/_emulator/state`, src/emulator/saved-state). */
  state: {
    export(options?: { stateKey?: string }): StateDocument;
    import(document: unknown, options?: { stateKey?: string }): ImportSummary;
  };
  /** Check every handler's answer against the endpoint's response schema (a mismatch is a 500). */
  checkResponses: boolean;
}
