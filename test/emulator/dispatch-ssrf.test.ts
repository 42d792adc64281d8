import { afterEach, describe, expect, it } from 'vitest';
import {
  LoopbackTolerantWebhookCreate,
  WebhookCreate,
  WebhookEndpointCreated,
} from '../../src/api/schemas/webhook-endpoint.js';
import { checkAddress, checkHost } from '../../src/internal/address-policy.js';
import { as, cleanup, emulator, receiver, stubResolver } from './platform-harness.js';

afterEach(cleanup);

type E = Awaited<ReturnType<typeof emulator>>;

async function register(e: E, url: string) {
  const res = await as(e)
    .post('/v1/webhooks')
    .send({ url, events: ['message.received'] });
  expect(res.status).toBe(201);
  return WebhookEndpointCreated.parse(res.body);
}

async function inbound(e: E, handle: string) {
  const res = await as(e)
    .post('/_emulator/inbound')
    .send({ channel: 'phone', from: { handle, name: 'Casey' }, content: 'Hi' });
  expect(res.status).toBe(201);
}

async function lastAttempt(e: E, endpointId: string) {
  const res = await as(e).get(`/v1/webhooks/${endpointId}/deliveries?limit=50`);
  return res.body.data[0] as { status_code: number | null; error: string | null };
}

const REFUSED_URLS = [
  'https://[::ffff:169.254.169.254]/x',
  'https://[::ffff:10.0.0.1]/x',
  'https://[::ffff:127.0.0.1]/x',
  'https://[::a9fe:a9fe]/x',
  'https://[64:ff9b::a9fe:a9fe]/x',
  'https://100.64.0.1/x',
  'https://169.254.169.254.nip.io/x',
  'https://127.0.0.1.nip.io/x',
  'https://10-0-0-1.sslip.io/x',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://169.254.169.254/latest/meta-data/',
  'https://[fd00::1]/x',
  'https://[fe80::1]/x',
  'https://0.0.0.0/x',
  'https://192.168.1.1/x',
  'https://localhost/x',
  'https://intranet/x',
  'https://198.18.0.1/x',
  'https://[3fff::1]/x',
  'https://[5f00::1]/x',
  'https://[fec0::1]/x',
];

