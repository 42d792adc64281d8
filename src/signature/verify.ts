import { timingSafeEqual } from 'node:crypto';
import {
  DEFAULT_TOLERANCE_SECONDS,
  MAX_SIGNATURE_HEADER_CHARS,
  MAX_SIGNATURES_PER_HEADER,
  SIGNATURE_SCHEME,
} from './constants.js';
import { signatureDigest, type Body } from './sign.js';
import { SignatureVerificationError } from './signature-error.js';
import { InvalidOptionError } from '../errors.js';

/** One secret, several (rotation: old and new both verify), or a provider that looks them up. */
export type SecretSource =
  | string
  | readonly string[]
  | (() => string | readonly string[] | Promise<string | readonly string[]>);

export interface VerifyInput {
  /** The exact bytes that arrived; a re-serialized object will not verify. */
  body: Body;
  /** The `X-Service-Signature` header value. */
  signature: string | null | undefined;
  /** The `X-Service-Timestamp` header value. */
  timestamp: string | null | undefined;
  secrets: SecretSource;
  /** @default 300 */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch; injectable for tests. @default Date.now */
  now?: () => number;
}

export interface Verified {
  timestamp: number;
  /** Which of the configured secrets matched (its position), so logs can tell rotation progress. */
  secretIndex: number;
}

const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;
const TIMESTAMP = /^\d{1,15}$/;

/** Parses `sha256=<hex>` values separated by commas or spaces; unknown schemes are skipped (forward compatible). */
export function parseSignatureHeader(header: string | null | undefined): Buffer[] {
  if (header == null || header.trim() === '') {
    throw new SignatureVerificationError(
      'SIGNATURE_MISSING',
      'Missing X-Service-Signature header: is the request really from the service, and does your proxy forward the X-Service-* headers?',
    );
  }
  if (header.length > MAX_SIGNATURE_HEADER_CHARS) {
    throw new SignatureVerificationError(
      'SIGNATURE_MALFORMED',
      `X-Service-Signature header is ${header.length} characters; expected at most ${MAX_SIGNATURE_HEADER_CHARS}`,
    );
  }
  const digests: Buffer[] = [];
  for (const part of header.split(/[\s,]+/)) {
    if (!part.startsWith(SIGNATURE_SCHEME)) continue;
    const hex = part.slice(SIGNATURE_SCHEME.length);
    if (HEX_DIGEST.test(hex)) digests.push(Buffer.from(hex, 'hex'));
    if (digests.length === MAX_SIGNATURES_PER_HEADER) break;
  }
  if (digests.length === 0) {
    throw new SignatureVerificationError(
      'SIGNATURE_MALFORMED',
      'X-Service-Signature holds no `sha256=` followed by 64 hex digits',
    );
  }
  return digests;
}

export function parseTimestamp(header: string | null | undefined): number {
  if (header == null || header.trim() === '') {
    throw new SignatureVerificationError('TIMESTAMP_MISSING', 'Missing X-Service-Timestamp header');
  }
  const value = header.trim();
  if (!TIMESTAMP.test(value)) {
    throw new SignatureVerificationError(
      'TIMESTAMP_MALFORMED',
      'X-Service-Timestamp must be Unix time in whole seconds (decimal digits), e.g. 1763683200; milliseconds or ISO dates will not verify',
    );
  }
  return Number(value);
}

export function checkTolerance(timestamp: number, toleranceSeconds: number, nowMs: number): void {
  const skew = Math.floor(nowMs / 1000) - timestamp;
  if (Math.abs(skew) <= toleranceSeconds) return;
  const direction = skew > 0 ? `${skew} s old` : `${-skew} s in the future`;
  const hint =
    timestamp > 1e11
      ? 'It looks like milliseconds; the service sends whole seconds.'
      : 'A replayed request, or a clock out of sync (check NTP)?';
  throw new SignatureVerificationError(
    'TIMESTAMP_OUT_OF_TOLERANCE',
    `X-Service-Timestamp is ${direction}; at most ${toleranceSeconds} s either way is accepted. ${hint}`,
  );
}

export async function resolveSecrets(source: SecretSource): Promise<readonly string[]> {
  const resolved = typeof source === 'function' ? await source() : source;
  const list = typeof resolved === 'string' ? [resolved] : resolved;
  if (list.length === 0 || list.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new InvalidOptionError('Expected `secrets` to be one or more non-empty webhook secrets (whsec_…)');
  }
  return list;
}

/** Compares every candidate against every secret in constant time; returns the matching secret's index or -1. */
export function matchSecret(
  secrets: readonly string[],
  timestamp: number,
  body: Body,
  candidates: readonly Buffer[],
): number {
  for (let i = 0; i < secrets.length; i++) {
    const expected = signatureDigest(secrets[i]!, timestamp, body);
    for (const candidate of candidates) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) return i;
    }
  }
  return -1;
}

/**
 * The error `verify` throws when no secret matched: the one step of the check that `matchSecret`
 * answers with -1 rather than a throw, so a caller composing the steps (the receiver checks the
 * headers before the body is read) refuses with the same code and message.
 */
export const signatureMismatch = () =>
  new SignatureVerificationError(
    'SIGNATURE_MISMATCH',
    "No signature matched. Check that the secret is the endpoint's whole `whsec_…` value and that you verify the raw request bytes, not a re-serialized JSON object (mount the receiver before any body parser).",
  );

/**
 * Verifies a delivery's signature and timestamp (docs/webhook-deliveries.md): HMAC-SHA256 over `<timestamp>.<rawBody>`,
 * compared in constant time, timestamp within `toleranceSeconds` of now in either direction.
 * Throws `SignatureVerificationError` with a `code` naming the reason.
 */
export async function verify(input: VerifyInput): Promise<Verified> {
  const candidates = parseSignatureHeader(input.signature);
  const timestamp = parseTimestamp(input.timestamp);
  checkTolerance(timestamp, input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS, (input.now ?? Date.now)());
  const secrets = await resolveSecrets(input.secrets);
  const secretIndex = matchSecret(secrets, timestamp, input.body, candidates);
  if (secretIndex < 0) throw signatureMismatch();
  return { timestamp, secretIndex };
}
