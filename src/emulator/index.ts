export { createEmulator, LOG_REDACT_PATHS, type Emulator, type EmulatorOptions } from './create-emulator.js';
export { startEmulator, type StartOptions, type StartedEmulator } from './start.js';
export { createClock, type EmulatorClock } from './clock.js';
export { ApiFailure, notFound } from './api-failure.js';
export {
  reply,
  type RouteHandler,
  type RouteHandlers,
  type RouteRequest,
  type EmulatorContext,
  type EventBus,
  type Clock,
  type AuthenticatedKey,
} from './route-handler.js';
export {
  PENDING,
  isPending,
  control,
  EMULATOR_OVERRIDES,
  SYNTHETIC_BUILDERS,
  MAX_JSON_BODY_BYTES,
  IDEMPOTENCY_TTL_MS,
} from './platform/index.js';
export type { RouteHandlerTable, ImplementedHandlers, EmulatorControl } from './platform/index.js';
export {
  Dispatcher,
  DELIVERY_TIMEOUT_MS,
  USER_AGENT,
  ATTEMPT_LOG_SIZE,
  type DispatcherOptions,
} from './dispatch/index.js';
export { ROTATION_GRACE_MS } from './state/key-store.js';
export { EMULATOR_KEY_IDS } from './handlers/keys.js';
export {
  requestStats,
  requestsThisWindow,
  errorRate,
  ERROR_RATE_MIN_REQUESTS,
  type RequestStats,
} from './state/request-stats.js';
export { seed, SEED_IDS, DEFAULT_STAGES, type SeedOptions } from './seed.js';
export { emulatorPost } from './emulator-post.js';
