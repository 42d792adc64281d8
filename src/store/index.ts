export {
  DeliveryStatus,
  AttemptOutcome,
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  REQUEUE_MAX_IDS,
  type DeliveryStore,
  type NewDelivery,
  type DeliverySummary,
  type DeliveryRecord,
  type AttemptRecord,
  type ClaimByIdOptions,
  type ClaimOptions,
  type FailOptions,
  type RenewOptions,
  type ListQuery,
  type DeliveryPage,
  type Backlog,
} from './delivery-store.js';
export { createSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
export { openDatabase, type Durability, type OpenDatabaseOptions } from './open-database.js';
export { DeliveryStoreError, type DeliveryStoreErrorCode } from './store-error.js';
export { checkListQuery, eventFilter, encodeCursor, type CheckedListQuery, type EventFilter } from './list-query.js';
export {
  StepOutcome,
  MAX_STEP_RESULT_BYTES,
  MAX_STEP_NAME_CHARS,
  MAX_STEPS_PER_EVENT,
  type StepJournal,
  type StepRecord,
  type StepStart,
  type StepFinish,
  type TransactionClient,
} from './step-journal.js';
