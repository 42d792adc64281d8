import { afterEach, describe, expect, it } from 'vitest';
import { WebhookEndpointCreated } from '../../src/api/schemas/webhook-endpoint.js';
import { MAX_AUTOMATION_RUNS_PER_EVENT } from '../../src/emulator/domain/automations/automation-bounds.js';
import { PLAN_QUOTAS } from '../../src/emulator/domain/usage/plan-quotas.js';
import type { Emulator } from '../../src/emulator/index.js';
import type { EventData } from '../../src/events/index.js';
import { as, cleanup, emulator, frozen } from './platform-harness.js';
import { receiverBehindPort } from './receiver-harness.js';
import { inbound, SEED_IDS, sentEarlier } from './resources-harness.js';

afterEach(cleanup);
/** The receivers a test started, closed before the emulators (hooks run last-registered first). */
const closers: (() => Promise<void>)[] = [];

// Automations that run by their trigger (docs/automations.md), seen the way an integration sees them: the
// emulator on a clock only the test moves, and createReceiver on a SQLite file behind a real port, handling
// message.sent.
const WAIT_MS = 30_000;
const HOUR = 3600;
const DAY = 24 * HOUR;
const ids = SEED_IDS.automations;

type Sent = EventData<'message.sent'>;

async function automationBench(options: { plan?: 'trial' } = {}) {
  const e = await emulator({ now: frozen, ...options });
  let secret = '';
  const sent: Sent[] = [];
  const { receiver, url, close } = await receiverBehindPort({
    secrets: async () => secret,
    handlers: (r) =>
      r.on('message.sent', async ({ data }) => {
        sent.push(data);
      }),
  });
  closers.push(close);
  const registered = await as(e)
    .post('/v1/webhooks')
    .send({ url, events: ['message.sent'] })
    .expect(201);
  secret = WebhookEndpointCreated.parse(registered.body).secret;
  const bench = {
    e,
    sent,
    /** Moves the emulator clock (the scheduler wakes on it). */
    advance: (seconds: number) => as(e).post('/_emulator/clock').send({ advance_seconds: seconds }).expect(200),
    /** The automation's sends the receiver handled: once the clock passed their sent step and all was delivered. */
    async automationSends(conversationId?: string): Promise<Sent[]> {
      await bench.advance(1);
      await e.dispatcher.idle();
      await receiver.idle();
      return sent.filter(
        (m) => m.source === 'automation' && (conversationId === undefined || m.conversation_id === conversationId),
      );
    },
    /** Polls (bounded) until the receiver handled `count` automation sends on the conversation. */
    async waitForSends(count: number, conversationId?: string): Promise<Sent[]> {
      for (const deadline = Date.now() + WAIT_MS; ; ) {
        const found = await bench.automationSends(conversationId);
        if (found.length >= count || Date.now() > deadline) return found;
      }
    },
    automation: async (id: string) => (await as(e).get(`/v1/automations/${id}`).expect(200)).body,
    define: (body: object) => as(e).post('/_emulator/automations').send(body),
    setStatus: (id: string, status: string) =>
      as(e).post(`/_emulator/automations/${id}/status`).send({ status }).expect(200),
  };
  return bench;
}

afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

let handle = 4915150000;
/** A new customer on the photo-social account (no 24-hour window there, so a clock jump never closes it). */
const newCustomer = (e: Emulator, content: string, from = `@customer.${handle++}`) =>
  inbound(e, { channel: 'photo_social', from: { handle: from }, content }).expect(201);

/**
 * A new customer whose conversation alone carries a tag (one the seed's chats do not), and a daily schedule
 * automation, first due in an hour, with that tag as its condition.
 */
async function dailyForOneCustomer(e: Emulator, content: string) {
  const tag = `daily-${handle}`;
  const customer = await newCustomer(e, 'hello');
  const conversation = customer.body.conversation.id as string;
  await as(e)
    .patch(`/v1/conversations/${conversation}`)
    .send({ tags: [tag] })
    .expect(200);
  const firstRunAt = new Date(e.clock.now() + HOUR * 1000).toISOString();
  const defined = await as(e)
    .post('/_emulator/automations')
    .send({
      name: 'Daily check-in',
      trigger: 'schedule',
      content,
      conditions: { tags: [tag] },
      schedule: { first_run_at: firstRunAt, repeat_every_seconds: DAY },
    })
    .expect(200);
  return { conversation, firstRunAt, defined };
}

