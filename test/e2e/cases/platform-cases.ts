import { expect } from 'vitest';
import {
  AuthenticationError,
  NotFoundError,
  PermissionError,
  InvalidInputError,
  type Client,
} from '../../../src/client/index.js';
import { EMULATOR_KEY_IDS } from '../../../src/emulator/handlers/keys.js';
import { verify } from '../../../src/signature/index.js';
import { findFirst, rejection } from '../harness.js';
import type { RouteCases } from './route-case.js';

/** A public URL (the contract refuses others); subscribed to an event these cases never cause, so nothing is posted to it. */
const PUBLIC_HOOK = {
  url: 'https://hooks.example.com/convo-kit',
  events: ['template.status_update'],
  description: 'e2e public endpoint',
};

async function webhookIds(client: Client): Promise<string[]> {
  const ids: string[] = [];
  for await (const w of client.webhooks.list()) ids.push(w.id);
  return ids;
}

/** Keys and webhooks. */
export const platformCases = {
  'keys.list': async ({ client }) => {
    const test: { id: string; kind: string }[] = [];
    for await (const k of client.keys.list({ kind: 'test', limit: 1 })) test.push(k);
    expect(test.map((k) => k.id)).toContain(EMULATOR_KEY_IDS.test);
    expect(test.every((k) => k.kind === 'test' && !('key' in k))).toBe(true);
  },

  'keys.create': async ({ client, clientFor }) => {
    const created = await client.keys.create({ label: 'e2e reader', scopes: ['contacts:read'], kind: 'live' });
    expect(created).toMatchObject({
      label: 'e2e reader',
      scopes: ['contacts:read'],
      kind: 'live',
      last4: created.key.slice(-4),
    });
    const reader = clientFor(created.key);
    expect((await reader.contacts.list({ limit: 1 })).data).toHaveLength(1);
    // Its scopes are all it has.
    const refused = await rejection(reader.tickets.list());
    expect(refused).toBeInstanceOf(PermissionError);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    // A created test key behaves like the emulator's own: synthetic sends only.
    const test = await client.keys.create({
      label: 'e2e test key',
      scopes: ['contacts:read', 'messages:send'],
      kind: 'test',
    });
    expect(test.key).toMatch(/^svc_test_/);
    const tester = clientFor(test.key);
    expect(tester.isTestKey).toBe(true);
    expect(await rejection(tester.contacts.list())).toMatchObject({ status: 403, code: 'TEST_KEY_NOT_ALLOWED' });
  },

  'keys.rotate': async ({ client, clientFor }) => {
    const created = await client.keys.create({ label: 'e2e rotated', scopes: ['contacts:read'], kind: 'live' });
    const rotated = await client.keys.rotate({ id: created.id });
    expect(rotated.id).toBe(created.id);
    expect(rotated.key).not.toBe(created.key);
    // Without downtime: the new value works, and the old one keeps working for 24 hours.
    expect((await clientFor(rotated.key).contacts.list({ limit: 1 })).data).toHaveLength(1);
    expect((await clientFor(created.key).contacts.list({ limit: 1 })).data).toHaveLength(1);
    expect(Date.parse(rotated.previous_key_expires_at) - Date.parse(rotated.created_at)).toBeGreaterThanOrEqual(
      24 * 3600 * 1000 - 60_000,
    );
    expect(await rejection(client.keys.rotate({ id: EMULATOR_KEY_IDS.admin }))).toMatchObject({
      code: 'INVALID_STATE',
    });
  },

  'keys.revoke': async ({ client, clientFor }) => {
    const created = await client.keys.create({ label: 'e2e revoked', scopes: ['contacts:read'], kind: 'live' });
    expect(await client.keys.revoke({ id: created.id })).toBeUndefined();
    expect(await rejection(clientFor(created.key).contacts.list())).toBeInstanceOf(AuthenticationError);
    const live: string[] = [];
    for await (const k of client.keys.list({ kind: 'live' })) live.push(k.id);
    expect(live).not.toContain(created.id);
  },

  'webhooks.list': async ({ client }) => {
    const created = await client.webhooks.create(PUBLIC_HOOK);
    const listed = await findFirst(client.webhooks.list({ limit: 1 }), 'the new endpoint', (w) => w.id === created.id);
    expect(listed).toMatchObject({ url: PUBLIC_HOOK.url, events: PUBLIC_HOOK.events, is_active: true });
    // The secret is shown once, at registration.
    expect('secret' in listed).toBe(false);
    await client.webhooks.delete({ id: created.id });
  },

  'webhooks.create': async ({ client }) => {
    const created = await client.webhooks.create(PUBLIC_HOOK);
    expect(created).toMatchObject({ ...PUBLIC_HOOK, is_active: true });
    expect(created.secret).toMatch(/^whsec_/);
    expect(await webhookIds(client)).toContain(created.id);
    await client.webhooks.delete({ id: created.id });
    // The service takes public HTTPS only; the client says so before sending.
    const local = await rejection(client.webhooks.create({ ...PUBLIC_HOOK, url: 'http://127.0.0.1:9/hooks' }));
    expect(local).toBeInstanceOf(InvalidInputError);
  },

  'webhooks.delete': async ({ client }) => {
    const created = await client.webhooks.create(PUBLIC_HOOK);
    expect(await client.webhooks.delete({ id: created.id })).toBeUndefined();
    expect(await webhookIds(client)).not.toContain(created.id);
    expect(await rejection(client.webhooks.delete({ id: created.id }))).toBeInstanceOf(NotFoundError);
  },

  'webhooks.listDeliveries': async ({ client, emulator, loopbackWebhook }) => {
    const hook = await loopbackWebhook(['contact.updated']);
    const contact = await findFirst(client.contacts.list(), 'contact');
    await client.contacts.update({ id: contact.id, name: `E2E Delivery ${Date.now()}` });
    await emulator.dispatcher.idle();
    const attempts = [];
    for await (const a of client.webhooks.listDeliveries({ id: hook.id })) attempts.push(a);
    expect(attempts).toHaveLength(hook.received());
    expect(attempts[0]).toMatchObject({ event: 'contact.updated', status_code: 200, attempt: 1, next_retry_at: null });
    expect(attempts[0]?.delivery_id).toMatch(/^dlv_/);
    await client.webhooks.delete({ id: hook.id });
  },

  'webhooks.signPayload': async ({ client }) => {
    const created = await client.webhooks.create(PUBLIC_HOOK);
    const payload = { id: 'evt_e2e', event: 'message.received', data: { content: 'hi' } };
    const signed = await client.webhooks.signPayload({ webhook_id: created.id, payload });
    expect(signed.raw_body).toBe(JSON.stringify(payload));
    // Signed with the endpoint's own secret, the one shown at registration.
    await expect(
      verify({
        body: signed.raw_body,
        signature: signed.signature,
        timestamp: String(signed.timestamp),
        secrets: created.secret,
      }),
    ).resolves.toMatchObject({
      timestamp: signed.timestamp,
    });
    await client.webhooks.delete({ id: created.id });
    expect(await rejection(client.webhooks.signPayload({ webhook_id: created.id, payload }))).toBeInstanceOf(
      NotFoundError,
    );
  },
} satisfies RouteCases;
