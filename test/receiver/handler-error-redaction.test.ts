import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedDelivery } from '../../src/testing/index.js';
import type { Receiver } from '../../src/receiver/index.js';
import { tempDir } from '../store/temp-dir.js';
import { mapLimit } from '../cli/helpers.js';
import { killAllCli, runCli } from '../cli/run-cli.js';
import { capturingLogger, expressApp, post, SECRET, testReceiver } from './harness.js';

const RECEIVER_MODULE = fileURLToPath(new URL('../../src/receiver/index.ts', import.meta.url));

/** A second secret the receiver verifies with (a rotation), with no prefix that could give it away. */
const UNPREFIXED = 'rotation-secret-without-any-prefix-7f3a9c';

/** What a handler throws, the credential in it, and what must stay readable around it. */
const CASES = {
  dlv_query_key: {
    thrown: 'fetch failed: https://api.example/x?key=sk_live_4eC39HqLyjWDarjtT1zdp7dc&page=2',
    secret: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
    kept: 'fetch failed: https://api.example/x?key=[redacted]&page=2',
  },
  dlv_query_whsec: {
    thrown: 'POST https://hooks.example/in?key=whsec_QueryEndpointSecret0123456789ab&retry=1 failed',
    secret: 'QueryEndpointSecret0123456789ab',
    kept: 'POST https://hooks.example/in?key=whsec_[redacted]&retry=1 failed',
  },
  dlv_bearer: {
    thrown: 'CRM answered 401 to Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjcm0ifQ.c2lnbmF0dXJlLXNlY3JldA',
    secret: 'eyJzdWIiOiJjcm0ifQ.c2lnbmF0dXJlLXNlY3JldA',
    kept: 'CRM answered 401 to Authorization: Bearer [redacted]',
  },
  dlv_whsec: {
    thrown: 'could not forward: the other endpoint wants whsec_OtherEndpointSecret0123456789abcd, not ours',
    secret: 'OtherEndpointSecret0123456789abcd',
    kept: 'could not forward: the other endpoint wants whsec_[redacted], not ours',
  },
  dlv_own_secret: {
    thrown: `verification of the forwarded copy used ${SECRET} and failed`,
    secret: SECRET.slice('whsec_'.length),
    kept: 'verification of the forwarded copy used [redacted] and failed',
  },
  dlv_unprefixed: {
    thrown: `HMAC with "${UNPREFIXED}" did not match`,
    secret: UNPREFIXED,
    kept: 'HMAC with "[redacted]" did not match',
  },
  dlv_api_key: {
    thrown: 'emulator refused svc_test_0123456789abcdefghijklmnopqrstuv with 401',
    secret: '0123456789abcdefghijklmnopqrstuv',
    kept: 'emulator refused svc_test_[redacted] with 401',
  },
  dlv_password: {
    thrown: 'login POST user=crm&password=correct-horse-battery&remember=1 answered 403',
    secret: 'correct-horse-battery',
    kept: 'login POST user=crm&password=[redacted]&remember=1 answered 403',
  },
  dlv_signature: {
    thrown: `replayed with X-Service-Signature sha256=${'ab12'.repeat(16)} and got 409`,
    secret: 'ab12'.repeat(16),
    kept: 'replayed with X-Service-Signature sha256=[redacted] and got 409',
  },
} as const;
type CaseId = keyof typeof CASES;
const IDS = Object.keys(CASES) as CaseId[];

const dir = tempDir('convo-kit-error-redaction-');
const db = dir.path('inbox.db');
const log = capturingLogger();
let receiver: Receiver;

function expectHidden(text: string, id: CaseId): void {
  expect(text).not.toContain(CASES[id].secret);
}

/** Every case's handler throws on each of two attempts; the delivery ends dead with both attempts kept. */
beforeAll(async () => {
  receiver = testReceiver(db, { secrets: [SECRET, UNPREFIXED], secret: undefined, logger: log.logger, maxAttempts: 2 });
  receiver.on('ticket.created', ({ deliveryId }) => {
    throw new Error(CASES[deliveryId as CaseId].thrown);
  });
  await receiver.start();
  for (const deliveryId of IDS)
    await post(expressApp(receiver), signedDelivery({ secret: SECRET, event: 'ticket.created', deliveryId })).expect(
      200,
    );
  await receiver.idle();
});

afterAll(async () => {
  await killAllCli();
  await receiver.close();
  dir.remove();
});

