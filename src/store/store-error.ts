import { ConvoKitError } from '../errors.js';

export type DeliveryStoreErrorCode =
  | 'INVALID_QUERY'
  | 'INVALID_CURSOR'
  | 'STORE_CLOSED'
  | 'STORE_GONE'
  | 'STORE_FAILED';

/** A call the store refuses: a bad list query or cursor, a store already closed, a database file removed while open, or a store whose thread stopped. */
export class DeliveryStoreError extends ConvoKitError<DeliveryStoreErrorCode> {}
