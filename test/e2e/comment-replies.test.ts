import type { Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Comment } from '../../src/resources/index.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import type { CustomReplyRequest, ReplyFunction } from '../../src/reply/index.js';
import { startE2e, type E2e } from './harness.js';
import { closeServer, recordWebhooks, replyEndpoint, until, type RecordedWebhook } from './reply-harness.js';

// Comments end to end: a customer comments through /_emulator/comment; a keyword rule answers, or the
// emulator asks a real convo-kit/reply endpoint on a loopback port (task comment_reply) and posts its reply.
const SECRET = 'rsec_comments_3b8e1f7a9c2d';
const PAGE = SEED_IDS.page; // in the seeded group grp_support
const PHOTO = SEED_IDS.photo; // no group, ai_comment_replies_enabled on in the seed

let t: E2e;
let servers: Server[];
let answer: ReplyFunction;
let requests: CustomReplyRequest[];
let webhookBodies: RecordedWebhook[];

interface Commented {
  comment: Comment;
  rule_id: string | null;
  ai_reply_queued: boolean;
}

/** A customer comments; resolves once every AI reply call has finished. */
async function customerComments(content: string, integration_id: string = PAGE): Promise<Commented> {
  const result = (await t.control('comment', {
    integration_id,
    post_id: 'post_e2e',
    from: { handle: 'psid_e2e', name: 'Casey' },
    content,
  })) as unknown as Commented;
  await t.emulator.aiReplies.idle();
  return result;
}

const repliesOf = async (id: string) => (await t.client.comments.get({ id })).replies;

async function commentHandoffs(commentId: string) {
  const { data } = await t.client.tickets.list({ kind: 'handoff', limit: 100 });
  return data.filter((ticket) => ticket.subject.includes(commentId));
}

beforeAll(async () => {
  t = await startE2e();
  const endpoint = await replyEndpoint(SECRET, (request, context) => {
    requests.push(request);
    return answer(request, context);
  });
  const hooks = await recordWebhooks(t, ['*'], (body) => webhookBodies.push(body));
  servers = [endpoint.server, hooks.server];
  const provider = await t.api('PUT', `/v1/channels/groups/${SEED_IDS.group}/providers/custom_reply`, {
    enabled: true,
    config: { url: `${endpoint.url}/reply`, timeout_ms: 10_000, send_conversation_history: true }, // the most allowed: load never times it out
    secret: SECRET,
  });
  expect(provider.status).toBe(200);
  await t.client.channels.update({ integration_id: PAGE, ai_comment_replies_enabled: true });
});

afterAll(async () => {
  await t.close();
  for (const server of servers) await closeServer(server);
});

beforeEach(async () => {
  requests = [];
  webhookBodies = [];
  answer = (request) => (request.task === 'comment_reply' ? 'Yes! Sundays from 11 to 16.' : 'wrong task');
  await t.client.comments.updateSettings({ ai_replies_enabled: true });
});

describe('a comment no rule answers, with both AI switches on', () => {
  it('counts the AI reply to a comment in usage.ai_replies, as one to a message', async () => {
    const usage = async () => (await t.api('GET', '/v1/usage')).body as { usage: { ai_replies: number } };
    const before = (await usage()).usage.ai_replies;
    const { comment } = await customerComments('Do you ship to Spain?');
    expect((await repliesOf(comment.id)).map((r) => r.source)).toEqual(['ai']);
    expect((await usage()).usage.ai_replies).toBe(before + 1);
  });

  it('gets the endpoint reply (task comment_reply, the comment as the one message), stored with source ai', async () => {
    const { comment, rule_id, ai_reply_queued } = await customerComments('Are you open on Sundays?');
    expect({ rule_id, ai_reply_queued }).toEqual({ rule_id: null, ai_reply_queued: true });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ version: '1', task: 'comment_reply', verified_tool_context: [] });
    expect(requests[0]!.conversation_history).toEqual([
      { role: 'customer', content: 'Are you open on Sundays?', created_at: comment.created_at },
    ]);
    expect(await repliesOf(comment.id)).toEqual([
      expect.objectContaining({ comment_id: comment.id, source: 'ai', content: 'Yes! Sundays from 11 to 16.' }),
    ]);
    // No webhook event is invented for comments, and nothing was handed off.
    await t.emulator.dispatcher.idle();
    expect(webhookBodies).toEqual([]);
    expect(await commentHandoffs(comment.id)).toEqual([]);
  });

  it('a failure posts nothing and hands the comment to people (a handoff ticket naming it)', async () => {
    answer = () => 'I have refunded your order.';
    const { comment } = await customerComments('Where is my refund?');
    expect(requests).toHaveLength(1);
    expect(await repliesOf(comment.id)).toEqual([]);
    const [ticket] = await commentHandoffs(comment.id);
    expect(ticket).toMatchObject({ kind: 'handoff', status: 'open', conversation_id: null, contact_id: null });
    await until(
      () => webhookBodies.find((b) => b.event === 'ticket.created' && b.data.id === ticket!.id),
      'ticket.created for the comment handoff',
    );
  });

  it('a reply longer than a comment reply may be is refused, not cut', async () => {
    answer = () => 'x'.repeat(2201);
    const { comment } = await customerComments('Tell me everything');
    expect(await repliesOf(comment.id)).toEqual([]);
    expect(await commentHandoffs(comment.id)).toHaveLength(1);
  });
});

