import { ConvoKitError } from '../errors.js';

export type DeliveryStoreErrorCode = 'INVALID_QUERY' | 'INVALID_CURSOR' | 'STORE_CLOSED' | 'STORE_GONE';

/** A call the store refuses: a bad list query or cursor, a store already closed, or a database file removed while open. */
export class DeliveryStoreError extends ConvoKitError<DeliveryStoreErrorCode> {}
