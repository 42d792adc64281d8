import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createReceiver } from '../../src/receiver/index.js';
import type { StateDocument } from '../../src/emulator/saved-state/state-document.js';
import { tempDir, waitUntil } from './helpers.js';
import { CliProcess, killAllCli, runCli } from './run-cli.js';
import { env, expectFinishedOnce, sendVipCampaign, start, WAIT_MS } from './emulator-state-harness.js';

// --export-on-exit and --import through the real CLI (docs/emulator.md, "Saving and loading state"): a state
// saved in the middle of a conversation and a campaign goes on in a new emulator as it would have in the first.

const dir = tempDir('emulator-state');
const servers: Server[] = [];
afterEach(killAllCli);
afterEach(() =>
  servers.splice(0).forEach((s) => {
    s.closeAllConnections();
    s.close();
  }),
);
afterAll(() => dir.remove());

/**
 * The real receiver (createReceiver, verifying every signature with the secret it is given) behind a port; the
 * first `message.received` delivery is answered 500 before it reaches the receiver, so that one retry is pending.
 */
async function realReceiver() {
  let secrets: string[] = [];
  const receiver = createReceiver({
    secrets: async () => secrets,
    dbPath: dir.file(`receiver-${Date.now()}.db`),
    logger: pino({ level: 'silent' }),
    pollIntervalMs: 20,
  });
  const handled = new Map<string, number>();
  receiver.on('*', async ({ envelope }) => {
    handled.set(envelope.id!, (handled.get(envelope.id!) ?? 0) + 1);
  });
  await receiver.start();
  const answers: { delivery: string; event: string; status: number }[] = [];
  let failedOnce = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const event = String(req.headers['x-service-event']);
      const delivery = String(req.headers['x-service-delivery']);
      if (event === 'message.received' && !failedOnce) {
        failedOnce = true;
        answers.push({ delivery, event, status: 500 });
        return res.writeHead(500).end();
      }
      const answer = await receiver.handle({
        headers: req.headers as Record<string, string>,
        rawBody: Buffer.concat(chunks),
      });
      answers.push({ delivery, event, status: answer.status });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    answers,
    handled,
    useSecret: (secret: string) => (secrets = [secret]),
    idle: () => receiver.idle(),
    close: () => receiver.close(),
  };
}