describe('a switch that goes off while the endpoint thinks', () => {
  it.each([
    [
      "the account's ai_comment_replies_enabled",
      () => t.client.channels.update({ integration_id: PAGE, ai_comment_replies_enabled: false }),
    ],
    ["the workspace's ai_replies_enabled", () => t.client.comments.updateSettings({ ai_replies_enabled: false })],
  ])('%s: nothing is posted and nothing handed off', async (_name, turnOff) => {
    answer = async () => {
      await turnOff();
      return 'Yes! Sundays from 11 to 16.';
    };
    try {
      const { comment, ai_reply_queued } = await customerComments('Open on Sunday?');
      expect(ai_reply_queued).toBe(true);
      expect(requests).toHaveLength(1);
      expect(await repliesOf(comment.id)).toEqual([]);
      expect(await commentHandoffs(comment.id)).toEqual([]);
    } finally {
      await t.client.channels.update({ integration_id: PAGE, ai_comment_replies_enabled: true });
    }
  });
});

describe('what comes before the AI', () => {
  it('a matching keyword rule answers, and the endpoint is not asked', async () => {
    const { comment, rule_id, ai_reply_queued } = await customerComments('How MUCH are the boots?');
    expect({ rule_id, ai_reply_queued }).toEqual({ rule_id: SEED_IDS.comments.rule, ai_reply_queued: false });
    expect(requests).toEqual([]);
    expect((await repliesOf(comment.id)).map((r) => r.source)).toEqual(['rule']);
  });

  it.each([
    ['the org-wide switch is off', () => t.client.comments.updateSettings({ ai_replies_enabled: false })],
    [
      "the account's switch is off",
      () => t.client.channels.update({ integration_id: PAGE, ai_comment_replies_enabled: false }),
    ],
  ])('no call and no reply when %s', async (_name, turnOff) => {
    await turnOff();
    try {
      const { comment, ai_reply_queued } = await customerComments('Are you open on Sundays?');
      expect(ai_reply_queued).toBe(false);
      expect(requests).toEqual([]);
      expect(await repliesOf(comment.id)).toEqual([]);
      expect(await commentHandoffs(comment.id)).toEqual([]);
    } finally {
      await t.client.channels.update({ integration_id: PAGE, ai_comment_replies_enabled: true });
    }
  });
});

describe('without a custom reply provider', () => {
  it("the account's group knowledge answers; outside a group nothing does", async () => {
    await t.client.groups.addKnowledge({
      group_id: SEED_IDS.group,
      type: 'faq',
      title: 'Sunday opening',
      content: 'Our stores are open on Sundays from 11:00 to 16:00.',
    });
    await t.client.groups.deleteProvider({ group_id: SEED_IDS.group, provider: 'custom_reply' });
    const inGroup = await customerComments('Open on Sundays?');
    expect(await repliesOf(inGroup.comment.id)).toEqual([
      expect.objectContaining({ source: 'ai', content: 'Our stores are open on Sundays from 11:00 to 16:00.' }),
    ]);
    const noGroup = await customerComments('Open on Sundays?', PHOTO);
    expect(noGroup.ai_reply_queued).toBe(true);
    expect(await repliesOf(noGroup.comment.id)).toEqual([]);
    expect(await commentHandoffs(noGroup.comment.id)).toEqual([]);
    expect(requests).toEqual([]);
  });
});
