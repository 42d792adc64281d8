import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contact } from '../../src/resources/index.js';
import { providerOutcome } from '../../src/emulator/domain/shared/provider-outcome.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { startE2e, type E2e } from './harness.js';

// Outbound work at scale over real HTTP: a campaign of about 2,000 recipients and a journey step due for 600
// enrollments at once complete, with counts that add up, and the emulator keeps answering while they run
// (the timing is bench/campaign.bench.ts's; these check outcomes).
const SEED_CHATS = 4_000;
const TAG = 'vip';

let t: E2e;
beforeAll(async () => {
  // Half the generated chats are tagged `vip`: about 2,000 recipients, with and without a phone number.
  t = await startE2e({ seed: SEED_CHATS });
});
afterAll(async () => {
  await t.close();
});

/** The stats the audience should end with, from the contacts as the API lists them and the provider sandbox table. */
async function expectedStats() {
  const audience = new Set<string>();
  for await (const c of t.client.conversations.list({ limit: 100 }))
    if (c.tags.includes(TAG)) audience.add(c.contact_id);
  const stats = { recipients: audience.size, sent: 0, delivered: 0, failed: 0, skipped: 0 };
  const contacts: Contact[] = [];
  for await (const c of t.client.contacts.list({ limit: 100 })) if (audience.has(c.id)) contacts.push(c);
  expect(contacts).toHaveLength(audience.size);
  for (const contact of contacts) {
    const outcome = contact.phone && !contact.opted_out ? providerOutcome(contact.phone).kind : 'opted_out';
    if (outcome === 'opted_out') stats.skipped++;
    else if (outcome === 'rejected') stats.failed++;
    else {
      stats.sent++;
      if (outcome === 'delivered') stats.delivered++;
      else stats.failed++;
    }
  }
  return stats;
}

describe('a campaign of about 2,000 recipients', () => {
  it('completes with stats that add up, while GET /v1/status is answered during the send', async () => {
    // One of each sandbox outcome joins the generated audience: rejected (0001), throttled (0002), opted out (0003).
    for (const id of [
      SEED_IDS.sendFailed.conversation,
      SEED_IDS.throttled.conversation,
      SEED_IDS.optedOut.conversation,
    ])
      await t.client.conversations.update({ id, tags: [TAG] });
    const expected = await expectedStats();
    expect(expected.recipients).toBeGreaterThanOrEqual(2_000);
    expect(expected.sent).toBeGreaterThan(900);
    expect(expected.skipped).toBeGreaterThan(900);

    const campaign = await t.client.campaigns.create({
      name: 'Large',
      template_id: SEED_IDS.templates.approved,
      audience: { tags: [TAG] },
      variables: { '1': 'L-1', '2': 'today' },
    });
    expect((await t.client.campaigns.send({ id: campaign.id })).status).toBe('sending');

    // Status answers that come back while the campaign is still sending: the scheduler yields between chunks.
    let answeredWhileSending = 0;
    let view = await t.client.campaigns.get({ id: campaign.id });
    for (let i = 0; i < 2_000 && view.status === 'sending'; i++) {
      const status = await t.client.status.get();
      expect(status.status).toBe('ok');
      view = await t.client.campaigns.get({ id: campaign.id });
      if (view.status === 'sending') {
        answeredWhileSending++;
        expect(view.stats.sent + view.stats.skipped).toBeLessThanOrEqual(expected.recipients);
      }
    }
    expect(view.status).toBe('sent');
    expect(answeredWhileSending).toBeGreaterThan(0);

    // Every accepted send then moves on to delivered or failed on the emulator clock.
    await t.control('clock', { advance_seconds: 5 });
    for (let i = 0; i < 200 && view.stats.delivered + view.stats.failed < expected.delivered + expected.failed; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      view = await t.client.campaigns.get({ id: campaign.id });
    }
    expect(view.stats).toEqual(expected);
  });
});

describe('a journey step due for 600 enrollments at once', () => {
  it('runs every one after a clock jump, while GET /v1/status is answered in between', async () => {
    const ENROLLMENTS = 600;
    const DAY = 86_400;
    const created = await t.client.journeys.create({
      name: 'Scale',
      trigger_name: 'scale.reminder',
      steps: [{ template_id: SEED_IDS.templates.approved, delay_seconds: DAY }],
    });
    const journey = await t.client.journeys.setStatus({ id: created.id, status: 'active' });
    // Ends in 9: never one of the sandbox's 0001-0003.
    const phones = Array.from({ length: ENROLLMENTS }, (_, i) => `+120677${String(i).padStart(4, '0')}9`);
    for (let i = 0; i < ENROLLMENTS; i += 100) {
      const { results } = await t.client.trigger.batch({
        trigger_name: journey.trigger_name,
        recipients: phones.slice(i, i + 100).map((phone) => ({ phone, metadata: { '1': 'J-1', '2': 'tomorrow' } })),
      });
      expect(results.every((r) => r.ok)).toBe(true);
    }

    await t.control('clock', { advance_seconds: DAY + 1 });
    // A history read runs at most a few due steps itself; the scheduler runs the rest in bounded runs.
    const active = async () =>
      (await t.client.trigger.history({ journey_id: journey.id, status: 'active', limit: 1 })).data.length > 0;
    let answeredWhileRunning = 0;
    for (let i = 0; i < 2_000 && (await active()); i++) {
      expect((await t.client.status.get()).status).toBe('ok');
      if (await active()) answeredWhileRunning++;
    }
    expect(await active()).toBe(false);
    expect(answeredWhileRunning).toBeGreaterThan(0);
    let completed = 0;
    for await (const enrollment of t.client.trigger.history({ journey_id: journey.id, limit: 100 })) {
      expect(enrollment.status).toBe('completed');
      completed++;
    }
    expect(completed).toBe(ENROLLMENTS);
  });
});
