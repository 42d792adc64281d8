import type { Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Message, Ticket } from '../../src/resources/index.js';
import { replyToComment } from '../../src/emulator/ai-reply/index.js';
import { putProvider } from '../../src/emulator/domain/index.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { stores } from '../../src/emulator/state/stores.js';
import { createReplyEndpoint, type CustomReplyRequest, type ReplyFunction } from '../../src/reply/index.js';
import { PROBE_CLAIMS } from '../emulator/fixtures/probe-claims.js';
import { startE2e, type E2e } from './harness.js';
import { closeServer, listen, recordWebhooks, replyEndpoint, until, type RecordedWebhook } from './reply-harness.js';

// The emulator's AI replies end to end: a customer writes in through /_emulator/inbound, the emulator
// calls a real convo-kit/reply endpoint on a loopback port, checks the answer, and sends it or hands off.
const SECRET = 'rsec_e2e_9f2b7c4d1a6e3f80';
const ACCOUNT = SEED_IDS.phoneSupport; // in the seeded group grp_support, AI off until a test turns it on
const GROUP = SEED_IDS.group;

let t: E2e;
let endpointUrl: string;
let server: Server;
let answer: ReplyFunction;
let requests: CustomReplyRequest[];
let hooksServer: Server;
let webhookBodies: RecordedWebhook[];

