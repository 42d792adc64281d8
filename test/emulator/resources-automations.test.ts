import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { as, cleanup, emulator } from './platform-harness.js';
import { inbound, SEED_IDS, subscribe } from './resources-harness.js';

afterEach(cleanup);

const { api, keyword, newConversation, schedule } = SEED_IDS.automations;
const trigger = (e: Emulator, id: string, body: object, key?: string) =>
  as(e, key).post(`/v1/automations/${id}/trigger`).send(body);
const vars = { '1': 'Dana', '2': 'A-1001' };

describe('triggering an automation', () => {
  it('sends its content on the conversation, announced as message.sent with source automation', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const run = await trigger(e, api, { conversation_id: SEED_IDS.delivered.conversation, variables: vars }).expect(
      201,
    );
    expect(run.body).toMatchObject({ status: 'completed', contact_id: SEED_IDS.delivered.contact });
    expect(run.body.id).toMatch(/^run_/);
    // Past the sandbox's sent step: message.sent goes out once the message leaves.
    await as(e).post('/_emulator/clock').send({ advance_seconds: 5 });
    await as(e).get(`/v1/messages/${run.body.message_id}`).expect(200);
    const [sent] = await hooks.named('message.sent');
    expect(sent).toMatchObject({
      id: run.body.message_id,
      source: 'automation',
      conversation_id: SEED_IDS.delivered.conversation,
      content: 'Hi Dana, your order A-1001 is ready for pickup.',
    });
    expect((await as(e).get(`/v1/automations/${api}`)).body.last_run_at).toBe(run.body.created_at);
  });

  it("by contact: on the contact's most recently active open conversation, on the automation's account", async () => {
    const e = await emulator();
    const contact = SEED_IDS.twoAccounts.contact;
    // No account of its own: the newest of the two chats, here the one on the support line.
    await inbound(e, {
      channel: 'phone',
      integration_id: SEED_IDS.phoneSupport,
      from: { handle: '+14155550123' },
      content: 'hi again',
    }).expect(201);
    const anyAccount = await trigger(e, keyword, { contact_id: contact }).expect(201);
    expect(anyAccount.body.conversation_id).toBe(SEED_IDS.twoAccounts.conversations[1]);
    // The api automation sends from the main line: the chat there.
    const mainLine = await trigger(e, api, { contact_id: contact, variables: vars }).expect(201);
    expect(mainLine.body.conversation_id).toBe(SEED_IDS.twoAccounts.conversations[0]);
  });

  it.each([
    ['a paused automation', schedule, { conversation_id: SEED_IDS.delivered.conversation }, 422, 'INVALID_STATE'],
    ['an unknown automation', 'aut_nope', { conversation_id: SEED_IDS.delivered.conversation }, 404, 'NOT_FOUND'],
    ['an unknown conversation', keyword, { conversation_id: 'conv_nope' }, 404, 'NOT_FOUND'],
    ['an unknown contact', keyword, { contact_id: 'ct_nope' }, 404, 'NOT_FOUND'],
    ['no target', keyword, { variables: {} }, 400, 'VALIDATION_FAILED'],
    [
      'a contact that is not the conversation’s',
      keyword,
      { conversation_id: SEED_IDS.delivered.conversation, contact_id: SEED_IDS.photoChat.contact },
      400,
      'VALIDATION_FAILED',
    ],
    [
      'a missing variable',
      api,
      { conversation_id: SEED_IDS.delivered.conversation, variables: { '1': 'Dana' } },
      400,
      'VALIDATION_FAILED',
    ],
    [
      'a conversation on another account',
      api,
      { conversation_id: SEED_IDS.photoChat.conversation, variables: vars },
      409,
      'ACCOUNT_MISMATCH',
    ],
    [
      'a contact with no chat on its account',
      api,
      { contact_id: SEED_IDS.photoChat.contact, variables: vars },
      422,
      'INVALID_STATE',
    ],
    ['an opted-out contact', keyword, { conversation_id: SEED_IDS.optedOut.conversation }, 422, 'CONTACT_OPTED_OUT'],
    [
      'a number the provider rejects',
      keyword,
      { conversation_id: SEED_IDS.sendFailed.conversation },
      422,
      'SEND_FAILED',
    ],
    [
      'a closed service window',
      keyword,
      { conversation_id: SEED_IDS.windowClosed.conversation },
      422,
      'OUTSIDE_SERVICE_WINDOW',
    ],
  ])('refuses %s, sending nothing and storing no run', async (_name, id, body, status, code) => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const res = await trigger(e, id, body).expect(status);
    expect(res.body.error.code).toBe(code);
    await as(e).post('/_emulator/clock').send({ advance_seconds: 5 });
    await as(e).get('/v1/messages?limit=1').expect(200);
    expect(await hooks.named('message.sent')).toEqual([]);
    if (id !== 'aut_nope') expect((await as(e).get(`/v1/automations/${id}`)).body.last_run_at).toBeNull();
  });

  it('names the missing variable and the mismatched contact', async () => {
    const e = await emulator();
    const missing = await trigger(e, api, { conversation_id: SEED_IDS.delivered.conversation, variables: {} });
    expect(missing.body.error.details.map((d: { path: string }) => d.path)).toEqual(['variables.1', 'variables.2']);
    const mismatch = await trigger(e, keyword, {
      conversation_id: SEED_IDS.delivered.conversation,
      contact_id: SEED_IDS.photoChat.contact,
    });
    expect(mismatch.body.error.details[0].path).toBe('contact_id');
  });

  it('gives a test key the synthetic 201 and runs nothing; a read-only plan refuses', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const res = await trigger(e, api, { contact_id: 'ct_anything' }, e.testKey).expect(201);
    expect(res.body).toMatchObject({ test: true, status: 'queued', automation_id: api, message_id: null });
    expect(await hooks.named('message.sent')).toEqual([]);
    expect((await as(e).get(`/v1/automations/${api}`)).body.last_run_at).toBeNull();
    const free = await emulator({ plan: 'free' });
    const refused = await trigger(free, keyword, { conversation_id: SEED_IDS.delivered.conversation }).expect(403);
    expect(refused.body.error.code).toBe('PLAN_READ_ONLY');
  });
});

describe('listing automations', () => {
  it('has one seeded automation per trigger kind, newest first, and a reset restores their runs', async () => {
    const e = await emulator();
    const list = await as(e).get('/v1/automations').expect(200);
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([api, schedule, keyword, newConversation]);
    await trigger(e, keyword, { conversation_id: SEED_IDS.delivered.conversation }).expect(201);
    await as(e).post('/_emulator/reset').send({}).expect(200);
    expect((await as(e).get(`/v1/automations/${keyword}`)).body.last_run_at).toBeNull();
    await as(e).get('/v1/automations/aut_nope').expect(404);
  });
});
