export {
  createReceiver,
  type CloseOptions,
  type Receiver,
  type ReplayOutcome,
  type ReplayOptions,
} from './create-receiver.js';
export { type StepClient, type StepCallOptions } from './step-client.js';
export { type HealthStatus, type HealthThresholds, type ReceiverHealth } from './receiver-health.js';
export { type HealthRoutes, LIVENESS_PATH, READINESS_PATH } from './health-routes.js';
export { METRICS_PATH, serve, type Served, type ServeOptions } from './serve.js';
export { closeOnSignals, type CloseOnSignalsOptions } from './close-on-signals.js';
export { type ReceiverOptions } from './receiver-options.js';
export { INSPECTOR_PATH, type InspectorHandler, type InspectorOptions, mountAt } from '../console/inspector/index.js';
export {
  localRequestRefusal,
  type LocalRequestOptions,
  type LocalRequestRefusal,
  type PageAccess,
} from '../console/local-only.js';
export { type BackoffOptions, createBackoff } from './backoff.js';
export { type DeliveryInput, type HeaderInput } from './handle-delivery.js';
export {
  type EventHandler,
  type EventContext,
  type KnownEventContext,
  type UnknownEventContext,
  type ErrorListener,
  type ErrorInfo,
} from './event-handler.js';
export { ReceiverError, type ReceiverErrorCode } from './receiver-error.js';
export { type ReceiverResponse, type RejectionCode, type Accepted, type Rejected } from './receiver-response.js';
export { REDACT_PATHS } from './receiver-logger.js';
export {
  createSqliteStore,
  type DeliveryStore,
  type DeliveryRecord,
  type DeliveryStatus,
  type DeliverySummary,
  type Backlog,
  type SqliteStoreOptions,
} from '../store/index.js';
