import type { Logger } from 'pino';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './constants.js';
import { SignatureVerificationError, type SignatureErrorCode } from './signature-error.js';
import {
  checkTolerance,
  matchSecret,
  parseSignatureHeader,
  parseTimestamp,
  resolveSecrets,
  signatureMismatch,
} from './verify.js';
import { headerValue, type HeaderInput } from '../internal/header-value.js';
import type { CheckedSecrets } from './secrets-option.js';
import { errorAnswer, type ErrorBody, type HttpAnswer } from '../internal/http-answer.js';
import { declaresUtf8 } from '../internal/utf8-charset.js';

export interface SignedJsonOptions {
  /** Checked once at start-up (secretsOption): a fixed list is used as it is; a provider is asked per request. */
  secrets: CheckedSecrets;
  toleranceSeconds: number;
  now: () => number;
}

export type SignedJsonRefusal = HttpAnswer<
  ErrorBody<'UNSUPPORTED_MEDIA_TYPE' | 'SECRETS_UNAVAILABLE' | SignatureErrorCode>
>;

/** What the headers of a signed request said, once they passed: the body check needs no header again. */
export interface AdmittedSignature {
  /** The headers as they arrived (stored with the delivery, to verify it again). */
  signature: string;
  timestamp: string;
  digests: Buffer[];
  seconds: number;
}

export type AdmittedSignatureCheck = { ok: true; signed: AdmittedSignature } | { ok: false; answer: SignedJsonRefusal };

export type SignedJsonCheck =
  | { ok: true; signature: string; timestamp: string; secretIndex: number }
  | { ok: false; answer: SignedJsonRefusal };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

const refusal = (error: SignatureVerificationError): SignedJsonRefusal => errorAnswer(401, error.code, error.message);

/**
 * What the headers of a signed request decide about its signature, before a byte of its body is read
 * (README "What the receiver answers"): a JSON content type in UTF-8 (415), a signature header that is present
 * and well-formed, a timestamp within tolerance (401). So a request that cannot pass is refused without
 * holding its body. The size is not checked here: the body's reader refuses a declared or streamed
 * length over the limit, and `handleWhole` a body handed in whole (node-listener.ts), each once.
 */
export function checkSignedHeaders(headers: HeaderInput, options: SignedJsonOptions): AdmittedSignatureCheck {
  const declared = headerValue(headers, 'content-type') ?? '';
  const contentType = declared.split(';')[0]!.trim();
  if (!JSON_TYPE.test(contentType) || !declaresUtf8(declared)) {
    const got = declared ? JSON.stringify(declared.slice(0, 100)) : 'none';
    return {
      ok: false,
      answer: errorAnswer(415, 'UNSUPPORTED_MEDIA_TYPE', `Expected Content-Type application/json (UTF-8), got ${got}`),
    };
  }
  const signature = headerValue(headers, SIGNATURE_HEADER);
  const timestamp = headerValue(headers, TIMESTAMP_HEADER);
  try {
    const digests = parseSignatureHeader(signature);
    const seconds = parseTimestamp(timestamp);
    checkTolerance(seconds, options.toleranceSeconds, options.now());
    return { ok: true, signed: { signature: signature!, timestamp: timestamp!, digests, seconds } };
  } catch (error) {
    if (error instanceof SignatureVerificationError) return { ok: false, answer: refusal(error) };
    throw error;
  }
}

/**
 * The body's half, for a body already within the limit: the HMAC over the exact bytes against every
 * secret (401, constant time). A secret provider that throws is 503: the service
 * retries, nothing is wrongly refused as forged.
 */
export async function checkSignedBody(
  signed: AdmittedSignature,
  body: Uint8Array,
  options: SignedJsonOptions,
  log: Logger,
): Promise<SignedJsonCheck> {
  let secrets: readonly string[];
  try {
    secrets = typeof options.secrets === 'function' ? await resolveSecrets(options.secrets) : options.secrets;
  } catch (error) {
    log.error({ err: error }, 'could not resolve the signing secrets');
    return {
      ok: false,
      answer: errorAnswer(503, 'SECRETS_UNAVAILABLE', 'Could not load the signing secrets (the log says why)'),
    };
  }
  const secretIndex = matchSecret(secrets, signed.seconds, body, signed.digests);
  if (secretIndex < 0) return { ok: false, answer: refusal(signatureMismatch()) };
  return { ok: true, signature: signed.signature, timestamp: signed.timestamp, secretIndex };
}
