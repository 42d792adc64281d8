import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator/index.js';
import { freePort, waitUntil } from './helpers.js';
import { CliProcess, killAllCli, runCli } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const src = (path: string) => JSON.stringify(join(ROOT, 'src', path));

/**
 * A user's app as `convo-kit dev` starts it: it reads its settings from the environment, receives at
 * /webhooks, and uses its key against the service. It prints what it saw, which the test reads.
 */
const APP = (version: string) => `
import { createServer } from 'node:http';
import { createReceiver } from ${src('receiver/index.ts')};
import { createClient } from ${src('client/index.ts')};
const env = process.env;
const client = createClient({ baseUrl: env.CONVO_KIT_BASE_URL, apiKey: env.CONVO_KIT_API_KEY });
const receiver = createReceiver({ secret: env.CONVO_KIT_WEBHOOK_SECRET, dbPath: ':memory:' });
receiver.on('message.received', async ({ data }) => {
  const contacts = await client.contacts.list({});
  console.log('APP received: ' + data.content + ' | contacts via the API: ' + contacts.data.length);
});
await receiver.start();
createServer(receiver.listener).listen(Number(env.PORT), '127.0.0.1', () => {
  console.log('APP ${version} listening on ' + env.PORT);
  console.log('APP told: webhook registered by dev at ' + (env.CONVO_KIT_DEV_WEBHOOK_URL || 'none'));
});
`;

/** A custom reply endpoint as `convo-kit dev` starts it: REPLY_SECRET from the environment, no webhooks. */
const REPLY_APP = `
import { createServer } from 'node:http';
import { createReplyEndpoint } from ${src('reply/index.ts')};
const endpoint = createReplyEndpoint({
  secret: process.env.REPLY_SECRET,
  reply: ({ conversation_history }) => {
    console.log('APP asked: ' + conversation_history.at(-1).content);
    return 'It left our warehouse this morning.';
  },
});
createServer(endpoint.listener).listen(Number(process.env.PORT), '127.0.0.1', () => {
  console.log('APP listening');
  console.log('APP told: reply provider set by dev on ' + (process.env.CONVO_KIT_DEV_REPLY_INTEGRATION || 'none'));
});
`;

/** An app that closes its receiver on a signal, taking a moment as a real one does, and says when it is done. */
const GRACEFUL_APP = `
import { createServer } from 'node:http';
import { createReceiver } from ${src('receiver/index.ts')};
const receiver = createReceiver({ secret: process.env.CONVO_KIT_WEBHOOK_SECRET, dbPath: ':memory:' });
await receiver.start();
const server = createServer(receiver.listener).listen(Number(process.env.PORT), '127.0.0.1');
const stop = (signal) => {
  console.log('APP closing on ' + signal);
  server.close();
  void receiver.close().then(() => new Promise((r) => setTimeout(r, 300))).then(() => {
    console.log('APP closed');
    process.exit(0);
  });
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
`;

/** An app that takes ticket events (the ticket-routing starter's kind): it prints each ticket it hears of. */
const TICKET_APP = `
import { createServer } from 'node:http';
import { createReceiver } from ${src('receiver/index.ts')};
const receiver = createReceiver({ secret: process.env.CONVO_KIT_WEBHOOK_SECRET, dbPath: ':memory:' });
receiver.on('ticket.created', async ({ data }) => console.log('APP ticket: ' + data.conversation_id));
await receiver.start();
createServer(receiver.listener).listen(Number(process.env.PORT), '127.0.0.1');
`;

let project: string;
beforeEach(() => {
  // Inside the checkout, so the project's tsx resolves from this repository's node_modules.
  project = join(ROOT, '.tmp', `dev-test-${process.pid}-${Date.now()}`);
  mkdirSync(join(project, 'src'), { recursive: true });
});
afterEach(async () => {
  await killAllCli();
  rmSync(project, { recursive: true, force: true });
});

