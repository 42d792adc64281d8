import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openapi } from '../../src/api/index.js';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import { EVENT_NAMES } from '../../src/events/index.js';
import { freePort, tempDir } from './helpers.js';
import { CliProcess, killAllCli, runCli } from './run-cli.js';

const dir = tempDir('emulator');
afterEach(killAllCli);
afterAll(() => dir.remove());

describe('convo-kit emulator', () => {
  it('serves the API with the keys it prints, and its signed webhooks reach convo-kit listen', async () => {
    const emulator = new CliProcess(['emulator', '--port', '0', '--json', '--retry-delays', '1,2'], {
      timeoutMs: 120_000,
    });
    const [line] = await emulator.waitFor(/^\{.*"admin_key".*\}$/m, 30_000);
    const started = JSON.parse(line) as { base_url: string; admin_key: string; test_key: string };
    expect(started.admin_key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(started.test_key).toMatch(/^svc_test_[A-Za-z0-9_-]{32}$/);
    const admin = { authorization: `Bearer ${started.admin_key}`, 'content-type': 'application/json' };
    expect((await fetch(`${started.base_url}/channels`, { headers: admin })).status).toBe(200);
    expect(
      (await fetch(`${started.base_url}/channels`, { headers: { authorization: `Bearer ${started.test_key}` } }))
        .status,
    ).toBe(403);

    // A webhook endpoint at a listen process: the secret is shown once, and listen verifies with it.
    const port = await freePort();
    const created = await fetch(`${started.base_url}/webhooks`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        url: `http://127.0.0.1:${port}/webhooks`,
        events: ['conversation.*', 'message.received'],
        description: 'cli test',
      }),
    });
    expect(created.status).toBe(201);
    const { secret } = (await created.json()) as { secret: string };
    const listen = new CliProcess(
      ['listen', '--port', String(port), '--secret', secret, '--db', dir.file('listen.db')],
      { timeoutMs: 120_000 },
    );
    await listen.waitFor(/receiving at/, 30_000);

    const inbound = await fetch(started.base_url.replace(/\/v1$/, '/_emulator/inbound'), {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        channel: 'phone',
        from: { handle: '+14155550177', name: 'Ana' },
        content: 'Is my order on its way?',
      }),
    });
    expect(inbound.status).toBe(201);
    await listen.waitFor(/conversation\.created {2}dlv_\S+ {2}stored 200/, 30_000);
    await listen.waitFor(/message\.received {2}dlv_\S+ {2}stored 200/, 30_000);

    expect((await emulator.stop('SIGINT')).code).toBe(0);
    expect(emulator.stderr).toMatch(/emulator stopped/);
    expect(emulator.stdout).not.toContain(secret);
  }, 150_000);

  it.each([
    [['--plan', 'gold'], /--plan.*Allowed choices are free, creator/],
    [['--retry-delays', '1,soon'], /--retry-delays.*Expected up to 10 comma-separated whole seconds/],
    [
      ['--admin-key', 'svc_live_short'],
      /--admin-key must be svc_live_ followed by 32 url-safe characters \(a value of 14/,
    ],
    [['--test-key', `svc_live_${'a'.repeat(32)}`], /--test-key must be svc_test_ followed by 32 url-safe characters/],
  ])('refuses %j with exit 2', async (args, message) => {
    const result = await runCli(['emulator', '--port', '0', ...args], { timeoutMs: 30_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    // A key is a secret: the error gives its length, never the value.
    if (args[0]!.endsWith('-key')) expect(result.stderr).not.toContain(args[1]);
  });

  it('checks a key given in CONVO_KIT_EMULATOR_ADMIN_KEY the same way, naming the option', async () => {
    const result = await runCli(['emulator', '--port', '0'], {
      env: { CONVO_KIT_EMULATOR_ADMIN_KEY: 'svc_live_typo' },
      timeoutMs: 30_000,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--admin-key must be svc_live_/);
    expect(result.stderr).not.toContain('svc_live_typo');
  });

  it('refuses a --db in a directory that does not exist with exit 3, naming --db', async () => {
    const result = await runCli(['emulator', '--port', '0', '--db', dir.file('missing/emulator.db')], {
      timeoutMs: 30_000,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/No directory .*missing for --db /);
    expect(result.stderr).not.toMatch(/--admin-key/);
  });
});

describe('convo-kit emulator --help', () => {
  it('says the emulator answers every route of the table', async () => {
    const result = await runCli(['emulator', '--help']);
    expect(result.code).toBe(0);
    const help = result.stdout.replace(/\s+/g, ' ');
    expect(help).toContain(`every /v1 route of the contract (${allEndpoints().length})`);
    expect(help).not.toMatch(/NOT_IMPLEMENTED|not implemented/i);
    // …and where what it leaves out is listed (README, "What the emulator covers").
    expect(help).toContain('GET /v1/developer/capabilities lists what it leaves out under automations.not_emulated');
    expect(help).toContain('automations only send');
  });
});

describe('convo-kit openapi', () => {
  it('writes the document derived from the contract table, with every event under webhooks', async () => {
    const file = dir.file('openapi.json');
    const result = await runCli(['openapi', '--out', file, '--server-url', 'http://127.0.0.1:4010']);
    expect(result.code).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8')) as ReturnType<typeof openapi>;
    expect(written).toEqual(JSON.parse(JSON.stringify(openapi({ serverUrl: 'http://127.0.0.1:4010' }))));
    expect(Object.keys(written.webhooks).sort()).toEqual([...EVENT_NAMES].sort());
    expect(result.stderr).toMatch(/wrote .*openapi\.json: \d+ operations, 14 webhook events/);
  });

  it('prints the document a running emulator serves at /openapi.json, without a key', async () => {
    const emulator = new CliProcess(['emulator', '--port', '0', '--json'], { timeoutMs: 120_000 });
    const [line] = await emulator.waitFor(/^\{.*"admin_key".*\}$/m, 30_000);
    const { url } = JSON.parse(line) as { url: string };
    const served = await fetch(`${url}/openapi.json`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(served.headers.get('x-request-id')).toMatch(/\S/);
    // The same bytes `convo-kit openapi` prints for the address it was served from: servers names that port.
    const printed = await runCli(['openapi', '--server-url', url]);
    expect(printed.code).toBe(0);
    expect(await served.text()).toBe(printed.stdout);
    expect((JSON.parse(printed.stdout) as { servers: unknown }).servers).toEqual([{ url }]);
    // The service's routes only: the controls have a document of their own (`--emulator`).
    expect(Object.keys((JSON.parse(printed.stdout) as { paths: object }).paths)).not.toContainEqual(
      expect.stringMatching(/^\/_emulator/),
    );

    const query = await fetch(`${url}/openapi.json?format=yaml`);
    expect(query.status).toBe(400);
    expect(((await query.json()) as { error: { details: unknown } }).error.details).toEqual([
      { path: 'format', in: 'query', message: 'unknown query parameter; this route takes none' },
    ]);
    expect((await fetch(`${url}/openapi.json`, { method: 'POST' })).status).toBe(404);
    // The controls index says where it is, next to the console.
    expect(await (await fetch(`${url}/_emulator`)).json()).toMatchObject({
      console: '/_emulator/console',
      openapi: '/openapi.json',
    });
  });

  it('prints to stdout without --out', async () => {
    const result = await runCli(['openapi']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ openapi: '3.1.0' });
  });
});