describe('webhook URLs are checked by address range, not by a pattern on the host', () => {
  it.each(REFUSED_URLS)('the contract (client side) refuses %s', (url) => {
    const parsed = WebhookCreate.safeParse({ url, events: ['*'] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toMatch(/public https:\/\/ URL/);
  });

  // The emulator also takes loopback receivers (https://localhost included), nothing else on that list.
  it.each(REFUSED_URLS.filter((url) => !url.includes('//localhost')))(
    'the emulator refuses %s with 400',
    async (url) => {
      const e = await emulator();
      const res = await as(e)
        .post('/v1/webhooks')
        .send({ url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      // The message says why: the range or name refused, not only that the URL did not match.
      expect(res.body.error.message).toMatch(/public https:\/\/ URL, or http\(s\) to localhost.*: \S+ (is|names) /);
    },
  );

  it('says a URL over 2048 characters is too long, not that it is no URL', () => {
    const long = `https://hooks.example.com/${'a'.repeat(2048)}`;
    for (const schema of [WebhookCreate, LoopbackTolerantWebhookCreate])
      expect(schema.safeParse({ url: long, events: ['*'] }).error?.issues.map((i) => i.message)).toEqual([
        'expected a URL of at most 2048 characters',
      ]);
  });

  it('says an http:// URL is for a loopback host only', async () => {
    const e = await emulator();
    const res = await as(e)
      .post('/v1/webhooks')
      .send({ url: 'http://hooks.example.com/x', events: ['*'] });
    expect([res.status, res.body.error.message]).toEqual([
      400,
      expect.stringMatching(/http:\/\/ is for a loopback host only/),
    ]);
  });

  it('reads the scheme case-insensitively: HTTPS:// to a public host is https, as the service reads it', async () => {
    const url = 'HTTPS://hooks.example.com/x';
    expect(WebhookCreate.safeParse({ url, events: ['*'] }).success).toBe(true);
    expect(LoopbackTolerantWebhookCreate.safeParse({ url, events: ['*'] }).success).toBe(true);
    const e = await emulator();
    expect(
      (
        await as(e)
          .post('/v1/webhooks')
          .send({ url, events: ['*'] })
      ).status,
    ).toBe(201);
    const http = await as(e)
      .post('/v1/webhooks')
      .send({ url: 'HTTP://hooks.example.com/x', events: ['*'] });
    expect([http.status, http.body.error.message]).toEqual([
      400,
      expect.stringMatching(/http:\/\/ is for a loopback host only/),
    ]);
  });

  it('refuses credentials in the URL (every GET would show them; the whsec_ secret signs instead)', async () => {
    for (const schema of [WebhookCreate, LoopbackTolerantWebhookCreate])
      for (const url of ['https://user:pw@hooks.example.com/x', 'https://user@hooks.example.com/x'])
        expect(schema.safeParse({ url, events: ['*'] }).error?.issues[0]?.message).toMatch(/without credentials/);
    const e = await emulator();
    const res = await as(e)
      .post('/v1/webhooks')
      .send({ url: 'http://user:pw@127.0.0.1:9/x', events: ['*'] });
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
      400,
      'VALIDATION_FAILED',
      expect.stringMatching(/url.*without credentials/),
    ]);
    expect(JSON.stringify((await as(e).get('/v1/webhooks')).body)).not.toContain('user:pw');
  });

  it('still accepts public https hosts and addresses', () => {
    for (const url of ['https://hooks.example.com/x', 'https://8.8.8.8/x', 'https://[2606:4700::1111]/x'])
      expect(WebhookCreate.safeParse({ url, events: ['*'] }).success).toBe(true);
  });

  it('names every refused range', () => {
    expect(checkAddress('::ffff:169.254.169.254', 'public')).toEqual({
      ok: false,
      reason: '::ffff:169.254.169.254 is not a public address (ipv4Mapped)',
    });
    expect(checkAddress('100.64.0.1', 'public')).toMatchObject({ reason: expect.stringMatching(/carrierGradeNat/) });
    expect(checkAddress('::a9fe:a9fe', 'public')).toMatchObject({ reason: expect.stringMatching(/IPv4-compatible/) });
    expect(checkAddress('127.0.0.1', 'loopback')).toEqual({ ok: true });
    expect(checkAddress('8.8.8.8', 'loopback')).toMatchObject({ ok: false });
    expect(checkHost('169.254.169.254.nip.io', 'public')).toMatchObject({ ok: false });
  });
});

describe('the emulator checks the address it connects to (through the socket lookup)', () => {
  it('delivers only to loopback by default: a public host is refused before any connection', async () => {
    const { resolve, asked } = stubResolver({ 'hooks.example.com': ['93.184.216.34'] });
    const e = await emulator({ resolveHost: resolve });
    const endpoint = await register(e, 'https://hooks.example.com/x');
    await inbound(e, '+14155550101');
    await e.dispatcher.idle();
    expect(asked).toContain('hooks.example.com');
    expect(await lastAttempt(e, endpoint.id)).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/EADDRNOTALLOWED.*public address; only loopback/),
    });
  });

  it('refuses a name that now resolves to a private or metadata address (DNS rebinding), even with public hosts allowed', async () => {
    const hooks = await receiver();
    const port = new URL(hooks.url).port;
    // localhost answers loopback first, then a private address: the second connection is refused.
    const { resolve } = stubResolver({
      localhost: ['127.0.0.1', '10.0.0.1'],
      'rebind.example.com': ['169.254.169.254'],
    });
    const e = await emulator({ resolveHost: resolve, allowPublicWebhookHosts: true, retryDelaysSeconds: [] });
    const local = await register(e, `http://localhost:${port}/hooks`);
    const rebinding = await register(e, 'https://rebind.example.com/x');
    await inbound(e, '+14155550102');
    await e.dispatcher.idle();
    expect(hooks.received).toHaveLength(1);
    expect(await lastAttempt(e, local.id)).toMatchObject({ status_code: 200 });
    expect(await lastAttempt(e, rebinding.id)).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/EADDRNOTALLOWED: rebind\.example\.com resolved to 169\.254\.169\.254.*linkLocal/),
    });
    await inbound(e, '+14155550103');
    await e.dispatcher.idle();
    expect(hooks.received).toHaveLength(1);
    expect(await lastAttempt(e, local.id)).toMatchObject({
      status_code: null,
      error: expect.stringMatching(/localhost resolved to 10\.0\.0\.1 is not a public address \(private\)/),
    });
  });
});
