import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import { EMULATOR_CONTROLS } from '../../src/emulator/controls/index.js';
import { MAX_JSON_DEPTH } from '../../src/emulator/platform/json-depth.js';
import type { Emulator } from '../../src/emulator/index.js';
import { cleanup, concretePath, emulator } from './platform-harness.js';

afterEach(cleanup);

/** Every route that reads a JSON body: the contract's writes (multipart uploads aside) and the controls. */
const JSON_ROUTES: [method: string, path: string][] = [
  ...allEndpoints()
    .filter(({ def }) => !def.multipart && def.method !== 'GET' && def.method !== 'DELETE')
    .map(({ def }) => [def.method, concretePath(def.path)] as [string, string]),
  ...EMULATOR_CONTROLS.map((c) => ['POST', concretePath(`/_emulator${c.path}`)] as [string, string]),
];

let e: Emulator;
let origin: string;
beforeEach(async () => {
  // enterprise: 10,000 requests a minute, so every route is reached whatever the count.
  e = await emulator({ plan: 'enterprise' });
  origin = (await e.listen(0)).url;
});

/** One raw request (supertest would serialize a Buffer as JSON): the status and the error code. */
function send(method: string, path: string, body: Buffer, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${e.adminKey}`,
        'content-type': 'application/json',
        'idempotency-key': `k_${Math.random()}`,
        'content-length': String(body.length),
        ...headers,
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve(`${res.statusCode} ${(JSON.parse(text) as { error?: { code: string } }).error?.code}`);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Each route's answer where it is not `expected`. */
async function offenders(body: Buffer, expected: string, headers: Record<string, string> = {}) {
  const wrong: string[] = [];
  for (const [method, path] of JSON_ROUTES) {
    const answer = await send(method, path, body, headers);
    if (answer !== expected) wrong.push(`${method} ${path}: ${answer}`);
  }
  return wrong;
}

describe('bodies that cannot be read are the client’s error, on every JSON route and control', () => {
  it(`has routes to check (${JSON_ROUTES.length})`, () => {
    expect(JSON_ROUTES.length).toBeGreaterThan(40);
  });

  for (const encoding of ['gzip', 'deflate', 'br']) {
    it(`a Content-Encoding ${encoding} body that does not decompress is 400 VALIDATION_FAILED`, async () => {
      const broken = Buffer.from('{"this is": "not compressed"}');
      expect(await offenders(broken, '400 VALIDATION_FAILED', { 'content-encoding': encoding })).toEqual([]);
    });
  }

  it('a gzip body cut off before its end is 400 VALIDATION_FAILED', async () => {
    // Random text does not compress: the cut falls inside the data, not in the trailer after it.
    const whole = gzipSync(JSON.stringify({ content: randomBytes(600).toString('base64') }));
    const cut = whole.subarray(0, whole.length / 2);
    expect(await offenders(cut, '400 VALIDATION_FAILED', { 'content-encoding': 'gzip' })).toEqual([]);
  });

  it('an encoding the emulator does not take is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    expect(await offenders(Buffer.from('{}'), '415 UNSUPPORTED_MEDIA_TYPE', { 'content-encoding': 'zstd' })).toEqual(
      [],
    );
  });

  it('arrays nested 5,000 deep are 400 VALIDATION_FAILED (the idempotency hash walked them into a 500)', async () => {
    const deep = Buffer.from(`{"content": ${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(await offenders(deep, '400 VALIDATION_FAILED')).toEqual([]);
    const answer = await new Promise<string>((resolve) => {
      const req = request(`${origin}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${e.adminKey}`, 'content-type': 'application/json', 'idempotency-key': 'k' },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      });
      req.end(deep);
    });
    expect(answer).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it(`a gzip body that decompresses is read as JSON, and nesting up to ${MAX_JSON_DEPTH} levels is validated as usual`, async () => {
    const body = gzipSync(JSON.stringify({ advance_seconds: 1 }));
    expect(await send('POST', '/_emulator/clock', body, { 'content-encoding': 'gzip' })).toBe('200 undefined');
    const nested = (depth: number) => `${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}`;
    // The object itself is one level: 63 arrays inside it make 64.
    const atBound = Buffer.from(`{"advance_seconds": ${nested(MAX_JSON_DEPTH)}}`);
    expect(await send('POST', '/_emulator/clock', atBound)).toBe('400 VALIDATION_FAILED');
  });
});