async function api(method: string, path: string, body?: unknown) {
  const res = await t.api(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * The provider's timeout_ms: the most the service allows, so that a loaded machine never times out an endpoint
 * that answers; the case about lateness sets the least and answers after it (load only makes that later).
 */
const REPLY_TIMEOUT_MS = 10_000;
const SHORTEST_REPLY_TIMEOUT_MS = 1_000;

const putGroupProvider = (config: Record<string, unknown>, secret = SECRET) =>
  api('PUT', `/v1/channels/groups/${GROUP}/providers/custom_reply`, {
    enabled: true,
    config: { url: `${endpointUrl}/reply`, timeout_ms: REPLY_TIMEOUT_MS, ...config },
    secret,
  });

let handle = 14155550300;
/** A new customer writes in; resolves once every AI reply call has finished. */
async function customerWrites(content: string, from = `+${handle++}`) {
  const result = (await t.control('inbound', {
    channel: 'phone',
    integration_id: ACCOUNT,
    from: { handle: from },
    content,
  })) as {
    conversation: { id: string };
    message: Message;
  };
  await t.emulator.aiReplies.idle();
  return { conversationId: result.conversation.id, message: result.message, from };
}

async function aiMessages(conversationId: string) {
  const { data } = await t.client.conversations.listMessages({ id: conversationId });
  return data.filter((m) => m.source === 'ai');
}

async function handoffs(conversationId: string): Promise<Ticket[]> {
  const { data } = await t.client.tickets.list({ conversation_id: conversationId });
  return data.filter((ticket) => ticket.kind === 'handoff');
}

beforeAll(async () => {
  t = await startE2e();
  ({ server, url: endpointUrl } = await replyEndpoint(SECRET, (request, context) => {
    requests.push(request);
    return answer(request, context);
  }));
  ({ server: hooksServer } = await recordWebhooks(t, ['message.sent', 'ticket.created'], (b) => webhookBodies.push(b)));
  await t.client.channels.update({ integration_id: ACCOUNT, ai_enabled: true });
  await t.client.groups.addKnowledge({
    group_id: GROUP,
    type: 'faq',
    title: 'Opening hours',
    content: 'We are open Monday to Saturday from 9:00 to 18:00. On Sundays we are closed.',
  });
  await t.client.groups.addKnowledge({
    group_id: GROUP,
    type: 'policy',
    title: 'Returns',
    content: 'Unworn items can be returned within 30 days.',
  });
});

afterAll(async () => {
  await t.close();
  await closeServer(server);
  await closeServer(hooksServer);
});

beforeEach(async () => {
  requests = [];
  webhookBodies = [];
  answer = () => 'We open at 9:00 on Saturdays.';
  await putGroupProvider({
    send_conversation_history: true,
    send_knowledge_context: true,
    send_verified_tool_context: true,
  });
  await t.client.groups.update({
    group_id: GROUP,
    ai_enabled: true,
    brain_config: { business_name: 'Convo Kit Shop', tone: 'friendly' },
  });
});

describe('a reply from the custom reply endpoint', () => {
  it('is sent on the conversation as message.sent with source ai, from a signed, bounded request', async () => {
    const { conversationId, message } = await customerWrites('When are you open on Saturday?');
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request).toMatchObject({ version: '1', task: 'reply' });
    expect(request.conversation_history.at(-1)).toEqual({
      role: 'customer',
      content: 'When are you open on Saturday?',
      created_at: message.created_at,
    });
    expect(request.verified_knowledge.map((k) => k.title)).toEqual(['Opening hours']);
    expect(request.verified_tool_context.map((r) => r.tool)).toEqual(['contact', 'conversation', 'tickets']);
    expect(request.reply_instructions).toContain('Convo Kit Shop');
    expect(request.response_schema).toMatchObject({ required: ['reply'] });
    const [sent] = await aiMessages(conversationId);
    expect(sent).toMatchObject({ content: 'We open at 9:00 on Saturdays.', direction: 'sent', source: 'ai' });
    const event = await until(
      () => webhookBodies.find((b) => b.event === 'message.sent' && b.data.id === sent!.id),
      'message.sent for the AI reply',
    );
    expect(event.data.source).toBe('ai');
    expect(await handoffs(conversationId)).toEqual([]);
  });

  it('carries at most the last 20 messages, ending with the one to answer', async () => {
    const from = '+14155550777';
    let last: Awaited<ReturnType<typeof customerWrites>> | undefined;
    for (let i = 1; i <= 13; i++) last = await customerWrites(`question number ${i}`, from);
    // 13 customer messages and 12 AI replies so far: 25 in the conversation.
    const request = requests.at(-1)!;
    expect(request.conversation_history).toHaveLength(20);
    expect(request.conversation_history.at(-1)!.content).toBe('question number 13');
    expect(request.conversation_history.map((m) => m.role)).toContain('business');
    expect((await aiMessages(last!.conversationId)).length).toBe(13);
  });

  it('sends no history (not even the message), no knowledge and no tool context when the switches are off', async () => {
    await putGroupProvider({});
    await customerWrites('first question about opening hours', '+14155550778');
    const { conversationId } = await customerWrites('When are you open on Saturday?', '+14155550778');
    const request = requests.at(-1)!;
    expect(request.conversation_history).toEqual([]);
    expect(request.verified_knowledge).toEqual([]);
    expect(request.verified_tool_context).toEqual([]);
    // The endpoint may still answer (from its instructions); the reply is checked and sent as usual.
    expect((await aiMessages(conversationId)).map((m) => m.content)).toContain('We open at 9:00 on Saturdays.');
  });
});

describe('any failure sends nothing and hands off', () => {
  it.each([
    [
      'the endpoint throws (500)',
      () => {
        throw new Error('model down');
      },
    ],
    ['the endpoint has no answer (422)', () => null],
    ['the reply claims an action the service did not take', () => 'Done: I have refunded your order.'],
  ])('when %s', async (_name, behaviour) => {
    answer = behaviour as ReplyFunction;
    await expectHandedOff();
  });

  it('when the endpoint answers past timeout_ms', async () => {
    await putGroupProvider({ timeout_ms: SHORTEST_REPLY_TIMEOUT_MS });
    answer = () => new Promise<string>((resolve) => setTimeout(() => resolve('late'), SHORTEST_REPLY_TIMEOUT_MS + 500));
    await expectHandedOff();
  });

  /** One customer message, one call to the endpoint, no AI message, and a handoff ticket announced by webhook. */
  async function expectHandedOff() {
    const { conversationId } = await customerWrites('Where is my refund?');
    expect(requests).toHaveLength(1);
    expect(await aiMessages(conversationId)).toEqual([]);
    const [ticket] = await handoffs(conversationId);
    expect(ticket).toMatchObject({ kind: 'handoff', status: 'open' });
    await until(
      () => webhookBodies.find((b) => b.event === 'ticket.created' && b.data.id === ticket!.id),
      'ticket.created',
    );
  }

  // The probe's wordings (issue 25): six of the seven reached the customer while the check was a phrase table.
  it.each(PROBE_CLAIMS)(
    'when the reply claims, in other words, an action the service did not take: "%s"',
    async (claim) => {
      answer = () => claim;
      const { conversationId } = await customerWrites('Where is my refund?');
      expect(await aiMessages(conversationId)).toEqual([]);
      expect(await handoffs(conversationId)).toHaveLength(1);
    },
  );

  it('sends a reply that only speaks of refunds', async () => {
    answer = () => 'Refunds usually take 5 days. I can help you request a refund.';
    const { conversationId } = await customerWrites('How long does a refund take?');
    expect((await aiMessages(conversationId)).map((m) => m.content)).toEqual([
      'Refunds usually take 5 days. I can help you request a refund.',
    ]);
    expect(await handoffs(conversationId)).toEqual([]);
  });

  it('when the provider signs with another secret (the endpoint answers 401)', async () => {
    await putGroupProvider({ send_conversation_history: true }, 'rsec_not_the_endpoints');
    const { conversationId } = await customerWrites('When are you open?');
    expect(requests).toEqual([]);
    expect(await handoffs(conversationId)).toHaveLength(1);
  });

  it('when the endpoint is not listening', async () => {
    await api('PUT', `/v1/channels/groups/${GROUP}/providers/custom_reply`, {
      enabled: true,
      config: { url: 'http://127.0.0.1:9/reply', timeout_ms: 1000 },
      secret: SECRET,
    });
    const { conversationId } = await customerWrites('When are you open?');
    expect(await handoffs(conversationId)).toHaveLength(1);
  });

  it('opens one handoff ticket per conversation while it is open, and then a handed-off claim is true', async () => {
    answer = () => null;
    const from = '+14155550779';
    const first = await customerWrites('hello?', from);
    await customerWrites('anyone there?', from);
    expect(await handoffs(first.conversationId)).toHaveLength(1);
    answer = () => "I've passed this on to our team.";
    await customerWrites('ok thanks', from);
    const [reply] = await aiMessages(first.conversationId);
    expect(reply?.content).toBe("I've passed this on to our team.");
    expect(requests.at(-1)!.verified_tool_context.find((r) => r.tool === 'tickets')!.actions).toEqual(['handoff']);
  });

  it('a resolved handoff ticket is done (ticket.closed): the next failure opens a new one, and no reply may claim it', async () => {
    answer = () => null;
    const from = '+14155550781';
    const first = await customerWrites('hello?', from);
    const [ticket] = await handoffs(first.conversationId);
    await t.client.tickets.update({ id: ticket!.id, status: 'resolved' });
    answer = () => "I've passed this on to our team.";
    await customerWrites('still there?', from);
    expect(requests.at(-1)!.verified_tool_context.find((r) => r.tool === 'tickets')).toMatchObject({
      data: { open: [] },
      actions: [],
    });
    expect(await aiMessages(first.conversationId)).toEqual([]);
    const tickets = await handoffs(first.conversationId);
    expect(tickets.map((x) => x.status).sort()).toEqual(['open', 'resolved']);
  });
});

describe('the gates', () => {
  it.each([
    ['the account has AI off', () => t.client.channels.update({ integration_id: ACCOUNT, ai_enabled: false })],
    ['the group has AI off', () => t.client.groups.update({ group_id: GROUP, ai_enabled: false })],
    [
      "the group's brain_config turns the phone platform off",
      () => t.client.groups.update({ group_id: GROUP, brain_config: { enabled_platforms: { phone: false } } }),
    ],
  ])('no call, no reply and no ticket when %s', async (_name, turnOff) => {
    await turnOff();
    try {
      const { conversationId } = await customerWrites('When are you open on Saturday?');
      expect(requests).toEqual([]);
      expect(await aiMessages(conversationId)).toEqual([]);
      expect(await handoffs(conversationId)).toEqual([]);
    } finally {
      await t.client.channels.update({ integration_id: ACCOUNT, ai_enabled: true });
    }
  });

  it('never answers a stop word, and not a contact who opted out', async () => {
    const from = '+14155550780';
    const { conversationId } = await customerWrites('STOP', from);
    await customerWrites('When are you open?', from);
    expect(requests).toEqual([]);
    expect(await aiMessages(conversationId)).toEqual([]);
  });

  it.each([
    ['assigned to a person', { assignee: 'agent_maya' }, { assignee: null }, 'active'],
    ['snoozed', { status: 'snoozed' as const }, { status: 'active' as const }, 'snoozed'],
  ])(
    'stays out of a conversation that is %s: no call, no reply, no ticket; back in once it is released',
    async (_n, hold, release, held) => {
      const from = `+${handle++}`;
      const { conversationId } = await customerWrites('When are you open on Saturday?', from);
      expect(await aiMessages(conversationId)).toHaveLength(1);
      await t.client.conversations.update({ id: conversationId, ...hold });
      requests = [];
      await customerWrites('And on Sunday?', from);
      expect(requests).toEqual([]);
      expect(await aiMessages(conversationId)).toHaveLength(1);
      expect(await handoffs(conversationId)).toEqual([]);
      // The customer writing does not release it: a snoozed conversation stays snoozed.
      expect((await t.client.conversations.get({ id: conversationId })).status).toBe(held);
      await t.client.conversations.update({ id: conversationId, ...release });
      await customerWrites('And on Monday?', from);
      expect(requests).toHaveLength(1);
      expect(await aiMessages(conversationId)).toHaveLength(2);
    },
  );

  it.each([
    ['the conversation is closed', (id: string) => t.client.conversations.update({ id, status: 'closed' })],
    ['a person takes it', (id: string) => t.client.conversations.update({ id, assignee: 'agent_maya' })],
    ['it is snoozed', (id: string) => t.client.conversations.update({ id, status: 'snoozed' })],
    ['the account turns AI off', () => t.client.channels.update({ integration_id: ACCOUNT, ai_enabled: false })],
  ])('sends nothing and hands off nothing when, while the endpoint thinks, %s', async (name, change) => {
    const content = `Are you open today? (${name})`;
    answer = async () => {
      const { data } = await t.client.conversations.list({ status: 'active', limit: 100 });
      await change(data.find((c) => c.last_message_preview === content)!.id);
      return 'We open at 9:00.';
    };
    try {
      const { conversationId } = await customerWrites(content);
      expect(requests).toHaveLength(1);
      expect(await aiMessages(conversationId)).toEqual([]);
      expect(await handoffs(conversationId)).toEqual([]);
    } finally {
      await t.client.channels.update({ integration_id: ACCOUNT, ai_enabled: true });
    }
  });

  it('never answers a start word, also from a contact who had not opted out', async () => {
    const { conversationId } = await customerWrites(' start ');
    expect(requests).toEqual([]);
    expect(await aiMessages(conversationId)).toEqual([]);
  });
});

describe('which provider answers', () => {
  it("an account's own provider overrides its group's", async () => {
    const own: CustomReplyRequest[] = [];
    const other = createReplyEndpoint({
      secret: 'rsec_own_endpoint_1234',
      reply: (r) => (own.push(r), 'from the account'),
    });
    const { server: s, url } = await listen(other.listener);
    try {
      putProvider(t.emulator.ctx, { owner: 'channel', id: ACCOUNT }, 'custom_reply', {
        enabled: true,
        config: { url: `${url}/reply`, timeout_ms: REPLY_TIMEOUT_MS },
        secret: 'rsec_own_endpoint_1234',
      });
      const { conversationId } = await customerWrites('When are you open on Saturday?');
      expect(own).toHaveLength(1);
      expect(requests).toEqual([]);
      expect((await aiMessages(conversationId))[0]?.content).toBe('from the account');
    } finally {
      putProvider(t.emulator.ctx, { owner: 'channel', id: ACCOUNT }, 'custom_reply', {
        enabled: false,
        config: { url: `${url}/reply` },
      });
      s.closeAllConnections();
      s.close();
    }
  });

  it('a stored provider whose config no longer passes its schema hands off, never leaving the customer unanswered', async () => {
    // As a database kept (--db) from before a rule was added holds it: here, credentials in the URL.
    const providers = stores(t.emulator.db).providers;
    const record = providers.get(`${GROUP}/custom_reply`)!;
    providers.put({ ...record, config: { ...record.config, url: 'https://bot:pw@reply.example.com/reply' } });
    const { conversationId } = await customerWrites('When are you open?');
    expect(requests).toEqual([]);
    expect(await aiMessages(conversationId)).toEqual([]);
    expect(await handoffs(conversationId)).toHaveLength(1);
  });

  it('without a provider, the best-matching knowledge entry answers, deterministically', async () => {
    await api('DELETE', `/v1/channels/groups/${GROUP}/providers/custom_reply`);
    const hours = await customerWrites('Are you open on Sundays?');
    const [reply] = await aiMessages(hours.conversationId);
    expect(reply?.content).toBe('We are open Monday to Saturday from 9:00 to 18:00. On Sundays we are closed.');
    const again = await customerWrites('Are you open on Sundays?');
    expect((await aiMessages(again.conversationId))[0]?.content).toBe(reply?.content);
    const unknown = await customerWrites('Do you sell gift cards?');
    expect(await aiMessages(unknown.conversationId)).toEqual([]);
    expect(await handoffs(unknown.conversationId)).toEqual([]);
    expect(requests).toEqual([]);
  });
});

describe('comment replies', () => {
  const commentReply = (content: string) =>
    replyToComment(
      t.emulator.ctx,
      { integration_id: SEED_IDS.page, channel: 'social_page', content, created_at: new Date().toISOString() },
      new AbortController().signal,
    );

  it('ask the endpoint with task comment_reply and the comment as the one message', async () => {
    answer = (request) => (request.task === 'comment_reply' ? 'Thanks! We open at 9.' : 'wrong task');
    const outcome = await commentReply('What time do you open?');
    expect(outcome).toEqual({ kind: 'reply', reply: 'Thanks! We open at 9.', via: 'custom_reply' });
    expect(requests[0]).toMatchObject({ task: 'comment_reply', verified_tool_context: [] });
    expect(requests[0]!.conversation_history).toEqual([
      { role: 'customer', content: 'What time do you open?', created_at: expect.any(String) },
    ]);
  });

  it('refuse a reply longer than a comment reply may be', async () => {
    answer = () => 'x'.repeat(3000);
    const outcome = await commentReply('hours?');
    expect(outcome).toMatchObject({ kind: 'failed', reason: expect.stringContaining('2200') });
  });
});