describe('keyword automations', () => {
  it('answer a customer message that contains a keyword, as message.sent with source automation', async () => {
    const b = await automationBench();
    const res = await newCustomer(b.e, 'What are your PRICES?');
    expect(res.body.automation_runs).toMatchObject([
      { automation_id: ids.keyword, status: 'completed', conversation_id: res.body.conversation.id },
    ]);
    const [sent, ...more] = await b.waitForSends(1, res.body.conversation.id);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({
      id: res.body.automation_runs[0].message_id,
      source: 'automation',
      automation_id: ids.keyword,
      content: 'Our price list: convokit.shop/prices. Anything else we can help with?',
    });
    expect((await b.automation(ids.keyword)).last_run_at).toBe(res.body.automation_runs[0].created_at);
    const stored = await as(b.e).get(`/v1/messages/${sent!.id}`).expect(200);
    expect(stored.body).toMatchObject({ source: 'automation', automation_id: ids.keyword, direction: 'sent' });
    // Whole words only: "priceless" is not "price".
    const other = await newCustomer(b.e, 'This jacket is priceless');
    expect(other.body.automation_runs).toEqual([]);
  });

  it('do not run while paused, and run again once resumed', async () => {
    const b = await automationBench();
    await b.setStatus(ids.keyword, 'paused');
    const paused = await newCustomer(b.e, 'price?');
    expect(paused.body.automation_runs).toEqual([]);
    expect(await b.automationSends()).toEqual([]);
    expect((await b.automation(ids.keyword)).last_run_at).toBeNull();
    await b.setStatus(ids.keyword, 'active');
    const resumed = await newCustomer(b.e, 'price?');
    expect(resumed.body.automation_runs).toHaveLength(1);
    expect(await b.waitForSends(1)).toHaveLength(1);
  });

  it('never start themselves: an answer holding its own keyword is sent once', async () => {
    const b = await automationBench();
    const echo = await b
      .define({ name: 'Echo', trigger: 'keyword', keywords: ['hello'], content: 'Hello! You said hello.' })
      .expect(200);
    const res = await newCustomer(b.e, 'hello');
    expect(res.body.automation_runs.map((r: { automation_id: string }) => r.automation_id)).toEqual([echo.body.id]);
    const conversation = res.body.conversation.id;
    expect(await b.waitForSends(1, conversation)).toHaveLength(1);
    // Time passes and everything is delivered: still one, and the conversation holds the customer's message and it.
    await b.advance(HOUR);
    expect(await b.automationSends(conversation)).toHaveLength(1);
    const messages = await as(b.e).get(`/v1/conversations/${conversation}/messages`).expect(200);
    const automated = messages.body.data.filter((m: { source: string }) => m.source === 'automation');
    expect(automated).toHaveLength(1);
  });

  it(`run at most ${MAX_AUTOMATION_RUNS_PER_EVENT} on one customer message, in the order they were defined`, async () => {
    const b = await automationBench();
    const defined: string[] = [];
    for (let i = 0; i < MAX_AUTOMATION_RUNS_PER_EVENT + 2; i++) {
      const res = await b
        .define({ name: `Deal ${i}`, trigger: 'keyword', keywords: ['deal'], content: `Deal answer ${i}` })
        .expect(200);
      defined.push(res.body.id);
    }
    const res = await newCustomer(b.e, 'Any deal today?');
    const ran = res.body.automation_runs.map((r: { automation_id: string }) => r.automation_id);
    expect(ran).toEqual(defined.slice(0, MAX_AUTOMATION_RUNS_PER_EVENT));
    const sends = await b.waitForSends(MAX_AUTOMATION_RUNS_PER_EVENT, res.body.conversation.id);
    expect(sends.map((m) => m.automation_id).sort()).toEqual([...ran].sort());
    expect((await b.automation(defined.at(-1)!)).last_run_at).toBeNull();
  });

  it('count toward usage and the monthly quota like any send, and stop at it', async () => {
    const b = await automationBench({ plan: 'trial' });
    const quota = PLAN_QUOTAS.trial.messages_per_month!;
    const used = async () => (await as(b.e).get('/v1/usage').expect(200)).body.usage.messages as number;
    sentEarlier(b.e, quota - (await used()) - 1);
    const last = await newCustomer(b.e, 'price');
    expect(last.body.automation_runs).toHaveLength(1);
    expect(await used()).toBe(quota);
    const over = await newCustomer(b.e, 'price');
    expect(over.body.automation_runs).toEqual([]);
    expect(await used()).toBe(quota);
    expect(await b.waitForSends(1)).toHaveLength(1);
  });
});

