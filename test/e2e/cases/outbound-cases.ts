import { expect } from 'vitest';
import { SEED_IDS } from '../../../src/emulator/seed.js';
import { findFirst, rejection } from '../harness.js';
import type { RouteCases } from './route-case.js';

const unique = () => `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

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
} satisfies RouteCases;
