import { ConvoKitError } from '../errors.js';

export type DeliveryStoreErrorCode = 'INVALID_QUERY' | 'INVALID_CURSOR' | 'STORE_CLOSED';

/** A call the store refuses: a bad list query or cursor, or a store already closed. */
export class DeliveryStoreError extends ConvoKitError<DeliveryStoreErrorCode> {}