describe('automations on a read-only plan', () => {
  it('still run: the plan refuses the API its writes, not the workspace its own initiative', async () => {
    const e = await emulator({ now: frozen, plan: 'free' });
    expect((await newCustomer(e, 'price?')).body.automation_runs).toHaveLength(1);
    await as(e).post(`/v1/automations/${ids.keyword}/trigger`).send({ conversation_id: 'conv_x' }).expect(403);
  });
});

describe('new-conversation automations', () => {
  it('answer the message that opens a conversation, not the ones after it', async () => {
    const b = await automationBench();
    // Seeded paused (docs/automations.md, "The seed").
    expect((await b.automation(ids.newConversation)).status).toBe('paused');
    expect((await newCustomer(b.e, 'hi')).body.automation_runs).toEqual([]);
    await b.setStatus(ids.newConversation, 'active');
    const first = await newCustomer(b.e, 'hi there', '@lena.new');
    expect(first.body.automation_runs).toMatchObject([{ automation_id: ids.newConversation }]);
    const again = await newCustomer(b.e, 'are you there?', '@lena.new');
    expect(again.body.conversation.id).toBe(first.body.conversation.id);
    expect(again.body.automation_runs).toEqual([]);
    const sends = await b.waitForSends(1, first.body.conversation.id);
    expect(sends).toMatchObject([{ automation_id: ids.newConversation, source: 'automation' }]);
  });

  it('do not answer a conversation the business opened (a template send to a new number)', async () => {
    const b = await automationBench();
    await b.setStatus(ids.newConversation, 'active');
    const sent = await as(b.e)
      .post(`/v1/templates/${SEED_IDS.templates.approved}/send`)
      .send({ to: '14155550177', variables: { '1': 'A-7', '2': 'today' } })
      .expect(201);
    await b.advance(HOUR);
    const messages = await as(b.e).get(`/v1/conversations/${sent.body.conversation_id}/messages`).expect(200);
    expect(messages.body.data.map((m: { id: string }) => m.id)).toEqual([sent.body.id]);
    expect((await b.automation(ids.newConversation)).last_run_at).toBeNull();
  });

  it('meet their conditions: channel, tags, stage and assignment', async () => {
    const b = await automationBench();
    const phoneOnly = await b
      .define({
        name: 'Phone welcome',
        trigger: 'new_conversation',
        content: 'Welcome on the phone line',
        conditions: { channels: ['phone'] },
      })
      .expect(200);
    const unassigned = await b
      .define({
        name: 'Unassigned new lead',
        trigger: 'new_conversation',
        content: 'Welcome, new lead',
        conditions: { stages: ['new'], assigned: false },
      })
      .expect(200);
    await b
      .define({ name: 'VIP', trigger: 'new_conversation', content: 'Hi VIP', conditions: { tags: ['vip'] } })
      .expect(200);
    const photo = await newCustomer(b.e, 'hi');
    expect(photo.body.conversation.stage).toBe('new');
    expect(photo.body.automation_runs.map((r: { automation_id: string }) => r.automation_id)).toEqual([
      unassigned.body.id,
    ]);
    const phone = await inbound(b.e, { channel: 'phone', from: { handle: '+4915112340057' }, content: 'hi' }).expect(
      201,
    );
    expect(phone.body.automation_runs.map((r: { automation_id: string }) => r.automation_id)).toEqual([
      phoneOnly.body.id,
      unassigned.body.id,
    ]);
  });
});

