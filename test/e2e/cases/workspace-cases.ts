import { expect } from 'vitest';
import { PLAN_RATE_LIMITS, SCOPES } from '../../../src/api/index.js';
import { NotFoundError } from '../../../src/client/index.js';
import { EMULATOR_KEY_IDS } from '../../../src/emulator/handlers/keys.js';
import { findFirst, rejection } from '../harness.js';
import type { RouteCases } from './route-case.js';

/** Connected accounts, analytics, usage, developer and status (the emulator runs the default dev_pro plan). */
export const workspaceCases = {
  'channels.list': async ({ client }) => {
    const channels: string[] = [];
    for await (const a of client.channels.list({ limit: 1 })) channels.push(a.channel);
    // One account per channel kind plus a second phone number (the seeded workspace).
    expect(channels.sort()).toEqual(['phone', 'phone', 'photo_social', 'social_page']);
    const phones = await client.channels.list({ channel: 'phone' });
    expect(phones.data.map((a) => a.channel)).toEqual(['phone', 'phone']);
  },

  'channels.createConnectSession': async ({ client }) => {
    const session = await client.channels.createConnectSession({
      channel: 'social_page',
      return_url: 'https://app.example.com/connected',
    });
    expect(session).toMatchObject({ channel: 'social_page', return_url: 'https://app.example.com/connected' });
    expect(session.url).toMatch(/^https:\/\//);
    expect(Date.parse(session.expires_at)).toBeGreaterThan(Date.parse(session.created_at));
  },

  'channels.update': async ({ client }) => {
    const photo = await findFirst(client.channels.list({ channel: 'photo_social' }), 'photo_social account');
    const grouped = await findFirst(client.channels.list(), 'account in a group', (a) => a.group_id !== null);
    const updated = await client.channels.update({
      integration_id: photo.integration_id,
      ai_comment_replies_enabled: !photo.ai_comment_replies_enabled,
      group_id: grouped.group_id,
    });
    expect(updated).toMatchObject({
      integration_id: photo.integration_id,
      ai_comment_replies_enabled: !photo.ai_comment_replies_enabled,
      group_id: grouped.group_id,
    });
    const inGroup = await client.channels.list({ group_id: grouped.group_id ?? undefined });
    expect(inGroup.data.map((a) => a.integration_id)).toContain(photo.integration_id);
    const back = await client.channels.update({
      integration_id: photo.integration_id,
      ai_comment_replies_enabled: photo.ai_comment_replies_enabled,
      group_id: null,
    });
    expect(back).toMatchObject({ ai_comment_replies_enabled: photo.ai_comment_replies_enabled, group_id: null });
    // The phone channel has no comments.
    const phone = await findFirst(client.channels.list({ channel: 'phone' }), 'phone account');
    expect(
      await rejection(
        client.channels.update({ integration_id: phone.integration_id, ai_comment_replies_enabled: true }),
      ),
    ).toMatchObject({ status: 422, code: 'INVALID_PLATFORM' });
  },

  'analytics.summary': async ({ client }) => {
    const recent = await client.analytics.summary();
    expect(recent.from <= recent.to).toBe(true);
    expect(recent.conversations.total).toBeGreaterThan(0);
    expect(recent.messages.sent + recent.messages.received).toBeGreaterThan(0);
    // Computed from the emulator's own data: a range before the workspace existed is empty.
    const past = await client.analytics.summary({ from: '2001-01-01', to: '2001-01-31' });
    expect(past).toMatchObject({
      from: '2001-01-01',
      to: '2001-01-31',
      conversations: { total: 0 },
      messages: { sent: 0, received: 0 },
    });
  },

  'usage.get': async ({ client }) => {
    const { data, response } = await client.usage.get().withResponse();
    expect(data.plan).toBe('dev_pro');
    expect(data.rate_limit.limit).toBe(PLAN_RATE_LIMITS.dev_pro);
    expect(response.rateLimit?.limit).toBe(PLAN_RATE_LIMITS.dev_pro);
    expect(data.requests).toBeGreaterThan(0);
    expect(data.usage.messages).toBeGreaterThan(0);
  },

  'developer.capabilities': async ({ client, testClient }) => {
    const admin = await client.developer.capabilities();
    expect(admin.key).toMatchObject({ id: EMULATOR_KEY_IDS.admin, kind: 'live' });
    expect([...admin.key.scopes].sort()).toEqual([...SCOPES].sort());
    expect(admin.plan).toBe('dev_pro');
    expect(admin.features.free_text_messages).toBe(true);
    // developer routes need only a live key: the test key is refused.
    expect(await rejection(testClient.developer.capabilities())).toMatchObject({
      status: 403,
      code: 'TEST_KEY_NOT_ALLOWED',
    });
  },

  'developer.onboarding': async ({ client }) => {
    const onboarding = await client.developer.onboarding();
    expect(onboarding.steps.length).toBe(onboarding.total);
    expect(onboarding.completed).toBe(onboarding.steps.filter((s) => s.done).length);
    expect(onboarding.steps.find((s) => s.id === 'connect_channel')?.done).toBe(true);
  },

  'developer.limits': async ({ client }) => {
    expect(await client.developer.limits()).toMatchObject({
      plan: 'dev_pro',
      rate_limit_per_minute: PLAN_RATE_LIMITS.dev_pro,
      window_seconds: 60,
      read_only: false,
    });
  },

  'developer.explainError': async ({ client }) => {
    const explained = await client.developer.explainError({ code: '131026' });
    expect(explained.code).toBe('131026');
    expect(explained.what_happened.length).toBeGreaterThan(0);
    expect(['platform', 'provider']).toContain(explained.fault);
    expect(await rejection(client.developer.explainError({ code: 'no_such_code' }))).toBeInstanceOf(NotFoundError);
  },

  'status.get': async ({ clientFor }) => {
    // No authentication: even an unknown key reads it.
    const { data, response } = await clientFor(`svc_live_${'u'.repeat(32)}`)
      .status.get()
      .withResponse();
    expect(response.status).toBe(200);
    // Not counted against any key, so no rate-limit headers.
    expect(response.rateLimit).toBeNull();
    expect(data).toMatchObject({ status: 'ok', dependencies: { database: 'ok', cache: 'ok' } });
  },
} satisfies RouteCases;