function writeProject(manifest: Record<string, unknown> = {}, env = '', app = APP('v1')): void {
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'dev-fixture', type: 'module', 'convo-kit': manifest }),
  );
  writeFileSync(join(project, 'src', 'main.ts'), app);
  if (env) writeFileSync(join(project, '.env'), env);
}

/** `convo-kit dev <args>` for the project written last, the app on a free port. */
async function startDev(args: string[], options: { group?: boolean } = {}) {
  const port = await freePort();
  const dev = new CliProcess(['dev', ...args], {
    cwd: project,
    env: { PORT: String(port) },
    timeoutMs: 90_000,
    ...options,
  });
  return { dev, port };
}

describe('convo-kit dev', () => {
  it('starts the emulator, registers the webhook, hands the app its key and secret, and writes in once', async () => {
    writeProject({ events: ['message.*'] });
    const { dev, port } = await startDev(['--emulator-port', '0']);
    // The sample customer's message reached the app through a signed delivery, and the app's key works.
    await dev.waitFor(/APP received: Hi! Is my order on its way\? \| contacts via the API: \d+/, 60_000);
    await dev.waitFor(/convo-kit dev: dev-fixture/);
    const output = dev.stdout + dev.stderr;
    expect(output).toContain(`webhook:   http://127.0.0.1:${port}/webhooks  (message.*;`);
    // The app is told what dev set up, so a starter's own banner need not ask the user to register it.
    await dev.waitFor(new RegExp(`APP told: webhook registered by dev at http://127\\.0\\.0\\.1:${port}/webhooks\\n`));
    expect(output).toMatch(/emulator: {2}http:\/\/127\.0\.0\.1:\d+/);
    // A message app is not offered a handoff: a ticket would reach nothing of it.
    expect(output).not.toContain('/_emulator/handoff');
    // The secret and the app's key are handed over, never printed; the generated admin key is (it plays the customer).
    expect(output).not.toMatch(/whsec_/);
    expect(
      output
        .match(/svc_live_[\w-]{32}/g)
        ?.every((key) => output.includes(`admin key: ${key}`) || output.includes(`Bearer ${key}`)),
    ).toBe(true);

    // Watch mode: saving a file restarts the app with the same settings.
    writeFileSync(join(project, 'src', 'main.ts'), APP('v2'));
    await dev.waitFor(new RegExp(`APP v2 listening on ${port}`), 30_000);

    const result = await dev.stop('SIGINT');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('dev stopped');
    // The app stopped with it: nothing listens on its port any more.
    await waitUntil(async () => ((await listening(port)) ? undefined : true), 'the app has stopped', 10_000);
  }, 120_000);

  it('lets the app close gracefully on a terminal Ctrl-C, which reaches every process of the group', async () => {
    writeProject({ events: ['message.*'] }, '', GRACEFUL_APP);
    const { dev, port } = await startDev(['--emulator-port', '0', '--no-sample'], { group: true });
    await dev.waitFor(/convo-kit dev: dev-fixture/, 60_000);
    const result = await dev.stop('SIGINT');
    const output = result.stdout + result.stderr;
    expect(result.code).toBe(0);
    // Signalled once, the app finished its close; tsx watch, signalled twice, would have SIGKILLed it.
    expect(output).toMatch(/APP closing on SIG(INT|TERM)\n[^]*APP closed/);
    expect(output).not.toMatch(/Force killing/);
    expect(output).toContain('dev stopped');
    await waitUntil(async () => ((await listening(port)) ? undefined : true), 'the app has stopped', 10_000);
  }, 120_000);

  it("a failed test's cleanup (SIGKILL, which dev cannot pass on) still ends the app dev started", async () => {
    writeProject({ events: ['message.*'] }, '', GRACEFUL_APP);
    const { port } = await startDev(['--emulator-port', '0', '--no-sample']);
    await waitUntil(async () => ((await listening(port)) ? true : undefined), 'the app listens', 60_000);
    await killAllCli();
    // The app ran in a process group of its own; killing dev alone left it listening after the test.
    await waitUntil(async () => ((await listening(port)) ? undefined : true), 'the app has stopped', 10_000);
  }, 120_000);

  it('points the sample account at a reply endpoint (replyPath), registers no webhook for no events', async () => {
    writeProject({ events: [], replyPath: '/reply' }, '', REPLY_APP);
    const { dev, port } = await startDev(['--emulator-port', '0']);
    // The sample customer's message reached the endpoint through the emulator's signed AI reply call.
    await dev.waitFor(/APP asked: Hi! Is my order on its way\?/, 60_000);
    await dev.waitFor(/convo-kit dev: dev-fixture/);
    const output = dev.stdout + dev.stderr;
    expect(output).toContain('webhook:   none');
    const integration = /custom_reply provider of (int_\w+)/.exec(output)?.[1];
    await dev.waitFor(new RegExp(`APP told: reply provider set by dev on ${integration}\\n`));
    expect(output).toMatch(
      new RegExp(`reply: {5}http://127\\.0\\.0\\.1:${port}/reply {2}\\(custom_reply provider of int_`),
    );
    expect(output).not.toMatch(/rsec_|whsec_/);
    // The suggestion is the app's main path: a question as the sample customer, which reaches the endpoint,
    // and where its answer is read. Run as printed, it does.
    await dev.waitFor(/Try next/);
    const [, url, key, body] =
      /curl -s (\S+\/_emulator\/inbound) -H "Authorization: Bearer (\S+)" .*\\\n {4}-d '(.+)'/.exec(dev.stderr)!;
    expect(JSON.parse(body!)).toMatchObject({ from: { name: 'Dana Example' }, content: 'Are you open on Saturday?' });
    expect(dev.stderr).toMatch(
      /then read the answer[^\n]*\n {2}curl -s "\S+\/v1\/conversations\/conv_[\w-]+\/messages"/,
    );
    const asked = await fetch(url!, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    expect(asked.ok).toBe(true);
    await dev.waitFor(/APP asked: Are you open on Saturday\?/, 60_000);
    const result = await dev.stop('SIGINT');
    expect(result.code).toBe(0);
  }, 120_000);

  it("offers an app that takes ticket events the handoff of the sample's conversation, which reaches it", async () => {
    writeProject({ events: ['ticket.*'] }, '', TICKET_APP);
    const { dev } = await startDev(['--emulator-port', '0', '--no-watch']);
    await dev.waitFor(/Try next/, 60_000);
    const [, url, key, body] =
      /curl -s (\S+\/_emulator\/handoff) -H "Authorization: Bearer (\S+)" .*\\\n {4}-d '(.+)'/.exec(dev.stderr)!;
    const { conversation_id } = JSON.parse(body!) as { conversation_id: string };
    const answer = await fetch(url!, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(201);
    await dev.waitFor(new RegExp(`APP ticket: ${conversation_id}`), 30_000);
    expect((await dev.stop('SIGINT')).code).toBe(0);
  }, 120_000);

  it('says to listen on PORT when the app never listens on the port dev gave it', async () => {
    writeProject(
      { events: [] },
      '',
      'setInterval(() => {}, 1_000); // listening nowhere, as an app with a port of its own\n',
    );
    const port = await freePort();
    const result = await runCli(['dev', '--no-watch', '--emulator-port', '0'], {
      cwd: project,
      env: { PORT: String(port) },
      timeoutMs: 100_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: The app did not listen on port ${port} within 30 s.`);
    expect(result.stderr).toContain(`dev sets PORT=${port} in its environment: listen on process.env.PORT`);
  }, 120_000);

  it('refuses a taken app port in one line that names it', async () => {
    writeProject();
    const blocker = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => blocker.once('listening', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const result = await runCli(['dev', '--no-sample'], { cwd: project, env: { PORT: String(port) } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Port ${port} is already in use`);
      expect(result.stderr).toContain('set PORT to a free port in .env');
    } finally {
      blocker.close();
    }
  }, 90_000);

  it('names a bad PORT, a bad manifest field and a folder with no package.json', async () => {
    writeProject({}, 'PORT=0\n');
    const zero = await runCli(['dev'], { cwd: project });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('PORT must be a port number from 1 to 65535, got "0"');

    writeProject({ events: ['not an event'] });
    const manifest = await runCli(['dev'], { cwd: project });
    expect(manifest.code).toBe(2);
    expect(manifest.stderr).toContain('package.json "convo-kit".events.0');

    writeProject({ replyPath: 'reply' });
    const replyPath = await runCli(['dev'], { cwd: project });
    expect(replyPath.code).toBe(2);
    expect(replyPath.stderr).toContain('package.json "convo-kit".replyPath: expected a path such as /reply');

    writeProject({ entry: 'src/app.ts' });
    const entry = await runCli(['dev'], { cwd: project });
    expect(entry.code).toBe(2);
    expect(entry.stderr).toContain(`No src/app.ts in ${project}: the app's entry, which dev runs.`);

    const empty = await runCli(['dev', '--dir', join(project, 'src')], { cwd: project });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('No package.json in');
  }, 90_000);

  it('uses the service the settings name: registers the public URL for this run only and says so', async () => {
    const service = await createEmulator({});
    const server = await service.listen(0);
    const hooks = async () => {
      const res = await fetch(`${server.url}/v1/webhooks`, {
        headers: { authorization: `Bearer ${service.adminKey}` },
      });
      return ((await res.json()) as { data: { url: string }[] }).data.map((h) => h.url);
    };
    try {
      writeProject(
        { events: ['message.*'] },
        `CONVO_KIT_BASE_URL=${server.url}\nCONVO_KIT_API_KEY=${service.adminKey}\n`,
      );
      const { dev, port } = await startDev(['--public-url', 'https://tunnel.example.com']);
      await dev.waitFor(/convo-kit dev: dev-fixture/, 60_000);
      await dev.waitFor(/Try next/);
      const output = dev.stdout + dev.stderr;
      expect(output).toContain(
        `webhook:   https://tunnel.example.com/webhooks  (message.*, registered for this run, reaching http://127.0.0.1:${port}/webhooks;`,
      );
      expect(output).toContain(`service:   ${server.url}`);
      await dev.waitFor(/APP told: webhook registered by dev at https:\/\/tunnel\.example\.com\/webhooks\n/);
      expect(output).not.toContain('emulator:');
      // The settings' key and the secret of the registration are handed to the app, never printed.
      expect(output).not.toContain(service.adminKey);
      expect(output).not.toMatch(/whsec_/);
      expect(await hooks()).toEqual(['https://tunnel.example.com/webhooks']);
      expect((await dev.stop('SIGINT')).code).toBe(0);
      expect(await hooks()).toEqual([]);
    } finally {
      await server.close();
      await service.close();
    }
  }, 120_000);

  it('removes the registration an earlier dev run left behind (same URL and description), and nothing else', async () => {
    const service = await createEmulator({});
    const server = await service.listen(0);
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${service.adminKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (res) => (await res.json()) as Record<string, unknown>);
    const hooks = async () =>
      ((await api('GET', '/v1/webhooks')) as { data: { url: string; description: string | null }[] }).data.map(
        (h) => `${h.url} ${h.description}`,
      );
    try {
      const url = 'https://tunnel.example.com/webhooks';
      await api('POST', '/v1/webhooks', { url, events: ['message.*'], description: 'convo-kit dev: dev-fixture' });
      await api('POST', '/v1/webhooks', { url, events: ['ticket.*'], description: 'my own' });
      writeProject(
        { events: ['message.*'] },
        `CONVO_KIT_BASE_URL=${server.url}\nCONVO_KIT_API_KEY=${service.adminKey}\n`,
      );
      const { dev } = await startDev(['--public-url', 'https://tunnel.example.com']);
      await dev.waitFor(/Try next/, 60_000);
      expect(dev.stdout + dev.stderr).toContain('(removed 1 registration of it an earlier dev run left behind)');
      expect((await hooks()).sort()).toEqual([`${url} convo-kit dev: dev-fixture`, `${url} my own`]);
      expect((await dev.stop('SIGINT')).code).toBe(0);
      expect(await hooks()).toEqual([`${url} my own`]);
    } finally {
      await server.close();
      await service.close();
    }
  }, 120_000);

  it.each([
    ['http://tunnel.example.com', 'expected an https:// URL'],
    ['https://localhost:3100', 'localhost is a loopback name'],
  ])('refuses --public-url %s in one line naming the option, exit 2', async (url, reason) => {
    const result = await runCli(['dev', '--public-url', url], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`option '--public-url <url>' argument '${url}' is invalid.`);
    expect(result.stderr).toContain(reason);
  });

  it('refuses a malformed --admin-key in one line naming the option, without echoing it, exit 2', async () => {
    const result = await runCli(['dev', '--admin-key', 'svc_live_typo'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--admin-key must be svc_live_ followed by 32 url-safe characters');
    expect(result.stderr).not.toContain('svc_live_typo');
  });

  it('checks the service and key the settings name before starting the app: one line when either is wrong', async () => {
    const service = await createEmulator({});
    const server = await service.listen(0);
    try {
      const secret = `CONVO_KIT_WEBHOOK_SECRET=whsec_${'s'.repeat(32)}\n`;
      const wrongKey = `svc_live_${'w'.repeat(32)}`;
      for (const [env, verdict, reason] of [
        [
          `CONVO_KIT_BASE_URL=http://127.0.0.1:${await freePort()}\nCONVO_KIT_API_KEY=${service.adminKey}\n`,
          'did not answer as the service does',
          /ECONNREFUSED|fetch failed/,
        ],
        [
          `CONVO_KIT_BASE_URL=${server.url}\nCONVO_KIT_API_KEY=${wrongKey}\n`,
          "did not take the settings' key",
          /UNAUTHENTICATED|401/,
        ],
      ] as const) {
        writeProject({ events: ['message.*'] }, env + secret);
        const result = await runCli(['dev', '--no-watch'], {
          cwd: project,
          env: { PORT: String(await freePort()) },
          timeoutMs: 60_000,
        });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(verdict);
        expect(result.stderr).toMatch(reason);
        expect(result.stderr).toContain('Check CONVO_KIT_BASE_URL and CONVO_KIT_API_KEY');
        // Nothing started, and no key is printed.
        expect(result.stdout + result.stderr).not.toMatch(/APP |svc_live_[\w-]{32}/);
      }
    } finally {
      await server.close();
      await service.close();
    }
  }, 120_000);

  it('names the settings when CONVO_KIT_BASE_URL is no URL (no scheme), before anything else, exit 2', async () => {
    writeProject({}, `CONVO_KIT_BASE_URL=localhost:4010\nCONVO_KIT_API_KEY=svc_live_${'a'.repeat(32)}\n`);
    const result = await runCli(['dev'], { cwd: project, env: { PORT: String(await freePort()) } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: CONVO_KIT_BASE_URL or CONVO_KIT_API_KEY cannot be used: .*got `localhost:/);
    expect(result.stderr).toContain('Write the service URL in full (http://localhost:4010 for a local emulator)');
    expect(result.stderr).not.toContain('public https URL');
  }, 90_000);

  it('asks for a public URL before registering with a real service', async () => {
    writeProject({}, `CONVO_KIT_BASE_URL=http://127.0.0.1:9\nCONVO_KIT_API_KEY=svc_live_${'a'.repeat(32)}\n`);
    const result = await runCli(['dev'], { cwd: project, env: { PORT: String(await freePort()) } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'CONVO_KIT_WEBHOOK_SECRET is not set, and the service delivers only to a public https URL',
    );
    expect(result.stderr).toContain('--public-url');
  }, 90_000);
});

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createServer();
    socket.once('error', () => resolve(true));
    socket.listen(port, '127.0.0.1', () => socket.close(() => resolve(false)));
  });
}
