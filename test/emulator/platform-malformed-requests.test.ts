import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DOCS_BASE_URL, ErrorEnvelope } from '../../src/api/error-codes.js';
import { answerClientErrors } from '../../src/emulator/platform/client-errors.js';
import { cleanup, emulator } from './platform-harness.js';

afterEach(cleanup);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A listening emulator, and requests to it over real HTTP with the path sent exactly as written. */
async function listening() {
  const e = await emulator();
  const { url, close } = await e.listen();
  const { port } = new URL(url);
  const send = (method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: { authorization: `Bearer ${e.adminKey}`, ...options.headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
          );
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  /** Bytes that are not a request node:http would send: written on a socket, the answer read to its end. */
  const raw = (bytes: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(bytes));
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
  return { e, send, raw, close };
}

function envelope(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const { error } = ErrorEnvelope.parse(JSON.parse(answer.text));
  expect(error).toMatchObject({
    code,
    doc_url: `${DOCS_BASE_URL}#${code}`,
    request_id: answer.headers['x-request-id'],
  });
  return error;
}

/** Splits a raw HTTP/1.1 answer into status, headers and body. */
function parseRaw(text: string): Answer {
  const [head, body = ''] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head!.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, text: body };
}

describe('broken percent-encoding', () => {
  it.each(['/v1/contacts/%E0%A4%A', '/api/v1/contacts/%E0%A4%A', '/v1/contacts/%ZZ', '/v1/contacts/%C0%AF'])(
    'answers 400 naming the route parameter: GET %s',
    async (path) => {
      const { send } = await listening();
      const error = envelope(await send('GET', path), 400, 'VALIDATION_FAILED');
      expect(error.details).toEqual([
        { in: 'params', path: 'id', message: expect.stringContaining(path.split('/').at(-1)!) },
      ]);
    },
  );

  it('names a parameter of an emulator control too', async () => {
    const { send } = await listening();
    const answer = await send('POST', '/_emulator/templates/%E0%A4%A/review', {
      headers: { 'content-type': 'application/json' },
      body: '{"status":"approved"}',
    });
    expect(envelope(answer, 400, 'VALIDATION_FAILED').details).toEqual([
      expect.objectContaining({ in: 'params', path: 'id' }),
    ]);
  });

  it('answers 400 naming each query parameter whose name or value is broken', async () => {
    const { send } = await listening();
    const error = envelope(await send('GET', '/v1/contacts?limit=5&cursor=%E0%A4%A&%FF=1'), 400, 'VALIDATION_FAILED');
    expect(error.details).toEqual([
      { in: 'query', path: 'cursor', message: expect.stringContaining('%E0%A4%A') },
      { in: 'query', path: '%FF', message: expect.stringContaining('the name') },
    ]);
  });

  it('still reads well-formed percent-encoding, and a path no route has stays 404', async () => {
    const { send } = await listening();
    expect((await send('GET', '/v1/contacts?limit=%32')).status).toBe(200);
    const missing = await send('GET', '/v1/contacts/ct_%C3%A9t%C3%A9');
    envelope(missing, 404, 'NOT_FOUND');
    envelope(await send('GET', '/v1/nothing/%E0%A4%A'), 404, 'NOT_FOUND');
  });
});

describe('what the HTTP parser refuses', () => {
  it('answers a 100 KB query string with 431 in the envelope, with an X-Request-ID', async () => {
    const { send } = await listening();
    const answer = await send('GET', `/v1/contacts?q=${'a'.repeat(100 * 1024)}`);
    const error = envelope(answer, 431, 'REQUEST_HEADERS_TOO_LARGE');
    expect(answer.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
    expect(error.message).toContain('16384 bytes');
    expect(error.details).toEqual([expect.objectContaining({ in: 'headers' })]);
  });

  it('answers headers over 16 KiB the same way, and keeps serving', async () => {
    const { send } = await listening();
    envelope(
      await send('GET', '/v1/contacts', { headers: { 'x-big': 'b'.repeat(20 * 1024) } }),
      431,
      'REQUEST_HEADERS_TOO_LARGE',
    );
    expect((await send('GET', '/v1/contacts?limit=1')).status).toBe(200);
  });

  it('answers a request that is not HTTP/1.1 with 400 in the envelope', async () => {
    const { raw } = await listening();
    const answer = parseRaw(await raw('BREW /v1/contacts HTTP/1.1\r\nHost: x\r\n\r\n'));
    const error = envelope(answer, 400, 'VALIDATION_FAILED');
    expect(error.message).toContain('HPE_INVALID_METHOD');
  });
});

describe('the charset of a JSON body', () => {
  const create = { label: 'ci', scopes: ['keys:read'], kind: 'live' };

  it.each([
    'application/json; charset=utf-16',
    'application/json; charset=UTF-16LE',
    'application/json; charset=latin1',
    'application/json; charset=utf8',
  ])('answers 415 to %s', async (contentType) => {
    const { send } = await listening();
    const body = contentType.includes('16')
      ? Buffer.from(JSON.stringify(create), 'utf16le').toString('latin1')
      : JSON.stringify(create);
    const error = envelope(
      await send('POST', '/v1/keys', { headers: { 'content-type': contentType }, body }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(error.message).toContain(contentType);
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"'])(
    'reads %s',
    async (contentType) => {
      const { send } = await listening();
      const answer = await send('POST', '/v1/keys', {
        headers: { 'content-type': contentType },
        body: JSON.stringify(create),
      });
      expect(answer.status).toBe(201);
    },
  );
});

describe("Node's request timeout", () => {
  it('answers 408 with an X-Request-ID and closes, where Node alone writes a bare status', async () => {
    // Short limits, checked often, so Node times the request out: only the request line and one header arrive.
    const server = createServer(
      { requestTimeout: 300, headersTimeout: 300, connectionsCheckingInterval: 50 },
      (_req, res) => res.end('never reached'),
    );
    answerClientErrors(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n'));
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
      });
      expect(answer).toMatch(
        /^HTTP\/1\.1 408 Request Timeout\r\nX-Request-ID: req_[\w-]+\r\nConnection: close\r\n\r\n$/,
      );
    } finally {
      server.close();
    }
  });
});
