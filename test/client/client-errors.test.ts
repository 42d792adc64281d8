import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  createApiClient,
  isApiError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseValidationError,
  SendFailedError,
  ServerError,
  ValidationFailedError,
} from '../../src/client/index.js';
import { fail, json, type ScriptedServer, type Script, startScripted } from './scripted-server.js';
import { testTable, thing } from './test-table.js';

const apiKey = 'svc_live_' + 'e'.repeat(32);
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function failureOf(
  script: Script,
  options: { validateResponses?: boolean; maxResponseBytes?: number } = {},
): Promise<unknown> {
  const server = await startScripted(script);
  servers.push(server);
  const client = createApiClient(testTable, { apiKey, baseUrl: server.url, maxRetries: 0, ...options });
  return client.things.get({ id: 'thg_1' }).then(
    (data) => ({ resolved: data }),
    (e: unknown) => e,
  );
}

describe('error mapping', () => {
  it.each([
    [400, 'VALIDATION_FAILED', ValidationFailedError],
    [400, 'IDEMPOTENCY_KEY_REQUIRED', ValidationFailedError],
    [401, 'UNAUTHENTICATED', AuthenticationError],
    [403, 'INSUFFICIENT_SCOPE', PermissionError],
    [403, 'TEST_KEY_NOT_ALLOWED', PermissionError],
    [404, 'NOT_FOUND', NotFoundError],
    [409, 'VERSION_CONFLICT', ConflictError],
    [409, 'IDEMPOTENCY_KEY_REUSED', ConflictError],
    [409, 'ACCOUNT_MISMATCH', ConflictError],
    [422, 'SEND_FAILED', SendFailedError],
    [422, 'VALIDATION_FAILED', ValidationFailedError],
    [422, 'CONTACT_OPTED_OUT', ApiError],
    [429, 'RATE_LIMITED', RateLimitError],
    [500, 'INTERNAL_ERROR', ServerError],
  ] as const)('%i %s -> %o', async (status, code, Class) => {
    const error = await failureOf((_req, res) => fail(res, status, code));
    expect(error).toBeInstanceOf(Class);
    const e = error as ApiError;
    expect(e.constructor).toBe(Class);
    expect(e).toMatchObject({
      status,
      code,
      docUrl: `https://docs.convo-kit.dev/errors#${code}`,
      requestId: `req_${code.toLowerCase()}`,
    });
    expect(e.message).toContain(`${code} happened`);
    expect(e.headers['x-request-id']).toBe(`req_${code.toLowerCase()}`);
    expect(isApiError(e, code)).toBe(true);
    expect(isApiError(e, 'SOMETHING_ELSE')).toBe(false);
  });

  it('carries field details of a validation failure', async () => {
    const details = [{ path: 'content', message: 'too long' }];
    const error = (await failureOf((_req, res) =>
      fail(res, 400, 'VALIDATION_FAILED', { details }),
    )) as ValidationFailedError;
    expect(error.fields).toEqual(details);
    expect(error.details).toEqual(details);
  });

  it('reads the provider error code of SEND_FAILED and the Retry-After of a 429', async () => {
    const sendFailed = (await failureOf((_req, res) =>
      fail(res, 422, 'SEND_FAILED', { details: [{ provider_error_code: '131026' }] }),
    )) as SendFailedError;
    expect(sendFailed.providerErrorCode).toBe('131026');
    const limited = (await failureOf((_req, res) =>
      fail(res, 429, 'RATE_LIMITED', { headers: { 'retry-after': '7' } }),
    )) as RateLimitError;
    expect(limited.retryAfter).toBe(7);
  });

  it('still yields an ApiError with code UNKNOWN for a body without the envelope', async () => {
    const error = await failureOf((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'x-request-id': 'req_proxy' });
      res.end('<html><body>Bad   gateway</body></html>');
    });
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, code: 'UNKNOWN', requestId: 'req_proxy', docUrl: null });
    expect((error as ApiError).message).toContain('<html><body>Bad gateway</body></html>');
    const empty = await failureOf((_req, res) => json(res, 404, undefined));
    expect(empty).toBeInstanceOf(NotFoundError);
    expect(empty).toMatchObject({ code: 'UNKNOWN' });
  });

  it('treats an unexpected redirect as a failure instead of following it with the key', async () => {
    const error = await failureOf((_req, res) => {
      res.writeHead(302, { location: 'http://elsewhere.invalid/' });
      res.end();
    });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 302, code: 'UNKNOWN' });
  });
});

describe('response validation', () => {
  it('throws ResponseValidationError when a 2xx body is off the contract', async () => {
    const error = await failureOf((_req, res) =>
      json(res, 200, { id: 'thg_1', name: 5, version: 1 }, { 'x-request-id': 'req_bad' }),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({
      code: 'INVALID_RESPONSE',
      requestId: 'req_bad',
      issues: [{ path: 'name', message: expect.stringContaining('expected string') }],
    });
  });

  it('throws for a 2xx that is not JSON', async () => {
    const error = await failureOf((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    expect(error).toBeInstanceOf(ResponseValidationError);
  });

  it('keeps unknown fields of loose resources (the service may add fields)', async () => {
    const result = await failureOf((_req, res) => json(res, 200, { ...thing(), added_later: true }));
    expect(result).toEqual({ resolved: { ...thing(), added_later: true } });
  });

  it('returns the body unchecked when validateResponses is off', async () => {
    const result = await failureOf((_req, res) => json(res, 200, { odd: 1 }), { validateResponses: false });
    expect(result).toEqual({ resolved: { odd: 1 } });
  });

  it('refuses an answer larger than maxResponseBytes', async () => {
    const error = await failureOf((_req, res) => json(res, 200, { ...thing(), pad: 'x'.repeat(5_000) }), {
      maxResponseBytes: 1_000,
    });
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  });
});