describe('convo-kit emulator --export-on-exit and --import', () => {
  it('saves a state mid-conversation and mid-campaign; a new emulator finishes both as the first would have', async () => {
    const file = dir.file('state.json');
    const receiver = await realReceiver();
    // Retries an hour apart: the one pending at export is still pending at import, due when the clock says.
    const first = await start(['--seed', '2000', '--retry-delays', '3600', '--export-on-exit', file]);
    const hook = await first.call('POST', '/v1/webhooks', {
      url: receiver.url,
      events: ['conversation.created', 'message.received'],
    });
    expect(hook.status).toBe(201);
    receiver.useSecret(hook.body.secret as string);
    const inbound = await first.call('POST', '/_emulator/inbound', {
      channel: 'phone',
      from: { handle: '+14155550188', name: 'Ada' },
      content: 'Where is my order?',
    });
    expect(inbound.status).toBe(201);
    await waitUntil(
      async () => receiver.answers.find((a) => a.status === 500),
      'the first message.received refused',
      WAIT_MS,
    );
    const campaignId = await sendVipCampaign(first);
    // Ctrl-C while it sends: the state is written on the way out.
    const stopped = await first.cli.stop('SIGINT');
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain(`state written to ${file}`);
    expect(stopped.stdout + stopped.stderr).not.toContain(hook.body.secret as string);

    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(hook.body.secret as string);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(text) as StateDocument;
    const progress = saved.collections.campaign_progress!.find((p) => p.id === campaignId)!;
    const recipients = progress.recipients as number;
    // Saved in the middle of sending: some recipients have their message, the rest do not yet.
    expect(saved.collections.campaigns!.find((c) => c.id === campaignId)!.status).toBe('sending');
    expect(progress.next).toBeGreaterThan(0);
    expect(progress.next).toBeLessThan(recipients);
    const pending = saved.deliveries.filter((d) => d.state === 'pending');
    expect(pending.map((d) => d.event)).toEqual(['message.received']);
    console.log(
      `saved mid-campaign: ${String(progress.next)} of ${recipients} recipients done, ${saved.collections.messages!.length} messages, ${Buffer.byteLength(text)} bytes`,
    );

    const second = await start(['--retry-delays', '3600', '--import', file]);
    await second.cli.waitFor(/state imported from/, WAIT_MS);
    expect(second.cli.stderr).toContain(`state imported from ${file}`);
    // What the first held is in the second: every conversation and message (the campaign, going on, moves its
    // recipients' conversations and its messages' delivery status), the customer's conversation and every
    // received message exactly as they were, and the time.
    const imported = (await second.call('GET', '/_emulator/state')).body as StateDocument;
    expect(Date.parse(imported.clock.now)).toBeGreaterThanOrEqual(Date.parse(saved.clock.now));
    expect(Date.parse(imported.clock.now) - Date.parse(saved.clock.now)).toBeLessThan(WAIT_MS);
    const byId = (docs: Record<string, unknown>[] | undefined) => new Map((docs ?? []).map((d) => [d.id, d]));
    const conversations = byId(imported.collections.conversations);
    const messages = byId(imported.collections.messages);
    expect(saved.collections.conversations!.filter((c) => !conversations.has(c.id))).toEqual([]);
    expect(saved.collections.messages!.filter((m) => !messages.has(m.id))).toEqual([]);
    const ada = inbound.body.conversation.id as string;
    expect(conversations.get(ada)).toEqual(saved.collections.conversations!.find((c) => c.id === ada));
    for (const message of saved.collections.messages!) {
      if (message.direction === 'received' || message.conversation_id === ada) {
        expect(messages.get(message.id)).toEqual(message);
      }
    }

    // The campaign finishes, and no recipient gets its message twice.
    const { done, sent } = await expectFinishedOnce(second, campaignId, recipients);
    console.log(`finished after import: ${sent.length} sent once each, ${String(done.stats.skipped)} skipped`);

    // The retry pending at export goes when its hour has passed, same delivery id, signed with the same secret.
    expect((await second.call('POST', '/_emulator/clock', { advance_seconds: 3600 })).status).toBe(200);
    const retried = await waitUntil(
      async () => receiver.answers.find((a) => a.delivery === pending[0]!.id && a.status === 200),
      'the pending retry delivered and verified',
      WAIT_MS,
    );
    expect(retried.event).toBe('message.received');
    // A new event in the second emulator is signed with that secret too.
    await second.call('POST', '/_emulator/inbound', {
      channel: 'phone',
      from: { handle: '+14155550189' },
      content: 'hi',
    });
    await waitUntil(
      async () =>
        receiver.answers.filter((a) => a.event === 'message.received' && a.status === 200).length >= 2
          ? true
          : undefined,
      'a new event verified',
      WAIT_MS,
    );
    await receiver.idle();
    expect(receiver.answers.filter((a) => a.status === 401)).toEqual([]);
    expect([...receiver.handled.values()].every((n) => n === 1)).toBe(true);
    expect((await second.cli.stop('SIGTERM')).code).toBe(0);
    await receiver.close();
  }, 600_000);

  it('warns at start, without a state key, what an import will refuse; a Ctrl-C right after start still exports', async () => {
    const file = dir.file('no-key.json');
    const cli = new CliProcess(['emulator', '--port', '0', '--export-on-exit', file], {
      env: { CONVO_KIT_STATE_KEY: undefined },
      timeoutMs: 180_000,
    });
    await cli.waitFor(/Ctrl-C to stop/, WAIT_MS);
    expect(cli.stderr).toContain(
      `CONVO_KIT_STATE_KEY is not set: ${file} will hold no webhook or provider secret, so an import of it refuses any webhook endpoint or provider it holds. Set CONVO_KIT_STATE_KEY (16 characters or more) to keep them.`,
    );
    // Signalled as soon as the line is read: the emulator listens for it before it prints anything.
    const stopped = await cli.stop();
    expect([stopped.code, stopped.signal]).toEqual([0, null]);
    expect(stopped.stderr).toContain(`state written to ${file}`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'convo-kit-emulator-state' });
  }, 300_000);

  it('refuses a missing or invalid --import file in one line naming the file and the field', async () => {
    const bad = dir.file('bad.json');
    writeFileSync(bad, JSON.stringify({ format: 'convo-kit-emulator-state', format_version: 2 }));
    const notJson = dir.file('not.json');
    writeFileSync(notJson, '{"format":');
    // Each starts a CLI process; under load that alone can take tens of seconds.
    const run = (args: string[]) => runCli(['emulator', '--port', '0', ...args], { env, timeoutMs: 180_000 });
    const [missing, invalid, broken, nowhere] = await Promise.all([
      run(['--import', dir.file('nowhere.json')]),
      run(['--import', bad]),
      run(['--import', notJson]),
      run(['--export-on-exit']),
    ]);
    expect(missing.code).toBe(3);
    expect(missing.stderr.trim().split('\n')[0]).toBe(`error: No file ${dir.file('nowhere.json')} for --import.`);
    // A directory export (docs/emulator.md) is as good a name as a file.
    expect(missing.stderr.trim().split('\n')[1]).toBe(
      'Name a file or directory written by --export-on-exit, or a file of GET /_emulator/state.',
    );
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/error: Cannot import .*bad\.json: format_version: .+\./);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/error: Cannot import .*not\.json: not JSON/);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('--export-on-exit without a file needs --import');
  }, 300_000);
});
