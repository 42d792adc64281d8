import type { Logger } from 'pino';
import {
  SIGNATURE_HEADER,
  SignatureVerificationError,
  TIMESTAMP_HEADER,
  verify,
  type SecretSource,
  type SignatureErrorCode,
} from '../signature/index.js';
import { headerValue, type HeaderInput } from './header-value.js';
import { errorAnswer, tooLarge, type ErrorBody, type HttpAnswer } from './http-answer.js';

export interface SignedJsonOptions {
  secrets: SecretSource;
  toleranceSeconds: number;
  maxBodyBytes: number;
  now: () => number;
}

export type SignedJsonRefusal = HttpAnswer<
  ErrorBody<'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE' | 'SECRETS_UNAVAILABLE' | SignatureErrorCode>
>;

export type SignedJsonCheck =
  | { ok: true; signature: string; timestamp: string; secretIndex: number }
  | { ok: false; answer: SignedJsonRefusal };

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/**
 * The checks every request the service signs goes through, before its body is even parsed: the size
 * limit (413), a JSON content type (415), then the signature and its timestamp (401, constant time).
 * A secret provider that throws is 503: the service retries, nothing is wrongly refused as forged.
 */
export async function checkSignedJson(
  headers: HeaderInput,
  body: Uint8Array,
  options: SignedJsonOptions,
  log: Logger,
): Promise<SignedJsonCheck> {
  if (body.byteLength > options.maxBodyBytes) return { ok: false, answer: tooLarge(options.maxBodyBytes) };
  const contentType = headerValue(headers, 'content-type')?.split(';')[0]?.trim() ?? '';
  if (!JSON_TYPE.test(contentType)) {
    const got = contentType ? JSON.stringify(contentType.slice(0, 100)) : 'none';
    return {
      ok: false,
      answer: errorAnswer(415, 'UNSUPPORTED_MEDIA_TYPE', `Expected Content-Type application/json, got ${got}`),
    };
  }
  const signature = headerValue(headers, SIGNATURE_HEADER);
  const timestamp = headerValue(headers, TIMESTAMP_HEADER);
  try {
    const { secretIndex } = await verify({
      body,
      signature,
      timestamp,
      secrets: options.secrets,
      toleranceSeconds: options.toleranceSeconds,
      now: options.now,
    });
    return { ok: true, signature: signature!, timestamp: timestamp!, secretIndex };
  } catch (error) {
    if (error instanceof SignatureVerificationError)
      return { ok: false, answer: errorAnswer(401, error.code, error.message) };
    log.error({ err: error }, 'could not resolve the signing secrets');
    return {
      ok: false,
      answer: errorAnswer(503, 'SECRETS_UNAVAILABLE', 'Could not load the signing secrets (the log says why)'),
    };
  }
}
