import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
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
  options: { validateResponses?: boolean; maxResponseBytes?: number; apiKey?: string } = {},
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

  it('gives Retry-After as whole seconds (an HTTP date counted from now) or null when it is neither', async () => {
    const retryAfter = async (header: string) =>
      (
        (await failureOf((_req, res) =>
          fail(res, 429, 'RATE_LIMITED', { headers: { 'retry-after': header } }),
        )) as RateLimitError
      ).retryAfter;
    const inTwoMinutes = await retryAfter(new Date(Date.now() + 120_500).toUTCString());
    expect(Number.isInteger(inTwoMinutes)).toBe(true);
    expect(inTwoMinutes).toBeGreaterThan(100);
    expect(inTwoMinutes).toBeLessThanOrEqual(121);
    expect(await retryAfter(new Date(Date.now() - 60_000).toUTCString())).toBe(0);
    for (const garbage of ['1.5', 'abc 2020', 'Mon 1', '-3']) expect(await retryAfter(garbage)).toBeNull();
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

  it('with validateResponses off, still refuses a list answer that is not a page, naming the field', async () => {
    const server = await startScripted((_req, res) => json(res, 200, { data: [{ id: 'x' }], next: 'c' }));
    servers.push(server);
    const client = createApiClient(testTable, { apiKey, baseUrl: server.url, validateResponses: false });
    const error = await (async () => {
      for await (const _ of client.things.list({})) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ issues: [{ path: 'pagination' }] });
  });

  it('refuses an answer larger than maxResponseBytes', async () => {
    const error = await failureOf((_req, res) => json(res, 200, { ...thing(), pad: 'x'.repeat(5_000) }), {
      maxResponseBytes: 1_000,
    });
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
  });
});