describe("a handler's error that quotes a credential", () => {
  it.each(IDS)('%s: the stored row and every attempt keep the message with the credential hidden', async (id) => {
    const record = await receiver.store.get(id);
    expect(record).toMatchObject({
      status: 'dead',
      lastError: `A handler for ticket.created threw: ${CASES[id].kept}`,
    });
    const attempts = await receiver.store.attempts(id);
    expect(attempts.map((a) => [a.outcome, a.error])).toEqual([
      ['failed', record!.lastError],
      ['dead', record!.lastError],
    ]);
  });

  it.each(IDS)('%s: the log lines (message, error, stack and cause) say the same without the credential', (id) => {
    const lines = log.records().filter((r) => r.deliveryId === id && r.err);
    expect(lines.map((r) => r.msg)).toEqual([
      'attempt 1 failed; retrying',
      `delivery is dead after attempt 2: A handler for ticket.created threw: ${CASES[id].kept}`,
    ]);
    for (const line of lines) {
      const err = line.err as { message: string; stack: string };
      expect(err.message).toContain(CASES[id].kept);
      expect(err.stack).toContain(CASES[id].kept);
      // The handler's own frame is still there to debug with.
      expect(err.stack).toContain('handler-error-redaction.test.ts');
    }
    expectHidden(log.text(), id);
  });

  it('convo-kit deliveries list --json and show print the message without the credential', async () => {
    const list = await runCli(['deliveries', 'list', '--db', db, '--status', 'dead', '--json']);
    expect(list.code).toBe(0);
    const listed = new Map((JSON.parse(list.stdout) as { id: string; last_error: string }[]).map((d) => [d.id, d]));
    // Two CLI processes at a time: the machine has two cores.
    const shown = await mapLimit(IDS, 2, (id) => runCli(['deliveries', 'show', id, '--db', db]));
    IDS.forEach((id, i) => {
      expect(shown[i]!.code).toBe(0);
      expect(shown[i]!.stdout).toContain(CASES[id].kept);
      expect(listed.get(id)?.last_error).toContain(CASES[id].kept);
      for (const printed of [list.stdout, shown[i]!.stdout]) expectHidden(printed, id);
    });
  }, 120_000);

  it('convo-kit replay --handlers prints and logs the failure without the credential', async () => {
    // The app's own module, as the README has it: its configured receiver (so its secrets) and its handlers.
    const module = dir.path('webhooks.ts');
    writeFileSync(
      module,
      `import { createReceiver } from ${JSON.stringify(RECEIVER_MODULE)};
const thrown: Record<string, string> = ${JSON.stringify(Object.fromEntries(IDS.map((id) => [id, CASES[id].thrown])))};
export const receiver = createReceiver({ secrets: ${JSON.stringify([SECRET, UNPREFIXED])}, dbPath: ${JSON.stringify(db)} });
receiver.on('ticket.created', ({ deliveryId }) => { throw new Error(thrown[deliveryId]); });
`,
    );
    await receiver.close();
    const replay = await runCli(['replay', '--status', 'dead', '--handlers', module], {
      env: { LOG_LEVEL: 'warn' },
      timeoutMs: 60_000,
      tsx: true,
    });
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain(`: 0 succeeded, ${IDS.length} failed`);
    // The module's receiver logs with its own pino (to stdout) beside the CLI's summary.
    const printed = replay.stdout + replay.stderr;
    expect(printed).toMatch(/delivery is dead after attempt \d+: A handler for ticket\.created threw/);
    for (const id of IDS) {
      expect(replay.stdout).toContain(CASES[id].kept);
      expectHidden(printed, id);
    }
  }, 90_000);

  it('convo-kit replay --handlers with a handlers object hides the secret given with --secret', async () => {
    // A plain handlers object has no receiver of the app's, so no secret of its: --secret names it.
    const module = dir.path('handlers.ts');
    writeFileSync(
      module,
      `export const handlers = {
  'ticket.created': () => { throw new Error('HMAC with "${UNPREFIXED}" did not match'); },
};
`,
    );
    const replay = await runCli(
      ['replay', '--status', 'dead', '--handlers', module, '--db', db, '--secret', UNPREFIXED],
      { env: { LOG_LEVEL: 'warn' }, timeoutMs: 60_000, tsx: true },
    );
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain(`: 0 succeeded, ${IDS.length} failed`);
    expect(replay.stdout).toContain('HMAC with "[redacted]" did not match');
    expect(replay.stdout + replay.stderr).not.toContain(UNPREFIXED);
  }, 90_000);
});

describe('what is kept of a long error, and secrets from a provider', () => {
  const other = tempDir('convo-kit-error-redaction-provider-');
  afterAll(() => other.remove());

  it('hides a provided secret and a credential cut by the 2000-character bound, keeping the bound', async () => {
    const provided = 'vault-provided-secret-without-prefix-91b2';
    const cutKey = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
    const thrown = {
      dlv_provided: `the CRM echoed ${provided} back`,
      // With the message's prefix the key starts 19 characters before the bound: cut first, its first part would show.
      dlv_long: `${'x'.repeat(1940)} key=${cutKey}`,
    };
    const provider = testReceiver(other.path('inbox.db'), {
      secrets: async () => [provided],
      secret: undefined,
      maxAttempts: 1,
    });
    provider.on('ticket.created', ({ deliveryId }) => {
      throw new Error(thrown[deliveryId as keyof typeof thrown]);
    });
    await provider.start();
    try {
      for (const deliveryId of Object.keys(thrown))
        await post(
          expressApp(provider),
          signedDelivery({ secret: provided, event: 'ticket.created', deliveryId }),
        ).expect(200);
      await provider.idle();
      expect((await provider.store.get('dlv_provided'))?.lastError).toBe(
        'A handler for ticket.created threw: the CRM echoed [redacted] back',
      );
      const long = (await provider.store.get('dlv_long'))!.lastError!;
      expect(long).toMatch(/x key=\[redacted\]$/);
      expect(long.length).toBeLessThanOrEqual(2000);
      expect(long).not.toContain(cutKey.slice(0, 8));
    } finally {
      await provider.close();
    }
  });
});
