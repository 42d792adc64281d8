import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'convo-kit/client';
import { createEmulator, emulatorPost, type Emulator } from 'convo-kit/emulator';
import { createReceiver, type Receiver } from 'convo-kit/receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplyApp, type ReplyApp } from '../src/reply-app.js';

// The endpoint against the emulator's real AI reply call: a customer writes in, the emulator signs a
// request to this endpoint, checks the answer and sends it (message.sent, source ai) or hands off.
const FAQ_PATH = fileURLToPath(new URL('../faq.json', import.meta.url));

let emulator: Emulator;
let closeEmulator: () => Promise<void>;
let app: ReplyApp;
let receiver: Receiver;
let hooks: Server;
let dir: string;
let post: ReturnType<typeof emulatorPost>;
let integrationId: string;
const events: { event: string; data: Record<string, unknown> }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'custom-reply-test-'));
  emulator = await createEmulator({});
  const server = await emulator.listen(0);
  closeEmulator = server.close;
  post = emulatorPost(server.url, emulator.adminKey);
  const replySecret = `rsec_${randomBytes(16).toString('hex')}`;
  app = await startReplyApp({ replySecret, port: 0, faqPath: FAQ_PATH, timeoutMs: 2000 });

  // A receiver of our own, to see what the service announces.
  let webhookSecret = '';
  receiver = createReceiver({ secrets: () => webhookSecret, dbPath: join(dir, 'deliveries.db') });
  receiver.on('message.sent', ({ event, data }) => void events.push({ event, data }));
  receiver.on('ticket.created', ({ event, data }) => void events.push({ event, data }));
  await receiver.start();
  hooks = createServer(receiver.listener);
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  ({ secret: webhookSecret } = await post<{ secret: string }>('/v1/webhooks', {
    url: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/webhooks`,
    events: ['message.sent', 'ticket.created'],
  }));

  // A group with AI on, a phone number in it, and the group's custom reply provider pointing here.
  const client = createClient({ baseUrl: server.url, apiKey: emulator.adminKey });
  const group = await client.groups.create({
    name: 'Acme support',
    ai_enabled: true,
    brain_config: { business_name: 'Acme Outdoor', tone: 'friendly' },
  });
  integrationId = (await client.channels.list({ channel: 'phone' })).data.at(-1)!.integration_id;
  await client.channels.update({ integration_id: integrationId, group_id: group.group_id, ai_enabled: true });
  // A raw PUT with the admin key: the typed client keeps the service's https-only rule, the emulator allows loopback.
  const put = await fetch(`${server.url}/v1/channels/groups/${group.group_id}/providers/custom_reply`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      enabled: true,
      config: { url: app.replyUrl, timeout_ms: 3000, send_conversation_history: true, send_knowledge_context: true },
      secret: replySecret,
    }),
  });
  expect(put.status).toBe(200);
});

afterAll(async () => {
  await emulator.dispatcher.idle();
  await receiver.close();
  hooks.closeAllConnections();
  await new Promise<void>((resolve) => hooks.close(() => resolve()));
  await app.close();
  await closeEmulator();
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

let handle = 14155550400;
/** A new customer writes in; resolves with the conversation once the AI reply call has finished. */
async function customerWrites(content: string): Promise<string> {
  const { conversation } = await post<{ conversation: { id: string } }>('/_emulator/inbound', {
    channel: 'phone',
    integration_id: integrationId,
    from: { handle: `+${handle++}` },
    content,
  });
  await emulator.aiReplies.idle();
  return conversation.id;
}

async function announced(event: string, conversationId: string) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    await emulator.dispatcher.idle();
    await receiver.idle();
    const found = events.find((e) => e.event === event && e.data.conversation_id === conversationId);
    if (found) return found.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${event} for ${conversationId}`);
}

describe('the emulator calls this endpoint for AI replies', () => {
  it('sends the FAQ answer as message.sent with source ai', async () => {
    const conversationId = await customerWrites('Hi! Are you open on Saturday?');
    const sent = await announced('message.sent', conversationId);
    expect(sent).toMatchObject({
      source: 'ai',
      direction: 'sent',
      content: app.faq.entries.find((e) => e.id === 'hours')!.answer,
    });
    expect(await (await fetch(`${app.url}/health`)).json()).toMatchObject({ answered: 1 });
  });

  it('hands the conversation to a person when the FAQ has no answer', async () => {
    const conversationId = await customerWrites('Can I speak to the manager about my complaint?');
    const ticket = await announced('ticket.created', conversationId);
    expect(ticket).toMatchObject({ kind: 'handoff', status: 'open' });
    expect(events.some((e) => e.event === 'message.sent' && e.data.conversation_id === conversationId)).toBe(false);
  });
});
