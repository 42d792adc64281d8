import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationFailedError } from '../../src/client/index.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { rejection, startE2e, type E2e } from './harness.js';

// Journeys, triggers and campaigns on the emulator clock, through the typed client over real HTTP.
let t: E2e;
beforeAll(async () => {
  t = await startE2e();
});
afterAll(async () => {
  await t.close();
});

const DAY = 86_400;
const vars = { '1': 'A-9', '2': 'soon' };
let n = 0;
const phone = () => `+1206555${String(++n).padStart(3, '0')}9`;

async function journey(steps: { template_id: string; delay_seconds: number }[], activate = true) {
  const created = await t.client.journeys.create({ name: 'Flow', trigger_name: `flow.${++n}`, steps });
  return activate ? t.client.journeys.setStatus({ id: created.id, status: 'active' }) : created;
}

const approved = SEED_IDS.templates.approved;

async function statuses(actionIds: readonly string[]) {
  return Promise.all(actionIds.map(async (id) => (await t.client.trigger.status({ id })).status));
}

describe('journeys on the emulator clock', () => {
  it('finishes a 30-day, three-step journey by moving the clock, each step sent as source journey', async () => {
    const j = await journey([
      { template_id: approved, delay_seconds: 0 },
      { template_id: approved, delay_seconds: 10 * DAY },
      { template_id: approved, delay_seconds: 20 * DAY },
    ]);
    const to = phone();
    const { enrollment_id } = await t.client.trigger.enroll({
      trigger_name: j.trigger_name,
      phone: to,
      metadata: vars,
    });
    let [enrollment] = (await t.client.trigger.history({ phone: to })).data;
    expect(enrollment).toMatchObject({ id: enrollment_id, status: 'active', current_step: 1 });
    await t.control('clock', { advance_seconds: 30 * DAY + 1 });
    [enrollment] = (await t.client.trigger.history({ phone: to })).data;
    expect(enrollment).toMatchObject({ status: 'completed', current_step: 2, next_step_at: null });
    // The last two sends were accepted just now: a second more of emulator time delivers them.
    await t.control('clock', { advance_seconds: 1 });
    expect(await statuses(enrollment!.action_ids)).toEqual(['delivered', 'delivered', 'delivered']);
    const sent = (await t.client.messages.list({ limit: 10 })).data.filter((m) => m.content.includes('A-9'));
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(sent.every((m) => m.source === 'journey')).toBe(true);
  });

  it('holds pending steps while paused and resumes them on activate', async () => {
    const j = await journey([
      { template_id: approved, delay_seconds: 0 },
      { template_id: approved, delay_seconds: DAY },
    ]);
    const to = phone();
    await t.client.trigger.enroll({ trigger_name: j.trigger_name, phone: to, metadata: vars });
    await t.client.journeys.setStatus({ id: j.id, status: 'paused' });
    await t.control('clock', { advance_seconds: 2 * DAY });
    let [enrollment] = (await t.client.trigger.history({ phone: to })).data;
    expect(enrollment).toMatchObject({ status: 'active', current_step: 1 });
    const held = await t.client.trigger.status({ id: enrollment!.action_ids[1]! });
    expect(held).toMatchObject({ status: 'scheduled', fault: null });
    expect(held.what_happened).toContain('held');
    await t.client.journeys.setStatus({ id: j.id, status: 'active' });
    [enrollment] = (await t.client.trigger.history({ phone: to })).data;
    expect(enrollment!.status).toBe('completed');
  });

  it('explains a failed step from the error table: a deleted template is TEMPLATE_NOT_APPROVED, fault platform', async () => {
    const template = await t.client.templates.create({
      name: 'soon_gone',
      category: 'UTILITY',
      body: 'Your order shipped',
      // A journey sends from the pinned number: the seed has two, so an unpinned template has no sender.
      pinned_integration_id: SEED_IDS.phoneMain,
    });
    await t.control(`templates/${template.id}/review`, { status: 'approved' });
    const j = await journey([
      { template_id: approved, delay_seconds: 0 },
      { template_id: template.id, delay_seconds: 60 },
    ]);
    const to = phone();
    await t.client.trigger.enroll({ trigger_name: j.trigger_name, phone: to, metadata: vars });
    await t.client.templates.delete({ id: template.id });
    await t.control('clock', { advance_seconds: 61 });
    const [enrollment] = (await t.client.trigger.history({ phone: to })).data;
    expect(enrollment!.status).toBe('failed');
    const step = await t.client.trigger.status({ id: enrollment!.action_ids[1]! });
    const table = await t.client.developer.explainError({ code: 'TEMPLATE_NOT_APPROVED' });
    expect(step).toMatchObject({ status: 'failed', fault: table.fault, error_code: 'TEMPLATE_NOT_APPROVED' });
    expect(step.what_happened).toContain(table.what_happened);
    expect(step.next_step).toBe(table.next_step);
  });

  it('skips an opted-out recipient and stops the enrollment', async () => {
    const j = await journey([{ template_id: approved, delay_seconds: 0 }]);
    const { action_id } = await t.client.trigger.enroll({
      trigger_name: j.trigger_name,
      phone: '+14155550003',
      metadata: vars,
    });
    expect(await t.client.trigger.status({ id: action_id })).toMatchObject({
      status: 'skipped',
      error_code: 'CONTACT_OPTED_OUT',
    });
    expect((await t.client.trigger.history({ phone: '+14155550003' })).data[0]!.status).toBe('stopped');
  });
});

