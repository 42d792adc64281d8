import { ConvoKitError } from '../errors.js';

export type DeliveryStoreErrorCode =
  | 'INVALID_QUERY'
  | 'INVALID_CURSOR'
  | 'STORE_CLOSED'
  | 'STORE_GONE'
  | 'STORE_FAILED'
  | 'STEP_ROLLED_BACK';

/**
 * A call the store refuses: a bad list query or cursor, a store already closed, a database file removed
 * while open, a store whose thread stopped, or a transaction step whose transaction a failed statement aborted.
 */
export class DeliveryStoreError extends ConvoKitError<DeliveryStoreErrorCode> {}
