import { InvalidOptionError } from '../errors.js';
import { describe, expect, it } from 'vitest';
import {
  sign,
  verify,
  signedHeaders,
  matchSecret,
  parseSignatureHeader,
  signatureMismatch,
  SignatureVerificationError,
  type VerifyInput,
} from './index.js';

// The test vector of docs/webhook-deliveries.md.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const TIMESTAMP = 1763683200;
const BODY =
  '{"id":"evt_1","event":"message.received","created_at":"2025-11-21T00:00:00Z","data":{"id":"msg_1","content":"hi"}}';
const SIGNATURE = 'sha256=0789d92d9e958646a38b477aab73b28e454d9766c56d7379ebd60063581f0d5e';
const at = (seconds: number) => () => seconds * 1000;

function valid(overrides: Partial<VerifyInput> = {}): VerifyInput {
  return {
    body: BODY,
    signature: SIGNATURE,
    timestamp: String(TIMESTAMP),
    secrets: SECRET,
    now: at(TIMESTAMP),
    ...overrides,
  };
}

async function reason(input: VerifyInput): Promise<string> {
  const error = await verify(input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SignatureVerificationError);
  return (error as SignatureVerificationError).code;
}

describe('sign', () => {
  it('matches the test vector of docs/webhook-deliveries.md', () => {
    expect(sign({ secret: SECRET, timestamp: TIMESTAMP, body: BODY })).toBe(SIGNATURE);
    expect(sign({ secret: SECRET, timestamp: String(TIMESTAMP), body: Buffer.from(BODY) })).toBe(SIGNATURE);
  });
});