describe('trigger refusals', () => {
  it('is 404 for an unknown trigger_name, 422 INVALID_STATE for a draft journey, 400 naming metadata.<n>', async () => {
    expect(await rejection(t.client.trigger.enroll({ trigger_name: 'nobody.home', phone: phone() }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    const draft = await journey([{ template_id: approved, delay_seconds: 0 }], false);
    expect(
      await rejection(t.client.trigger.enroll({ trigger_name: draft.trigger_name, phone: phone(), metadata: vars })),
    ).toMatchObject({ status: 422, code: 'INVALID_STATE' });
    const active = await journey([{ template_id: approved, delay_seconds: 0 }]);
    const error = await rejection(
      t.client.trigger.enroll({ trigger_name: active.trigger_name, phone: phone(), metadata: { '1': 'x' } }),
    );
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).details).toEqual([expect.objectContaining({ path: 'metadata.2' })]);
  });

  it('validate is a dry run: nothing stored, the history unchanged', async () => {
    const j = await journey([{ template_id: approved, delay_seconds: 0 }]);
    const to = phone();
    const result = await t.client.trigger.validate({ trigger_name: j.trigger_name, phone: to, metadata: vars });
    expect(result).toMatchObject({ valid: true, journey_id: j.id });
    expect((await t.client.trigger.history({ phone: to })).data).toEqual([]);
    const unknown = await t.client.trigger.validate({ trigger_name: 'nobody.home', phone: to });
    expect(unknown).toMatchObject({ valid: false, journey_id: null });
  });

  it('refuses a journey step with a template that is not approved (TEMPLATE_NOT_APPROVED naming the step)', async () => {
    const error = await rejection(
      t.client.journeys.create({
        name: 'Bad',
        trigger_name: `bad.${++n}`,
        steps: [
          { template_id: approved, delay_seconds: 0 },
          { template_id: SEED_IDS.templates.rejected, delay_seconds: 0 },
        ],
      }),
    );
    expect(error).toMatchObject({ status: 422, code: 'TEMPLATE_NOT_APPROVED' });
    expect((error as Error).message).toContain('steps.1');
  });
});

describe('campaigns', () => {
  async function finished(id: string) {
    for (let i = 0; i < 100; i++) {
      const campaign = await t.client.campaigns.get({ id });
      if (campaign.status === 'sent') return campaign;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`campaign ${id} did not finish`);
  }

  it('sends to a tag audience, skips the opted-out, and counts every outcome', async () => {
    const tag = `flow-${++n}`;
    for (const id of [
      SEED_IDS.delivered.conversation,
      SEED_IDS.throttled.conversation,
      SEED_IDS.sendFailed.conversation,
      SEED_IDS.optedOut.conversation,
    ])
      await t.client.conversations.update({ id, tags: [tag] });
    const campaign = await t.client.campaigns.create({
      name: 'Tagged',
      template_id: approved,
      audience: { tags: [tag] },
      variables: vars,
    });
    await t.client.campaigns.send({ id: campaign.id });
    await finished(campaign.id);
    await t.control('clock', { advance_seconds: 5 });
    expect((await t.client.campaigns.get({ id: campaign.id })).stats).toEqual({
      recipients: 4,
      sent: 2,
      delivered: 1,
      // 0001 rejected at once, 0002 throttled after acceptance.
      failed: 2,
      skipped: 1,
    });
    expect(await rejection(t.client.campaigns.send({ id: campaign.id }))).toMatchObject({ code: 'INVALID_STATE' });
  });

  it('starts a scheduled campaign when the emulator clock reaches scheduled_at', async () => {
    const scheduled_at = new Date(t.emulator.clock.now() + 3600_000).toISOString();
    const campaign = await t.client.campaigns.create({
      name: 'Later',
      template_id: approved,
      audience: { contact_ids: [SEED_IDS.delivered.contact] },
      variables: vars,
      scheduled_at,
    });
    expect(campaign.status).toBe('scheduled');
    await t.control('clock', { advance_seconds: 3601 });
    expect((await finished(campaign.id)).stats.sent).toBe(1);
  });

  it('refuses a send with a template that is not approved, and a past schedule', async () => {
    const campaign = await t.client.campaigns.create({
      name: 'Pending',
      template_id: SEED_IDS.templates.pending,
      audience: { contact_ids: [SEED_IDS.delivered.contact] },
    });
    expect(await rejection(t.client.campaigns.send({ id: campaign.id }))).toMatchObject({
      status: 422,
      code: 'TEMPLATE_NOT_APPROVED',
    });
    expect((await t.client.campaigns.get({ id: campaign.id })).status).toBe('draft');
    const past = await rejection(
      t.client.campaigns.create({
        name: 'Past',
        template_id: approved,
        audience: { contact_ids: [SEED_IDS.delivered.contact] },
        scheduled_at: new Date(t.emulator.clock.now() - 1000).toISOString(),
      }),
    );
    expect(past).toBeInstanceOf(ValidationFailedError);
  });

  it('answers AMBIGUOUS_INTEGRATION for an unpinned template without integration_id', async () => {
    const campaign = await t.client.campaigns.create({
      name: 'Ambiguous',
      template_id: SEED_IDS.templates.approvedUnpinned,
      audience: { contact_ids: [SEED_IDS.delivered.contact] },
    });
    expect(await rejection(t.client.campaigns.send({ id: campaign.id }))).toMatchObject({
      status: 409,
      code: 'AMBIGUOUS_INTEGRATION',
    });
  });
});
