import { ConvoKitError } from '../errors.js';

export type SignatureErrorCode =
  | 'SIGNATURE_MISSING'
  | 'SIGNATURE_MALFORMED'
  | 'TIMESTAMP_MISSING'
  | 'TIMESTAMP_MALFORMED'
  | 'TIMESTAMP_OUT_OF_TOLERANCE'
  | 'SIGNATURE_MISMATCH';

/** A delivery whose signature or timestamp does not hold; the receiver answers it with 401. */
export class SignatureVerificationError extends ConvoKitError<SignatureErrorCode> {}
