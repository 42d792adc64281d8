export { sign, signatureDigest, type Body } from './sign.js';
export {
  verify,
  parseSignatureHeader,
  parseTimestamp,
  checkTolerance,
  resolveSecrets,
  matchSecret,
  signatureMismatch,
  type SecretSource,
  type VerifyInput,
  type Verified,
} from './verify.js';
export {
  signedHeaders,
  signingHeaders,
  newDeliveryId,
  type SignedHeaders,
  type SignedHeadersInput,
  type SigningHeaders,
} from './signed-headers.js';
export { SignatureVerificationError, type SignatureErrorCode } from './signature-error.js';
export {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  DELIVERY_HEADER,
  EVENT_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_DEADLINE_MS,
} from './constants.js';