describe('verify', () => {
  it('accepts the test vector', async () => {
    await expect(verify(valid())).resolves.toEqual({ timestamp: TIMESTAMP, secretIndex: 0 });
  });

  it('accepts raw bytes as well as a string body', async () => {
    await expect(verify(valid({ body: new TextEncoder().encode(BODY) }))).resolves.toMatchObject({ secretIndex: 0 });
  });

  it('tells which of several secrets matched (rotation)', async () => {
    await expect(verify(valid({ secrets: ['whsec_new', SECRET] }))).resolves.toMatchObject({ secretIndex: 1 });
  });

  it('takes secrets from an async provider', async () => {
    await expect(verify(valid({ secrets: async () => ['whsec_other', SECRET] }))).resolves.toMatchObject({
      secretIndex: 1,
    });
  });

  it('accepts a header with several signatures, comma or space separated', async () => {
    const other = 'sha256=' + 'a'.repeat(64);
    await expect(verify(valid({ signature: `${other},${SIGNATURE}` }))).resolves.toMatchObject({ secretIndex: 0 });
    await expect(verify(valid({ signature: `${other} ${SIGNATURE}` }))).resolves.toMatchObject({ secretIndex: 0 });
  });

  it('rejects a tampered body', async () => {
    expect(await reason(valid({ body: BODY.replace('hi', 'ho') }))).toBe('SIGNATURE_MISMATCH');
  });

  it('rejects a body that was re-serialized with different spacing', async () => {
    expect(await reason(valid({ body: JSON.stringify(JSON.parse(BODY), null, 2) }))).toBe('SIGNATURE_MISMATCH');
  });

  it('rejects the wrong secret, and the secret without its whsec_ prefix', async () => {
    expect(await reason(valid({ secrets: 'whsec_wrong' }))).toBe('SIGNATURE_MISMATCH');
    expect(await reason(valid({ secrets: SECRET.slice('whsec_'.length) }))).toBe('SIGNATURE_MISMATCH');
  });

  it('rejects a signature made for another timestamp', async () => {
    expect(await reason(valid({ timestamp: String(TIMESTAMP + 1), now: at(TIMESTAMP) }))).toBe('SIGNATURE_MISMATCH');
  });

  it('rejects a timestamp older than the tolerance, and one as far in the future', async () => {
    expect(await reason(valid({ now: at(TIMESTAMP + 301) }))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(await reason(valid({ now: at(TIMESTAMP - 301) }))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    await expect(verify(valid({ now: at(TIMESTAMP + 300) }))).resolves.toBeDefined();
    await expect(verify(valid({ now: at(TIMESTAMP - 300) }))).resolves.toBeDefined();
  });

  it('honours a configured tolerance', async () => {
    expect(await reason(valid({ now: at(TIMESTAMP + 11), toleranceSeconds: 10 }))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
  });

  it('names the reason when a header is missing', async () => {
    expect(await reason(valid({ signature: undefined }))).toBe('SIGNATURE_MISSING');
    expect(await reason(valid({ signature: '' }))).toBe('SIGNATURE_MISSING');
    expect(await reason(valid({ timestamp: null }))).toBe('TIMESTAMP_MISSING');
  });

  it.each([
    ['non-hex', 'sha256=' + 'z'.repeat(64)],
    ['short', 'sha256=' + 'a'.repeat(63)],
    ['long', 'sha256=' + 'a'.repeat(65)],
    ['no scheme', '0789d92d9e958646a38b477aab73b28e454d9766c56d7379ebd60063581f0d5e'],
    ['another scheme', 'sha1=' + 'a'.repeat(40)],
    ['unicode', 'sha256=' + 'é'.repeat(64)],
    ['1 MB', 'sha256=' + 'a'.repeat(1024 * 1024)],
    ['commas only', ',,, ,'],
  ])('rejects a %s signature header as malformed', async (_name, header) => {
    expect(await reason(valid({ signature: header }))).toBe('SIGNATURE_MALFORMED');
  });

  it.each([
    ['milliseconds', String(TIMESTAMP * 1000)],
    ['an ISO date', '2025-11-21T00:00:00Z'],
    ['negative', '-1763683200'],
    ['fractional', '1763683200.5'],
    ['unicode digits', '١٧٦٣٦٨٣٢٠٠'],
    ['1 MB', '1'.repeat(1024 * 1024)],
  ])('rejects %s as a malformed timestamp', async (name, timestamp) => {
    const code = await reason(valid({ timestamp }));
    // Milliseconds parse as digits but are far outside the window; the message still says why.
    expect(code).toBe(name === 'milliseconds' ? 'TIMESTAMP_OUT_OF_TOLERANCE' : 'TIMESTAMP_MALFORMED');
  });

  it('says what to check when no signature matched, without echoing the secret or signature', async () => {
    const error = await verify(valid({ secrets: 'whsec_wrong' })).catch((e: Error) => e);
    expect(String(error)).toMatch(/raw request bytes/);
    expect(String(error)).not.toContain('whsec_wrong');
    expect(String(error)).not.toContain(SIGNATURE.slice(7));
  });

  it('gives a caller composing the steps the same mismatch error verify throws', async () => {
    const thrown = await verify(valid({ secrets: 'whsec_wrong' })).catch((e: unknown) => e);
    expect(matchSecret(['whsec_wrong'], TIMESTAMP, BODY, parseSignatureHeader(SIGNATURE))).toBe(-1);
    const composed = signatureMismatch();
    expect(composed).toBeInstanceOf(SignatureVerificationError);
    expect(composed).toMatchObject({ code: 'SIGNATURE_MISMATCH', message: (thrown as Error).message });
  });

  it('refuses an empty secret list as a configuration error', async () => {
    await expect(verify(valid({ secrets: [] }))).rejects.toThrow(InvalidOptionError);
  });
});

describe('signedHeaders', () => {
  it('produces the four headers, verifiable with the same secret', async () => {
    const headers = signedHeaders({ secret: SECRET, body: BODY, deliveryId: 'dlv_x' });
    expect(headers['x-service-event']).toBe('message.received');
    expect(headers['x-service-delivery']).toBe('dlv_x');
    await expect(
      verify({
        body: BODY,
        signature: headers['x-service-signature'],
        timestamp: headers['x-service-timestamp'],
        secrets: SECRET,
      }),
    ).resolves.toMatchObject({ secretIndex: 0 });
  });

  it('generates delivery ids of the service format', () => {
    expect(signedHeaders({ secret: SECRET, body: BODY })['x-service-delivery']).toMatch(/^dlv_[A-Za-z0-9_-]{24}$/);
  });
});
