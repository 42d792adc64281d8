import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import { DOCS_BASE_URL, ErrorEnvelope } from '../../src/api/error-codes.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { as, cleanup, emulator } from './platform-harness.js';

afterEach(cleanup);

function expectEnvelope(res: request.Response, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(ErrorEnvelope.parse(res.body).error).toMatchObject({
    code,
    doc_url: `${DOCS_BASE_URL}#${code}`,
    request_id: res.headers['x-request-id'],
  });
}

describe('request ids', () => {
  it('echoes a valid caller id on success and on failure', async () => {
    const e = await emulator();
    const ok = await as(e).get('/v1/tickets').set('X-Request-ID', 'trace.42:abc-DEF_9');
    expect(ok.status).toBe(200);
    expect(ok.headers['x-request-id']).toBe('trace.42:abc-DEF_9');
    const failed = await request(e.app).get('/v1/tickets').set('X-Request-ID', 'mine-1');
    expect(failed.headers['x-request-id']).toBe('mine-1');
    expect(failed.body.error.request_id).toBe('mine-1');
  });

  it.each([
    ['too long', 'a'.repeat(201)],
    ['with spaces', 'has space'],
    ['with a slash', 'a/b'],
  ])('generates req_… when the caller id is %s', async (_name, given) => {
    const e = await emulator();
    const res = await as(e).get('/v1/tickets').set('X-Request-ID', given);
    expect(res.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
  });

  it('generates one on unknown routes and on /_emulator routes too', async () => {
    const e = await emulator();
    expect((await request(e.app).get('/nope')).headers['x-request-id']).toMatch(/^req_/);
    expect((await as(e).post('/_emulator/reset')).headers['x-request-id']).toMatch(/^req_/);
  });
});

describe('routing', () => {
  it('answers a 404 envelope for unknown routes and unknown methods on known paths', async () => {
    const e = await emulator();
    expectEnvelope(await as(e).get('/v1/nothing-here'), 404, 'NOT_FOUND');
    expectEnvelope(await as(e).put('/v1/tickets'), 404, 'NOT_FOUND');
    expectEnvelope(await request(e.app).get('/nope'), 404, 'NOT_FOUND');
  });

  it('routes every method of every route of the table, at /v1 and /api/v1, in any case, with or without a trailing slash', async () => {
    const e = await emulator();
    const routed = (res: request.Response) => !(res.status === 404 && /^No route /.test(res.body.error?.message));
    for (const { id, def } of allEndpoints()) {
      const path = def.path.replace(/:(\w+)/g, 'x_$1');
      const forms = [
        path,
        path.replace(/^\/v1\//, '/api/v1/'),
        path.toUpperCase().replace(/X_\w+/g, (p) => p.toLowerCase()),
        `${path}/`,
      ];
      for (const method of [def.method, ...(def.aliases ?? [])]) {
        for (const form of forms) {
          const res = await request(e.app)[method.toLowerCase() as 'get'](form);
          expect(routed(res), `${id}: ${method} ${form} -> ${res.status}`).toBe(true);
        }
      }
      if (def.method === 'GET') expect(routed(await request(e.app).head(path)), `${id}: HEAD ${path}`).toBe(true);
    }
    for (const form of ['/v1/tickets//', '/v1//tickets', '/v1/tickets/x/y/z', '/v1/contacts/']) {
      const res = await request(e.app).post(form);
      expect(routed(res), `POST ${form}`).toBe(false);
    }
  });

  it('answers its root with what is here: the API, its description, the console and the controls', async () => {
    const e = await emulator();
    const root = await request(e.app).get('/');
    expect(root.status).toBe(200);
    expect(root.body).toMatchObject({ api: '/v1', console: '/_emulator/console', controls: '/_emulator' });
    for (const path of [root.body.openapi as string, root.body.console as string])
      expect((await request(e.app).get(path)).status).toBe(200);
  });

  it('answers a 404 envelope for unknown ids', async () => {
    const e = await emulator();
    expectEnvelope(await as(e).get('/v1/tickets/tkt_missing'), 404, 'NOT_FOUND');
  });

  it('answers 400 for a path that is not valid percent-encoding', async () => {
    const e = await emulator();
    expectEnvelope(await as(e).get('/v1/tickets/%E0%A4%A'), 400, 'VALIDATION_FAILED');
  });

  it('serves /api/v1 as /v1', async () => {
    const e = await emulator();
    const [v1, api] = await Promise.all([as(e).get('/v1/contacts?limit=3'), as(e).get('/api/v1/contacts?limit=3')]);
    expect(api.status).toBe(200);
    expect(api.body).toEqual(v1.body);
    expectEnvelope(await request(e.app).get('/api/v1/contacts'), 401, 'UNAUTHENTICATED');
  });

  it('never answers a failure with 200, and sets no default weak ETag', async () => {
    const e = await emulator();
    const res = await as(e).get('/v1/contacts');
    expect(res.headers.etag).toBeUndefined();
  });
});

describe('bodies', () => {
  it('refuses a JSON body over 1 MiB with 413', async () => {
    const e = await emulator();
    const big = JSON.stringify({ label: 'x'.repeat(1024 * 1024), scopes: ['keys:read'], kind: 'live' });
    expectEnvelope(
      await as(e).post('/v1/keys').set('Content-Type', 'application/json').send(big),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('refuses a body that is not application/json with 415', async () => {
    const e = await emulator();
    const res = await as(e).post('/v1/keys').set('Content-Type', 'text/plain').send('label=x');
    expectEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(res.body.error.message).toContain('text/plain');
  });

  it('refuses malformed JSON with 400 VALIDATION_FAILED', async () => {
    const e = await emulator();
    expectEnvelope(
      await as(e).post('/v1/keys').set('Content-Type', 'application/json').send('{"label":'),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('names each invalid field in details [{path, message}]', async () => {
    const e = await emulator();
    const res = await as(e)
      .post('/v1/keys')
      .send({ label: '', scopes: ['nope:read'], kind: 'live' });
    expectEnvelope(res, 400, 'VALIDATION_FAILED');
    const paths = (res.body.error.details as { path: string; in: string; message: string }[]).map(
      (d) => `${d.in}:${d.path}`,
    );
    expect(paths).toEqual(expect.arrayContaining(['body:label', 'body:scopes.0']));
  });

  it('validates query and path parameters too', async () => {
    const e = await emulator();
    const over = await as(e).get('/v1/tickets?limit=101');
    expectEnvelope(over, 400, 'VALIDATION_FAILED');
    expect(over.body.error.details[0]).toMatchObject({ path: 'limit', in: 'query' });
    expectEnvelope(await as(e).get('/v1/tickets?cursor=not-a-cursor'), 400, 'VALIDATION_FAILED');
    expectEnvelope(await as(e).get(`/v1/tickets/${'x'.repeat(101)}`), 400, 'VALIDATION_FAILED');
  });

  // Number() and z.coerce read all of these as some number; the service takes plain decimal digits only.
  const LISTS = [
    '/v1/tickets',
    '/v1/contacts',
    '/v1/conversations',
    `/v1/conversations/${SEED_IDS.delivered.conversation}/messages`,
  ];
  const BAD_LIMITS = [
    '1e1',
    '0x10',
    '%205',
    '5%20',
    '%2B5',
    '5.0',
    '05',
    '-1',
    '',
    '0',
    '101',
    '9'.repeat(30),
    '2&limit=3',
  ];

  it.each(LISTS)('%s answers 400 naming limit for anything but plain digits in range', async (list) => {
    const e = await emulator();
    for (const bad of BAD_LIMITS) {
      const res = await as(e).get(`${list}?limit=${bad}`);
      expect([bad, res.status, res.body.error?.code]).toEqual([bad, 400, 'VALIDATION_FAILED']);
      expect(res.body.error.message).toContain('limit');
      expect(res.body.error.details).toEqual([
        { path: 'limit', in: 'query', message: expect.stringContaining('expected an integer from 1 to 100') },
      ]);
    }
    const good = await as(e).get(`${list}?limit=2`);
    expect(good.status).toBe(200);
    expect(good.body.data.length).toBeGreaterThan(0);
    expect(good.body.data.length).toBeLessThanOrEqual(2);
    expect((await as(e).get(`${list}?limit=100`)).status).toBe(200);
  });

  it('answers 422 INVALID_PLATFORM for a channel outside the three', async () => {
    const e = await emulator();
    expectEnvelope(await as(e).get('/v1/messages?channel=fax'), 422, 'INVALID_PLATFORM');
  });
});
