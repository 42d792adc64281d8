import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { PLAN_QUOTAS } from '../../src/emulator/domain/usage/plan-quotas.js';
import { currentPeriod } from '../../src/emulator/domain/usage/usage.js';
import { stores } from '../../src/emulator/state/stores.js';
import { as, cleanup, emulator } from './platform-harness.js';
import { inbound, send, SEED_IDS, sentEarlier } from './resources-harness.js';

afterEach(cleanup);

// The plan's monthly message and AI-reply quotas (docs/keys-and-limits.md), on `trial`: 10,000 messages and
// 1,000 AI replies. The month is filled with messages the workspace sent earlier (stored as the emulator
// stores its sends), then the API is asked for the last ones.
const PLAN = 'trial';
const QUOTA = PLAN_QUOTAS[PLAN];

async function usage(e: Emulator) {
  const [used, limits] = await Promise.all([as(e).get('/v1/usage'), as(e).get('/v1/developer/limits')]);
  return { used: used.body.usage, quotas: limits.body.quotas };
}

const freeText = (e: Emulator) =>
  send(e, '/v1/messages', { conversation_id: SEED_IDS.delivered.conversation, content: 'one more' });

const sendTemplate = (e: Emulator) =>
  as(e)
    .post(`/v1/templates/${SEED_IDS.templates.approved}/send`)
    .send({ to: '14155550188', variables: { '1': 'A-1', '2': 'today' } });

describe('the monthly message quota', () => {
  it('sends up to the quota GET /v1/developer/limits shows, then refuses in the quota wording', async () => {
    const e = await emulator({ plan: PLAN });
    const before = (await usage(e)).used.messages as number;
    sentEarlier(e, QUOTA.messages_per_month! - before - 1);
    await freeText(e).expect(201);
    const full = await usage(e);
    expect(full.quotas.messages_per_month).toBe(QUOTA.messages_per_month);
    expect(full.used.messages).toBe(full.quotas.messages_per_month);
    const resetsAt = currentPeriod(e.clock.now()).end;
    const over = await freeText(e).expect(422);
    expect(over.body.error).toMatchObject({
      code: 'INVALID_STATE',
      message: `The ${PLAN} plan allows ${QUOTA.messages_per_month} messages a month and all are used; the quota resets at ${resetsAt}`,
      details: [{ quota: QUOTA.messages_per_month, used: QUOTA.messages_per_month, period_resets_at: resetsAt }],
    });
    // Template sends, automations and journeys draw on the same quota; nothing was stored or counted.
    const template = await sendTemplate(e).expect(422);
    expect(template.body.error.message).toContain('messages a month and all are used');
    const automation = await as(e)
      .post(`/v1/automations/${SEED_IDS.automations.keyword}/trigger`)
      .send({ conversation_id: SEED_IDS.delivered.conversation })
      .expect(422);
    expect(automation.body.error.code).toBe('INVALID_STATE');
    expect((await usage(e)).used.messages).toBe(QUOTA.messages_per_month);
    // A new month has room again (the chat's 24-hour window has closed by then: a template goes).
    await as(e)
      .post('/_emulator/clock')
      .send({ advance_seconds: (Date.parse(resetsAt) - e.clock.now()) / 1000 + 1 });
    await sendTemplate(e).expect(201);
    expect((await usage(e)).used.messages).toBe(1);
  });
});

describe('the monthly AI-reply quota', () => {
  it('stops the AI at the quota: the customer is handed to a person, nothing is sent', async () => {
    const e = await emulator({ plan: PLAN });
    await as(e).patch(`/v1/channels/${SEED_IDS.phoneSupport}`).send({ ai_enabled: true }).expect(200);
    await as(e).patch(`/v1/channels/groups/${SEED_IDS.group}`).send({ ai_enabled: true }).expect(200);
    await as(e)
      .post(`/v1/channels/groups/${SEED_IDS.group}/knowledge`)
      .send({ type: 'faq', title: 'Opening hours', content: 'We are open Monday to Saturday from 9:00 to 18:00.' })
      .expect(201);
    const write = async (from: string) => {
      const res = await inbound(e, {
        channel: 'phone',
        integration_id: SEED_IDS.phoneSupport,
        from: { handle: from },
        content: 'When are you open on Saturday?',
      }).expect(201);
      await e.aiReplies.idle();
      const id = res.body.conversation.id as string;
      const messages = stores(e.db).messages.all({ conversation_id: id, source: 'ai' });
      const tickets = stores(e.db).tickets.all({ conversation_id: id, kind: 'handoff' });
      return { ai: messages.length, handoffs: tickets.length };
    };
    const before = (await usage(e)).used.ai_replies as number;
    sentEarlier(e, QUOTA.ai_replies_per_month! - before - 1, 'ai');
    expect(await write('+14155550901')).toEqual({ ai: 1, handoffs: 0 });
    const full = await usage(e);
    expect(full.used.ai_replies).toBe(full.quotas.ai_replies_per_month);
    expect(await write('+14155550902')).toEqual({ ai: 0, handoffs: 1 });
    expect((await usage(e)).used.ai_replies).toBe(QUOTA.ai_replies_per_month);
  });

  it('counts AI comment replies too, and hands a comment past the quota to a person', async () => {
    const e = await emulator({ plan: PLAN });
    await as(e).patch('/v1/comments/settings').send({ ai_replies_enabled: true }).expect(200);
    sentEarlier(e, QUOTA.ai_replies_per_month! - ((await usage(e)).used.ai_replies as number), 'ai');
    const tickets = () =>
      stores(e.db)
        .tickets.all({ kind: 'handoff' })
        .filter((t) => t.conversation_id === null);
    const res = await as(e)
      .post('/_emulator/comment')
      .send({ integration_id: SEED_IDS.photo, from: { handle: '@ana' }, content: 'Do you ship to Lisbon?' })
      .expect(201);
    expect(res.body.ai_reply_queued).toBe(true);
    await e.aiReplies.idle();
    expect(tickets().map((t) => t.subject)).toEqual([expect.stringContaining(res.body.comment.id)]);
  });
});