describe('scheduled automations', () => {
  it('run when the emulator clock passes their time, once per slot passed, on the conversations they meet', async () => {
    const b = await automationBench();
    const { conversation, firstRunAt, defined } = await dailyForOneCustomer(b.e, 'Anything we can do for you today?');
    const id = defined.body.id as string;
    expect(defined.body).toMatchObject({ next_run_at: firstRunAt, last_run_at: null });

    await b.advance(HOUR / 2);
    expect(await b.automation(id)).toMatchObject({ next_run_at: firstRunAt, last_run_at: null });
    await b.advance(HOUR / 2);
    const ran = await b.automation(id);
    expect(ran.last_run_at).not.toBeNull();
    expect(ran.next_run_at).toBe(new Date(Date.parse(firstRunAt) + DAY * 1000).toISOString());
    expect(await b.waitForSends(1)).toMatchObject([
      { conversation_id: conversation, automation_id: id, content: 'Anything we can do for you today?' },
    ]);

    // Three days at once: one run, not three, and the next slot is the first one to come.
    await b.advance(3 * DAY);
    expect((await b.automation(id)).next_run_at).toBe(new Date(Date.parse(firstRunAt) + 4 * DAY * 1000).toISOString());
    expect(await b.waitForSends(2)).toHaveLength(2);
    expect(await b.automationSends()).toHaveLength(2);
  });

  it('do not run while paused; resumed, they wait for their next slot', async () => {
    const b = await automationBench();
    const firstRunAt = new Date(b.e.clock.now() + HOUR * 1000).toISOString();
    const defined = await b
      .define({
        name: 'Hourly nudge',
        trigger: 'schedule',
        content: 'Still there?',
        conditions: { channels: ['photo_social'] },
        schedule: { first_run_at: firstRunAt, repeat_every_seconds: HOUR },
      })
      .expect(200);
    const id = defined.body.id as string;
    await b.setStatus(id, 'paused');
    await b.advance(HOUR + 60);
    expect(await b.automation(id)).toMatchObject({ last_run_at: null, status: 'paused' });
    const resumed = await b.setStatus(id, 'active');
    expect(resumed.body.next_run_at).toBe(new Date(Date.parse(firstRunAt) + HOUR * 1000).toISOString());
    expect((await b.automation(id)).last_run_at).toBeNull();
    expect(await b.automationSends()).toEqual([]);
    await b.advance(HOUR);
    expect((await b.automation(id)).last_run_at).not.toBeNull();
    // The seed's photo-social chat is open: it is the one the nudge goes to.
    expect((await b.waitForSends(1)).map((m) => m.conversation_id)).toContain(SEED_IDS.photoChat.conversation);
  });
});