describe('answers that misbehave', () => {
  it('names status and request id when a 2xx is not JSON, or JSON cut short, and says so', async () => {
    for (const text of ['<html>ok</html>', '{"id":"thg_1","na']) {
      const error = await failureOf((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_cut' });
        res.end(text);
      });
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).toMatchObject({ code: 'INVALID_RESPONSE', status: 200, requestId: 'req_cut' });
      expect((error as Error).message).toContain('HTTP 200, request req_cut');
      expect((error as Error).message).toContain('not JSON');
    }
  });

  it('refuses a 2xx that is not JSON even with validateResponses off (a string is not the typed value)', async () => {
    const error = await failureOf(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      },
      { validateResponses: false },
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toContain('not JSON');
  });

  it('stops reading an endless answer at maxResponseBytes, naming its status and request id', async () => {
    let written = 0;
    const error = await failureOf(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_endless' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (!res.destroyed && written < 64 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
          if (!res.destroyed && written < 64 * 1024 * 1024) res.once('drain', pump);
        };
        res.write('[');
        pump();
      },
      { maxResponseBytes: 1024 * 1024 },
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', status: 200, requestId: 'req_endless' });
    expect((error as Error).message).toContain('HTTP 200, request req_endless');
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('maps an error answer too large to read to its ApiError, with status and request id', async () => {
    const error = await failureOf(
      (_req, res) => {
        res.writeHead(500, { 'content-type': 'text/html', 'x-request-id': 'req_big' });
        res.end('x'.repeat(20_000));
      },
      { maxResponseBytes: 1_000 },
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, code: 'UNKNOWN', requestId: 'req_big' });
    expect((error as Error).message).toContain('larger than 1000 bytes');
  });

  it('names the status and request id of an answer cut off after its headers (JSON cut short by a closed connection)', async () => {
    const server = await startScripted((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': '100', 'x-request-id': 'req_cut' });
      res.write('{"id":"thg_1","na');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    servers.push(server);
    const client = createApiClient(testTable, { apiKey, baseUrl: server.url });
    const error = await client.things.create({ name: 'a' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'CONNECTION_LOST', status: 201, requestId: 'req_cut', attempts: 1 });
    expect((error as Error).message).toContain(
      'the server answered HTTP 201 (request req_cut), then the body was cut off',
    );
  });

  it("bounds the error message a server's envelope gives (the whole answer stays in body)", async () => {
    const long = 'word '.repeat(50_000);
    const error = (await failureOf((_req, res) =>
      json(res, 500, { error: { code: 'INTERNAL_ERROR', message: long, doc_url: '', request_id: 'req_long' } }),
    )) as ServerError;
    expect(error).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', requestId: 'req_long' });
    expect(error.message.length).toBeLessThan(1_200);
    expect(error.message).toContain('(request req_long)');
    expect(error.message).toContain('… (250000 characters; the whole answer is in `body`)');
    expect(error.body).toMatchObject({ error: { message: long } });
  });

  it('lists the first failing fields of an off-contract answer in the message, and counts the rest', async () => {
    const server = await startScripted((_req, res) =>
      json(res, 200, { data: Array.from({ length: 5_000 }, () => ({ id: 1 })), pagination: {} }),
    );
    servers.push(server);
    const client = createApiClient(testTable, { apiKey, baseUrl: server.url, maxRetries: 0 });
    const error = (await client.things.list({}).catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.length).toBeGreaterThan(10_000);
    expect(error.message).toContain('data[0].id: ');
    expect(error.message).toMatch(/; and \d+ more$/);
    expect(error.message.length).toBeLessThan(2_000);
  });

  it('times out a server that sends its headers and then stalls the body', async () => {
    const server = await startScripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_stalled' });
      res.write('{"id":');
    });
    servers.push(server);
    const client = createApiClient(testTable, { apiKey, baseUrl: server.url, maxRetries: 1, timeoutMs: 200 });
    const error = await client.things.get({ id: 'thg_1' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT', attempts: 2, status: 200, requestId: 'req_stalled' });
    expect((error as Error).message).toContain('answered HTTP 200 (request req_stalled) but its body did not complete');
    expect(server.seen).toHaveLength(2);
  });
});

describe('the key never leaves in an error', () => {
  it('an echo of part of the key (cut short, or only its end) leaves at most its type prefix', async () => {
    const secretPart = 'Ab3dEf9hKm2nPq4rSt6uVw8xYz0a1B2c';
    const key = `svc_live_${secretPart}`;
    const echoes = {
      [`Invalid API key ${key.slice(0, -1)}`]: 'Invalid API key svc_live_[redacted]',
      [`Invalid API key ${key.slice(0, 20)}...`]: 'Invalid API key svc_live_[redacted]...',
      [`key ending in ${key.slice(-8)} was revoked`]: 'key ending in [redacted] was revoked',
      [`key ${secretPart} unknown`]: 'key [redacted] unknown',
      [`other key svc_test_${'Q'.repeat(32)}`]: 'other key svc_test_[redacted]',
    };
    for (const [echo, shown] of Object.entries(echoes)) {
      const error = await failureOf(
        (_req, res) => {
          res.writeHead(401, { 'content-type': 'text/plain', 'x-echo': echo });
          res.end(echo);
        },
        { apiKey: key },
      );
      expect(error).toBeInstanceOf(AuthenticationError);
      const e = error as AuthenticationError;
      expect(e.message).toContain(shown);
      expect(e.headers['x-echo']).toBe(shown);
      for (const text of [e.message, JSON.stringify(e), JSON.stringify(e.body), e.stack ?? '']) {
        for (let i = 0; i + 5 <= secretPart.length; i++) expect(text).not.toContain(secretPart.slice(i, i + 5));
      }
    }
    const client = createApiClient(testTable, { apiKey: key });
    for (const shown of [inspect(client, { depth: 5, showHidden: true }), JSON.stringify(client)])
      expect(shown).not.toContain(secretPart.slice(0, 5));
  });

  it('a server that echoes the key: message, String, JSON, body and headers of the error hide it', async () => {
    const error = await failureOf((req, res) => {
      const auth = String(req.headers.authorization);
      res.writeHead(401, { 'content-type': 'application/json', 'x-echo': auth, 'x-request-id': 'req_echo' });
      res.end(
        JSON.stringify({
          error: {
            code: 'UNAUTHENTICATED',
            message: `Invalid API key ${auth.slice(7)}`,
            doc_url: 'https://docs.convo-kit.dev/errors#UNAUTHENTICATED',
            request_id: 'req_echo',
            details: [{ path: 'authorization', got: auth }],
          },
        }),
      );
    });
    expect(error).toBeInstanceOf(AuthenticationError);
    const e = error as AuthenticationError;
    for (const text of [e.message, String(e), e.stack ?? '', JSON.stringify(e), JSON.stringify(e.body)]) {
      expect(text).not.toContain(apiKey);
    }
    expect(e.message).toContain('Invalid API key [redacted]');
    expect(JSON.parse(JSON.stringify(e))).toMatchObject({
      name: 'AuthenticationError',
      status: 401,
      code: 'UNAUTHENTICATED',
    });

    const proxyPage = await failureOf((req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`upstream refused ${String(req.headers.authorization)}`);
    });
    expect(String(proxyPage)).toContain('upstream refused Bearer [redacted]');
    expect(JSON.stringify(proxyPage)).not.toContain(apiKey);

    // A key too short to be one the service issues is not hunted for: the message is not garbled.
    const server = await startScripted((_req, res) => fail(res, 404, 'NOT_FOUND'));
    servers.push(server);
    const short = createApiClient(testTable, { apiKey: 'e', baseUrl: server.url, maxRetries: 0 });
    expect(String(await short.things.get({ id: 'x' }).catch((e: unknown) => e))).toContain('NOT_FOUND happened');
  });
});
