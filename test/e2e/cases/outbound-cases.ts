import { expect } from 'vitest';
import { SEED_IDS } from '../../../src/emulator/seed.js';
import { findFirst, rejection } from '../harness.js';
import type { Client } from '../../../src/client/index.js';
import type { RouteCases } from './route-case.js';

const unique = () => `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
const vars = { '1': 'A-1001', '2': 'tomorrow' };
/** A fresh ordinary number (never the sandbox's 0001-0003 endings). */
const freshPhone = () => `+1415${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}9`;

/** An active journey of the seeded approved template: step 0 at once, step 1 a day later. */
async function activeJourney(client: Client, events: string[] = []) {
  const journey = await client.journeys.create({
    name: 'E2E journey',
    trigger_name: `e2e.${unique()}`,
    events,
    steps: [
      { template_id: SEED_IDS.templates.approved, delay_seconds: 0 },
      { template_id: SEED_IDS.templates.approved, delay_seconds: 86_400 },
    ],
  });
  return client.journeys.setStatus({ id: journey.id, status: 'active' });
}

/** Templates, journeys, triggers, business events and campaigns: the outbound surface. */
export const outboundCases = {
  'templates.list': async ({ client }) => {
    const approved = await client.templates.list({ status: 'approved', limit: 100 });
    expect(approved.data.length).toBeGreaterThan(0);
    expect(approved.data.every((t) => t.status === 'approved')).toBe(true);
    const all = await client.templates.list({ limit: 100 });
    expect(all.data.some((t) => t.status !== 'approved')).toBe(true);
  },

  'templates.create': async ({ client }) => {
    const name = `e2e_${unique()}`;
    const created = await client.templates.create({
      name,
      category: 'UTILITY',
      body: 'Your order {{1}} has shipped; tracking {{2}}.',
    });
    expect(created).toMatchObject({
      name,
      language: 'en',
      category: 'UTILITY',
      status: 'pending_review',
      variables: ['1', '2'],
      pinned_integration_id: null,
    });
    expect(created.validation?.proposed_category).toBe('UTILITY');
    expect(await client.templates.get({ id: created.id })).toMatchObject({ id: created.id, status: 'pending_review' });
  },

  'templates.get': async ({ client }) => {
    const listed = await findFirst(client.templates.list({ status: 'approved' }), 'approved template');
    const got = await client.templates.get({ id: listed.id });
    expect(got).toMatchObject({ id: listed.id, name: listed.name, category: listed.category, status: 'approved' });
    expect(await rejection(client.templates.get({ id: 'tpl_does_not_exist' }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  },

  'templates.delete': async ({ client }) => {
    const created = await client.templates.create({ name: `e2e_gone_${unique()}`, category: 'UTILITY', body: 'Bye' });
    await client.templates.delete({ id: created.id });
    expect(await rejection(client.templates.get({ id: created.id }))).toMatchObject({ status: 404 });
    expect(await rejection(client.templates.delete({ id: created.id }))).toMatchObject({ status: 404 });
  },

  'templates.validateDraft': async ({ client }) => {
    const utility = await client.templates.validateDraft({ body: 'Your order {{1}} has shipped.' });
    expect(utility).toMatchObject({
      validation_status: 'passed',
      proposed_category: 'UTILITY',
      policy_risk: 'low',
      utility_coaching: { flagged_phrases: [], qualifies_as_utility: true },
    });
    const promo = await client.templates.validateDraft({
      body: 'Flash sale on your order: buy now!',
      category: 'UTILITY',
    });
    expect(promo).toMatchObject({ validation_status: 'needs_changes', proposed_category: 'MARKETING' });
    expect(promo.utility_coaching.flagged_phrases).toEqual(['sale', 'buy now']);
    // Deterministic: the same copy, the same answer.
    expect(
      await client.templates.validateDraft({ body: 'Flash sale on your order: buy now!', category: 'UTILITY' }),
    ).toEqual(promo);
  },

  'templates.validate': async ({ client }) => {
    const validation = await client.templates.validate({ id: SEED_IDS.templates.rejected });
    expect(validation).toMatchObject({ proposed_category: 'MARKETING' });
    expect(validation.utility_coaching.flagged_phrases).toEqual(['we miss you', 'come back', 'surprise']);
    expect((await client.templates.get({ id: SEED_IDS.templates.rejected })).validation).toEqual(validation);
  },

  'templates.submit': async ({ client, control }) => {
    const created = await client.templates.create({ name: `e2e_submit_${unique()}`, category: 'UTILITY', body: 'Hi' });
    await control(`templates/${created.id}/review`, { status: 'rejected', reason: 'Too short' });
    expect(await client.templates.get({ id: created.id })).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Too short',
    });
    const submitted = await client.templates.submit({ id: created.id });
    expect(submitted).toMatchObject({ id: created.id, status: 'pending_review', rejection_reason: null });
    expect(await rejection(client.templates.submit({ id: created.id }))).toMatchObject({
      status: 422,
      code: 'INVALID_STATE',
    });
  },

  'templates.send': async ({ client }) => {
    const to = '14155557001';
    const sent = await client.templates.send({
      id: SEED_IDS.templates.approved,
      to,
      variables: { '1': 'A-1001', '2': 'tomorrow' },
    });
    expect(sent).toMatchObject({
      direction: 'sent',
      channel: 'phone',
      // The template's pinned number.
      integration_id: SEED_IDS.phoneMain,
      content: 'Your order A-1001 has shipped and arrives tomorrow.',
      source: 'api',
      delivery_status: 'queued',
    });
    const conversation = await client.conversations.get({ id: sent.conversation_id });
    expect(conversation.customer.handle).toBe(`+${to}`);
    expect((await client.messages.get({ id: sent.id })).content).toBe(sent.content);
  },

  'journeys.list': async ({ client }) => {
    const journey = await activeJourney(client);
    const active = await client.journeys.list({ status: 'active', limit: 100 });
    expect(active.data.map((j) => j.id)).toContain(journey.id);
    expect(active.data.every((j) => j.status === 'active')).toBe(true);
    expect((await client.journeys.list({ status: 'draft', limit: 100 })).data.map((j) => j.id)).not.toContain(
      journey.id,
    );
  },

  'journeys.create': async ({ client }) => {
    const trigger_name = `e2e.${unique()}`;
    const created = await client.journeys.create({
      name: 'Onboarding',
      trigger_name,
      events: ['order.shipped'],
      steps: [{ template_id: SEED_IDS.templates.approved, delay_seconds: 3600 }],
    });
    expect(created).toMatchObject({
      trigger_name,
      status: 'draft',
      events: ['order.shipped'],
      required_variables: ['1', '2'],
      steps: [
        { position: 0, template_id: SEED_IDS.templates.approved, template_name: 'order_update', delay_seconds: 3600 },
      ],
    });
    expect(
      await rejection(
        client.journeys.create({
          name: 'Pending',
          trigger_name: `e2e.${unique()}`,
          steps: [{ template_id: SEED_IDS.templates.pending, delay_seconds: 0 }],
        }),
      ),
    ).toMatchObject({ status: 422, code: 'TEMPLATE_NOT_APPROVED' });
  },

  'journeys.get': async ({ client }) => {
    const journey = await activeJourney(client);
    expect(await client.journeys.get({ id: journey.id })).toEqual(journey);
    expect(await rejection(client.journeys.get({ id: 'jrn_nope' }))).toMatchObject({ status: 404 });
  },

  'journeys.replaceSteps': async ({ client }) => {
    const journey = await activeJourney(client);
    const replaced = await client.journeys.replaceSteps({
      id: journey.id,
      steps: [{ template_id: SEED_IDS.templates.approvedMarketing, delay_seconds: 60 }],
    });
    expect(replaced.steps).toEqual([
      {
        position: 0,
        template_id: SEED_IDS.templates.approvedMarketing,
        template_name: 'weekend_offer',
        delay_seconds: 60,
      },
    ]);
    expect(replaced.required_variables).toEqual(['1']);
  },

  'journeys.setStatus': async ({ client }) => {
    const journey = await activeJourney(client);
    expect(journey.status).toBe('active');
    const paused = await client.journeys.setStatus({ id: journey.id, status: 'paused' });
    expect(paused.status).toBe('paused');
    expect(
      await rejection(
        client.trigger.enroll({ trigger_name: journey.trigger_name, phone: freshPhone(), metadata: vars }),
      ),
    ).toMatchObject({ status: 422, code: 'INVALID_STATE' });
  },

  'trigger.enroll': async ({ client }) => {
    const journey = await activeJourney(client);
    const phone = freshPhone();
    const result = await client.trigger.enroll({ trigger_name: journey.trigger_name, phone, metadata: vars });
    expect(result).toMatchObject({ journey_id: journey.id, status_url: `/v1/trigger/status/${result.action_id}` });
    // The first step (delay 0) went out before the answer.
    const status = await client.trigger.status({ id: result.action_id });
    expect(['sent', 'delivered']).toContain(status.status);
  },

  'trigger.limits': async ({ client }) => {
    const before = await client.trigger.limits();
    expect(before.quota).toBeGreaterThan(0);
    const journey = await activeJourney(client);
    await client.trigger.enroll({ trigger_name: journey.trigger_name, phone: freshPhone(), metadata: vars });
    const after = await client.trigger.limits();
    expect(after.used).toBe(before.used + 1);
    expect(after.remaining).toBe(after.quota! - after.used);
  },

  'trigger.status': async ({ client, control }) => {
    const journey = await activeJourney(client);
    const { action_id, enrollment_id } = await client.trigger.enroll({
      trigger_name: journey.trigger_name,
      phone: '+14155580002',
      metadata: vars,
    });
    await control('clock', { advance_seconds: 1 });
    // A number ending 0002: accepted, then throttled; explained from the error table.
    const failed = await client.trigger.status({ id: action_id });
    expect(failed).toMatchObject({ enrollment_id, status: 'failed', fault: 'provider', error_code: '131049' });
    expect(failed.what_happened).toContain((await client.developer.explainError({ code: '131049' })).what_happened);
    expect(await rejection(client.trigger.status({ id: 'act_nope' }))).toMatchObject({ status: 404 });
  },

  'trigger.history': async ({ client }) => {
    const journey = await activeJourney(client);
    const phone = freshPhone();
    const { enrollment_id } = await client.trigger.enroll({
      trigger_name: journey.trigger_name,
      phone,
      metadata: vars,
    });
    const history = await client.trigger.history({ phone });
    expect(history.data).toEqual([expect.objectContaining({ id: enrollment_id, journey_id: journey.id, phone })]);
  },

  'trigger.validate': async ({ client }) => {
    const journey = await activeJourney(client);
    const before = await client.trigger.limits();
    const dry = await client.trigger.validate({
      trigger_name: journey.trigger_name,
      phone: freshPhone(),
      metadata: { '1': 'x' },
    });
    expect(dry).toMatchObject({ valid: false, journey_id: journey.id, missing_variables: ['2'] });
    expect(
      await client.trigger.validate({ trigger_name: journey.trigger_name, phone: freshPhone(), metadata: vars }),
    ).toMatchObject({
      valid: true,
      issues: [],
    });
    expect((await client.trigger.limits()).used).toBe(before.used);
  },

  'trigger.batch': async ({ client }) => {
    const journey = await activeJourney(client);
    const phones = [freshPhone(), freshPhone(), freshPhone()];
    const { results } = await client.trigger.batch({
      trigger_name: journey.trigger_name,
      recipients: [
        { phone: phones[0]!, metadata: vars },
        { phone: phones[1]!, metadata: { '1': 'only one' } },
        { phone: phones[2]!, metadata: vars },
      ],
    });
    expect(results.map((r) => [r.index, r.phone, r.ok, r.error?.code ?? null])).toEqual([
      [0, phones[0], true, null],
      [1, phones[1], false, 'VALIDATION_FAILED'],
      [2, phones[2], true, null],
    ]);
  },

  'trigger.stopEnrollments': async ({ client, control }) => {
    const journey = await activeJourney(client);
    const phone = freshPhone();
    const { enrollment_id } = await client.trigger.enroll({
      trigger_name: journey.trigger_name,
      phone,
      metadata: vars,
    });
    expect(await client.trigger.stopEnrollments({ phone })).toEqual({ stopped: 1 });
    await control('clock', { advance_seconds: 2 * 86_400 });
    const [enrollment] = (await client.trigger.history({ phone })).data;
    expect(enrollment).toMatchObject({ id: enrollment_id, status: 'stopped', current_step: 1 });
    const step2 = await client.trigger.status({ id: enrollment!.action_ids[1]! });
    expect(step2.status).toBe('skipped');
  },

  'events.fire': async ({ client }) => {
    const event = `order.shipped.${unique()}`;
    const journey = await activeJourney(client, [event]);
    const phone = freshPhone();
    const accepted = await client.events.fire({ event, phone, metadata: vars });
    expect(accepted).toMatchObject({ event, matched_journeys: [journey.id] });
    expect(accepted.enrollment_ids).toHaveLength(1);
    expect((await client.trigger.history({ phone })).data[0]).toMatchObject({
      id: accepted.enrollment_ids[0],
      journey_id: journey.id,
    });
    expect(await client.events.fire({ event: 'nothing.listens', phone })).toMatchObject({
      matched_journeys: [],
      enrollment_ids: [],
    });
  },

  'webhooks.send': async ({ client }) => {
    const journey = await client.journeys.create({
      name: 'Later',
      trigger_name: `e2e.${unique()}`,
      steps: [{ template_id: SEED_IDS.templates.approved, delay_seconds: 3600 }],
    });
    await client.journeys.setStatus({ id: journey.id, status: 'active' });
    const later = await client.webhooks.send({
      trigger_name: journey.trigger_name,
      phone: freshPhone(),
      metadata: vars,
    });
    expect((await client.trigger.status({ id: later.action_id })).status).toBe('scheduled');
    const now = await client.webhooks.send({
      trigger_name: journey.trigger_name,
      phone: freshPhone(),
      metadata: vars,
      send_now: true,
    });
    expect(['sent', 'delivered']).toContain((await client.trigger.status({ id: now.action_id })).status);
  },

  'webhooks.triggerCampaign': async ({ client }) => {
    const journey = await activeJourney(client);
    const result = await client.webhooks.triggerCampaign({
      trigger_name: journey.trigger_name,
      phone: freshPhone(),
      metadata: vars,
    });
    expect(result.journey_id).toBe(journey.id);
    expect(
      await rejection(client.webhooks.triggerCampaign({ trigger_name: 'no.such.trigger', phone: freshPhone() })),
    ).toMatchObject({
      status: 404,
    });
  },

  'campaigns.list': async ({ client }) => {
    const created = await client.campaigns.create({
      name: 'Listed',
      template_id: SEED_IDS.templates.approved,
      audience: { contact_ids: [SEED_IDS.delivered.contact] },
      variables: vars,
    });
    const drafts = await client.campaigns.list({ status: 'draft', limit: 100 });
    expect(drafts.data.map((c) => c.id)).toContain(created.id);
    expect(drafts.data.every((c) => c.status === 'draft')).toBe(true);
  },

  'campaigns.create': async ({ client, emulator }) => {
    const scheduled_at = new Date(emulator.clock.now() + 3_600_000).toISOString();
    const created = await client.campaigns.create({
      name: 'Scheduled',
      template_id: SEED_IDS.templates.approved,
      audience: { tags: ['vip'] },
      variables: vars,
      scheduled_at,
    });
    expect(created).toMatchObject({ status: 'scheduled', scheduled_at, audience: { tags: ['vip'] } });
    expect(
      await rejection(
        client.campaigns.create({
          name: 'x',
          template_id: SEED_IDS.templates.approved,
          audience: { contact_ids: ['ct_nope'] },
        }),
      ),
    ).toMatchObject({ status: 404 });
  },

  'campaigns.get': async ({ client }) => {
    const created = await client.campaigns.create({
      name: 'Fetched',
      template_id: SEED_IDS.templates.approved,
      audience: { contact_ids: [SEED_IDS.delivered.contact] },
    });
    expect(await client.campaigns.get({ id: created.id })).toMatchObject({
      id: created.id,
      name: 'Fetched',
      status: 'draft',
    });
  },

  'campaigns.update': async ({ client, emulator }) => {
    const created = await client.campaigns.create({
      name: 'Draft',
      template_id: SEED_IDS.templates.approved,
      audience: { contact_ids: [SEED_IDS.delivered.contact] },
      variables: vars,
    });
    const scheduled_at = new Date(emulator.clock.now() + 86_400_000).toISOString();
    const scheduled = await client.campaigns.update({ id: created.id, name: 'Renamed', scheduled_at });
    expect(scheduled).toMatchObject({ name: 'Renamed', status: 'scheduled', scheduled_at });
    const canceled = await client.campaigns.update({ id: created.id, status: 'canceled' });
    expect(canceled.status).toBe('canceled');
    expect(await rejection(client.campaigns.update({ id: created.id, name: 'Too late' }))).toMatchObject({
      status: 422,
      code: 'INVALID_STATE',
    });
  },

  'campaigns.send': async ({ client, testClient }) => {
    const created = await client.campaigns.create({
      name: 'Sent',
      template_id: SEED_IDS.templates.approved,
      audience: { contact_ids: [SEED_IDS.delivered.contact, SEED_IDS.optedOut.contact] },
      variables: vars,
    });
    const sending = await client.campaigns.send({ id: created.id });
    expect(sending.status).toBe('sending');
    let done = await client.campaigns.get({ id: created.id });
    for (let i = 0; i < 50 && done.status !== 'sent'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      done = await client.campaigns.get({ id: created.id });
    }
    expect(done).toMatchObject({ status: 'sent', stats: { recipients: 2, sent: 1, skipped: 1 } });
    // The test key's synthetic 201: nothing is stored or sent.
    expect(await testClient.campaigns.send({ id: created.id })).toMatchObject({ id: created.id, test: true });
  },
} satisfies RouteCases;