describe('defining automations (POST /_emulator/automations)', () => {
  const base = { name: 'Bad', trigger: 'keyword', keywords: ['x'], content: 'answer' };
  const future = () => new Date(Date.now() + DAY * 1000).toISOString();
  it.each([
    ['a keyword automation without keywords', { ...base, keywords: undefined }, 400, 'keywords'],
    ['keywords on another trigger', { ...base, trigger: 'new_conversation' }, 400, 'keywords'],
    ['a blank keyword', { ...base, keywords: ['  '] }, 400, 'keywords.0'],
    [
      'a schedule automation without a schedule',
      { ...base, trigger: 'schedule', keywords: undefined },
      400,
      'schedule',
    ],
    [
      'a schedule on another trigger',
      { ...base, schedule: { first_run_at: future(), repeat_every_seconds: null } },
      400,
      'schedule',
    ],
    [
      'a one-off time that has passed',
      { ...base, trigger: 'schedule', keywords: undefined, schedule: { first_run_at: '2020-01-01T00:00:00Z' } },
      400,
      'schedule.first_run_at',
    ],
    [
      'a repeat faster than a minute',
      {
        ...base,
        trigger: 'schedule',
        keywords: undefined,
        schedule: { first_run_at: future(), repeat_every_seconds: 10 },
      },
      400,
      'schedule.repeat_every_seconds',
    ],
    ['a variable an automatic run cannot fill', { ...base, content: 'Hi {{1}}' }, 400, 'content'],
    ['an unknown trigger', { ...base, trigger: 'webhook' }, 400, 'trigger'],
    ['an unknown condition', { ...base, conditions: { vip: true } }, 400, 'conditions.vip'],
    ['a channel that does not exist', { ...base, conditions: { channels: ['fax'] } }, 422, 'conditions.channels.0'],
    ['an unknown account', { ...base, integration_id: 'int_nope' }, 404, 'integration_id'],
    ['an id of another kind', { ...base, id: 'conv_1' }, 400, 'id'],
  ])('refuses %s, naming the field, and stores nothing', async (_name, body, status, path) => {
    const e = await emulator({ now: frozen });
    const before = (await as(e).get('/v1/automations').expect(200)).body.data.length;
    const res = await as(e).post('/_emulator/automations').send(body).expect(status);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(res.body.error.request_id).toEqual(expect.any(String));
    expect((await as(e).get('/v1/automations').expect(200)).body.data).toHaveLength(before);
  });

  it('replaces an automation by id, keeping its runs; takes the admin key only', async () => {
    const e = await emulator({ now: frozen });
    const run = await newCustomer(e, 'price');
    const lastRun = run.body.automation_runs[0].created_at;
    const replaced = await as(e)
      .post('/_emulator/automations')
      .send({ id: ids.keyword, name: 'Prices', trigger: 'keyword', keywords: ['cost'], content: 'See the site.' })
      .expect(200);
    expect(replaced.body).toMatchObject({ id: ids.keyword, keywords: ['cost'], last_run_at: lastRun });
    expect((await newCustomer(e, 'price')).body.automation_runs).toEqual([]);
    expect((await newCustomer(e, 'what does it cost')).body.automation_runs).toHaveLength(1);
    await as(e, e.testKey)
      .post('/_emulator/automations')
      .send({ ...base })
      .expect(403);
    await as(e).post('/_emulator/automations/aut_nope/status').send({ status: 'paused' }).expect(404);
    // A reset returns to the seed: the defined keywords and the run are gone.
    await as(e).post('/_emulator/reset').send({}).expect(200);
    expect((await as(e).get(`/v1/automations/${ids.keyword}`).expect(200)).body).toMatchObject({
      keywords: ['price', 'prices'],
      last_run_at: null,
    });
  });
});

describe('automations in a saved state (GET and PUT /_emulator/state)', () => {
  it("carry their schedule's position and last run into a fresh emulator, which runs the next slot", async () => {
    const from = await emulator({ now: frozen });
    const { conversation, defined } = await dailyForOneCustomer(from, 'Daily check-in');
    const id = defined.body.id as string;
    await as(from).post('/_emulator/clock').send({ advance_seconds: HOUR }).expect(200);
    const ran = (await as(from).get(`/v1/automations/${id}`).expect(200)).body;
    expect(ran.last_run_at).not.toBeNull();
    const exported = await as(from).get('/_emulator/state').expect(200);

    const to = await emulator({ now: frozen });
    await as(to).put('/_emulator/state').send(exported.body).expect(200);
    expect((await as(to).get(`/v1/automations/${id}`).expect(200)).body).toMatchObject({
      last_run_at: ran.last_run_at,
      next_run_at: ran.next_run_at,
    });
    await as(to).post('/_emulator/clock').send({ advance_seconds: DAY }).expect(200);
    expect((await as(to).get(`/v1/automations/${id}`).expect(200)).body.last_run_at > ran.last_run_at).toBe(true);
    const messages = await as(to).get(`/v1/conversations/${conversation}/messages`).expect(200);
    const runs = messages.body.data.filter((m: { automation_id?: string }) => m.automation_id === id);
    expect(runs).toHaveLength(2);
  });
});
