import { expect } from 'vitest';
import { SEED_IDS } from '../../src/emulator/seed.js';
import type { StateDocument } from '../../src/emulator/saved-state/state-document.js';
import { waitUntil } from './helpers.js';
import { CliProcess } from './run-cli.js';

// A real `convo-kit emulator` CLI with a state key, and calls to it as its admin (emulator-state*.test.ts).

export const STATE_KEY = 'a state key for this test only';
export const ADMIN_KEY = `svc_live_${'s'.repeat(32)}`;
export const env = { CONVO_KIT_STATE_KEY: STATE_KEY };
/** Bounded waits: the machine may be loaded, so outcomes are polled, never slept on. */
export const WAIT_MS = 120_000;

export async function start(args: string[]) {
  const cli = new CliProcess(['emulator', '--port', '0', '--json', '--admin-key', ADMIN_KEY, ...args], {
    env,
    timeoutMs: 300_000,
  });
  const [line] = await cli.waitFor(/^\{.*"base_url".*\}$/m, WAIT_MS);
  const { url } = JSON.parse(line) as { url: string };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${ADMIN_KEY}`,
        'content-type': 'application/json',
        'x-emulator-state-key': STATE_KEY,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each caller reads the answer's fields it asked for
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  return { cli, url, call };
}

type Emulator = Awaited<ReturnType<typeof start>>;

/** Creates and sends a campaign of the seed's approved template to every `vip` contact (1,000 with --seed 2000). */
export async function sendVipCampaign(emulator: Emulator): Promise<string> {
  const campaign = await emulator.call('POST', '/v1/campaigns', {
    name: 'VIP update',
    template_id: SEED_IDS.templates.approved,
    audience: { tags: ['vip'] },
    variables: { '1': 'A-1', '2': 'today' },
  });
  expect(campaign.status).toBe(201);
  expect((await emulator.call('POST', `/v1/campaigns/${campaign.body.id}/send`)).status).toBe(201);
  return campaign.body.id as string;
}

/** Waits for the campaign to finish and checks that each of its `recipients` got at most one message. */
export async function expectFinishedOnce(emulator: Emulator, campaignId: string, recipients: number) {
  const done = await waitUntil(
    async () => {
      const res = await emulator.call('GET', `/v1/campaigns/${campaignId}`);
      return res.body.status === 'sent' ? res.body : undefined;
    },
    'the campaign to finish in the second emulator',
    WAIT_MS,
  );
  const state = (await emulator.call('GET', '/_emulator/state')).body as StateDocument;
  const sent = state.collections.messages!.filter((m) => m.campaign_id === campaignId);
  // One conversation per recipient: a recipient sent to twice would show its conversation twice.
  const recipientsSentTo = sent.map((m) => m.conversation_id);
  expect(new Set(recipientsSentTo).size).toBe(recipientsSentTo.length);
  expect(done.stats.recipients).toBe(recipients);
  expect(done.stats.sent).toBe(sent.length);
  expect(done.stats.sent + done.stats.skipped + done.stats.failed).toBe(recipients);
  return { done, sent, state };
}
