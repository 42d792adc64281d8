import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Emulator } from '../../src/emulator/index.js';
import { as, cleanup, emulator, tempDir } from './platform-harness.js';
import { inbound, send, SEED_IDS, subscribe } from './resources-harness.js';

afterEach(cleanup);

const convPath = (id: string) => `/v1/conversations/${id}/messages`;

describe('sending free text', () => {
  it('answers 201 queued, then advances to sent and delivered and fires message.sent with source api', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const res = await send(e, convPath(SEED_IDS.delivered.conversation), { content: 'Your order shipped' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      direction: 'sent',
      delivery_status: 'queued',
      source: 'api',
      integration_id: SEED_IDS.phoneMain,
    });
    // Moving the clock past both steps makes the next read show the final status.
    await as(e).post('/_emulator/clock').send({ advance_seconds: 5 });
    const read = await as(e).get(`/v1/messages/${res.body.id}`);
    expect(read.body.delivery_status).toBe('delivered');
    const sent = await hooks.named('message.sent');
    expect(sent).toEqual([expect.objectContaining({ id: res.body.id, source: 'api', delivery_status: 'sent' })]);
    const conversation = await as(e).get(`/v1/conversations/${SEED_IDS.delivered.conversation}`);
    expect(conversation.body.last_message_preview).toBe('Your order shipped');
  });

  it('advances on its own without the clock moving (a short timer)', async () => {
    const e = await emulator();
    const res = await send(e, '/v1/messages', { conversation_id: SEED_IDS.delivered.conversation, content: 'hello' });
    expect(res.status).toBe(201);
    await expect
      .poll(async () => (await as(e).get(`/v1/messages/${res.body.id}`)).body.delivery_status, {
        interval: 50,
      })
      .toBe('delivered');
  });

  it('finishes a delivery that was in flight when the emulator stopped, after a restart on the same file', async () => {
    const dbPath = join(tempDir(), 'emulator.db');
    const first = await emulator({ dbPath });
    const res = await send(first, convPath(SEED_IDS.delivered.conversation), { content: 'before the restart' });
    expect(res.body.delivery_status).toBe('queued');
    await first.close();
    const second = await emulator({ dbPath, adminKey: first.adminKey });
    await as(second).post('/_emulator/clock').send({ advance_seconds: 5 });
    expect((await as(second).get(`/v1/messages/${res.body.id}`)).body.delivery_status).toBe('delivered');
  });

  it('is 422 SEND_FAILED with provider error 131026 for a recipient ending 0001, and stores nothing', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const res = await send(e, convPath(SEED_IDS.sendFailed.conversation), { content: 'hi' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'SEND_FAILED', details: [{ provider_error_code: '131026' }] });
    const history = await as(e).get(convPath(SEED_IDS.sendFailed.conversation));
    expect(history.body.data.filter((m: { source: string | null }) => m.source === 'api')).toHaveLength(0);
    expect(await hooks.events()).toEqual([]);
  });

  it('accepts a recipient ending 0002 with 201, then fails delivery with 131049 throttled', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const res = await send(e, convPath(SEED_IDS.throttled.conversation), { content: 'Spring sale!' });
    expect(res.status).toBe(201);
    await as(e).post('/_emulator/clock').send({ advance_seconds: 5 });
    const read = await as(e).get(`/v1/messages/${res.body.id}`);
    expect(read.body).toMatchObject({ delivery_status: 'failed', error: { code: '131049' } });
    const failed = await hooks.named('message.delivery_failed');
    expect(failed).toEqual([
      expect.objectContaining({
        error_code: '131049',
        throttled: true,
        template_name: null,
        message_id: res.body.id,
        conversation_id: SEED_IDS.throttled.conversation,
      }),
    ]);
  });

  it('refuses an opted-out contact (ending 0003) with 422 CONTACT_OPTED_OUT before sending', async () => {
    const e = await emulator();
    const hooks = await subscribe(e);
    const res = await send(e, convPath(SEED_IDS.optedOut.conversation), { content: 'hi' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('CONTACT_OPTED_OUT');
    const history = await as(e).get(convPath(SEED_IDS.optedOut.conversation));
    expect(history.body.data.filter((m: { source: string | null }) => m.source === 'api')).toHaveLength(0);
    expect(await hooks.events()).toEqual([]);
  });

  it('refuses free text on the phone channel once the 24-hour window closed, and allows it after the customer writes', async () => {
    const e = await emulator();
    const closed = await send(e, convPath(SEED_IDS.windowClosed.conversation), { content: 'still there?' });
    expect(closed.status).toBe(422);
    expect(closed.body.error.code).toBe('OUTSIDE_SERVICE_WINDOW');
    await inbound(e, { channel: 'phone', from: { handle: '+14155550124' }, content: 'Yes!' }).expect(201);
    expect((await send(e, convPath(SEED_IDS.windowClosed.conversation), { content: 'Great' })).status).toBe(201);
  });

  it('closes an open window when the emulator clock passes 24 hours; other channels have no window', async () => {
    const e = await emulator();
    await as(e)
      .post('/_emulator/clock')
      .send({ advance_seconds: 25 * 3600 })
      .expect(200);
    expect((await send(e, convPath(SEED_IDS.delivered.conversation), { content: 'late' })).body.error.code).toBe(
      'OUTSIDE_SERVICE_WINDOW',
    );
    expect((await send(e, convPath(SEED_IDS.photoChat.conversation), { content: 'late but fine' })).status).toBe(201);
  });
});

describe('the message input object', () => {
  const media = { type: 'image', url: 'https://cdn.example.com/a.png', caption: 'The part', filename: 'a.png' };
  const cta_url = { url: 'https://shop.example.com/o/1', display_text: 'Track order' };
  const routes = [
    ['POST /v1/conversations/:id/messages', convPath(SEED_IDS.photoChat.conversation), {}],
    ['POST /v1/messages', '/v1/messages', { conversation_id: SEED_IDS.photoChat.conversation }],
  ] as const;
  const sentCount = async (e: Emulator) =>
    (await as(e).get(`/v1/messages?conversation_id=${SEED_IDS.photoChat.conversation}&limit=100`).expect(200)).body.data
      .length;

  it.each(routes)('%s takes every field the spec lists, media and cta_url whole', async (_route, path, target) => {
    const e = await emulator();
    const input = { ...target, content: 'Your part', media, buttons: ['Yes', 'No'], cta_url };
    const res = await send(e, path, input);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ media, buttons: ['Yes', 'No'], cta_url });
  });

  it.each(routes)(
    '%s refuses a field media or cta_url does not have, naming each, and sends nothing',
    async (_route, path, target) => {
      const e = await emulator();
      const before = await sentCount(e);
      const res = await send(e, path, {
        ...target,
        content: 'Your part',
        media: { ...media, captoin: 'typo' },
        cta_url: { ...cta_url, target: '_blank' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details).toEqual([
        { path: 'media.captoin', in: 'body', message: 'unknown field; did you mean caption?' },
        { path: 'cta_url.target', in: 'body', message: 'unknown field; expected one of url, display_text' },
      ]);
      expect(await sentCount(e)).toBe(before);
    },
  );
});

describe('choosing the sending account', () => {
  it('is 409 ACCOUNT_MISMATCH when integration_id is not the conversation account, on both routes', async () => {
    const e = await emulator();
    const onConversation = await send(e, convPath(SEED_IDS.delivered.conversation), {
      content: 'x',
      integration_id: SEED_IDS.phoneSupport,
    });
    expect(onConversation.status).toBe(409);
    expect(onConversation.body.error.code).toBe('ACCOUNT_MISMATCH');
    const onMessages = await send(e, '/v1/messages', {
      conversation_id: SEED_IDS.delivered.conversation,
      content: 'x',
      integration_id: SEED_IDS.photo,
    });
    expect(onMessages.body.error.code).toBe('ACCOUNT_MISMATCH');
    const byContact = await send(e, '/v1/messages', {
      contact_id: SEED_IDS.delivered.contact,
      channel: 'phone',
      content: 'x',
      integration_id: SEED_IDS.phoneSupport,
    });
    expect(byContact.body.error.code).toBe('ACCOUNT_MISMATCH');
  });

  it('refuses an integration_id longer than an id (100 characters) on both routes, for live and test keys, before echoing it', async () => {
    const e = await emulator();
    const long = `int_${'x'.repeat(97)}`;
    for (const [path, body] of [
      [convPath(SEED_IDS.delivered.conversation), { content: 'x', integration_id: long }],
      ['/v1/messages', { conversation_id: SEED_IDS.delivered.conversation, content: 'x', integration_id: long }],
    ] as const) {
      for (const key of [e.adminKey, e.testKey]) {
        const res = await as(e, key)
          .post(path)
          .set('Idempotency-Key', `long-${key.slice(4, 8)}-${path}`)
          .send(body);
        expect([path, res.status, res.body.error?.code, res.body.error?.details?.[0]?.path]).toEqual([
          path,
          400,
          'VALIDATION_FAILED',
          'integration_id',
        ]);
        expect(JSON.stringify(res.body)).not.toContain(long);
      }
    }
  });

  it('is 409 ACCOUNT_REQUIRED for a contact chatting on two phone numbers, and sends once integration_id picks one', async () => {
    const e = await emulator();
    const ambiguous = await send(e, '/v1/messages', {
      contact_id: SEED_IDS.twoAccounts.contact,
      channel: 'phone',
      content: 'which line?',
    });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.error.code).toBe('ACCOUNT_REQUIRED');
    expect(ambiguous.body.error.details).toEqual(
      expect.arrayContaining([{ integration_id: SEED_IDS.phoneMain }, { integration_id: SEED_IDS.phoneSupport }]),
    );
    const chosen = await send(e, '/v1/messages', {
      contact_id: SEED_IDS.twoAccounts.contact,
      channel: 'phone',
      content: 'support here',
      integration_id: SEED_IDS.phoneSupport,
    });
    expect(chosen.status).toBe(201);
    expect(chosen.body).toMatchObject({
      conversation_id: SEED_IDS.twoAccounts.conversations[1],
      integration_id: SEED_IDS.phoneSupport,
    });
  });

  it('sends by contact and channel when the contact has one account there', async () => {
    const e = await emulator();
    const res = await send(e, '/v1/messages', {
      contact_id: SEED_IDS.photoChat.contact,
      channel: 'photo_social',
      content: 'Thanks for the DM',
    });
    expect(res.status).toBe(201);
    expect(res.body.conversation_id).toBe(SEED_IDS.photoChat.conversation);
  });

  it('is 422 INVALID_PLATFORM for a channel outside the three, and 404 without a conversation on the channel', async () => {
    const e = await emulator();
    const invalid = await send(e, '/v1/messages', {
      contact_id: SEED_IDS.delivered.contact,
      channel: 'sms',
      content: 'x',
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.code).toBe('INVALID_PLATFORM');
    const none = await send(e, '/v1/messages', {
      contact_id: SEED_IDS.delivered.contact,
      channel: 'social_page',
      content: 'x',
    });
    expect(none.status).toBe(404);
    expect((await send(e, '/v1/messages', { conversation_id: 'conv_nope', content: 'x' })).status).toBe(404);
  });
});

describe('reactions', () => {
  async function inboundPhoneMessage(e: Awaited<ReturnType<typeof emulator>>): Promise<string> {
    const res = await inbound(e, { channel: 'phone', from: { handle: '+14155550125' }, content: 'Love it' }).expect(
      201,
    );
    return res.body.message.id as string;
  }

  it('sets and clears a reaction on an inbound phone message', async () => {
    const e = await emulator();
    const id = await inboundPhoneMessage(e);
    expect((await as(e).post(`/v1/messages/${id}/reaction`).send({ emoji: '👍' })).body).toEqual({
      message_id: id,
      emoji: '👍',
    });
    expect((await as(e).get(`/v1/messages/${id}`)).body.reaction).toBe('👍');
    expect((await as(e).post(`/v1/messages/${id}/reaction`).send({ emoji: '' })).body).toEqual({
      message_id: id,
      emoji: null,
    });
    expect((await as(e).get(`/v1/messages/${id}`)).body.reaction).toBeNull();
  });

  it('refuses outbound messages (INVALID_STATE), other channels (INVALID_PLATFORM) and long emoji (400)', async () => {
    const e = await emulator();
    const sent = await send(e, convPath(SEED_IDS.delivered.conversation), { content: 'hello' });
    const outbound = await as(e).post(`/v1/messages/${sent.body.id}/reaction`).send({ emoji: '👍' });
    expect(outbound.status).toBe(422);
    expect(outbound.body.error.code).toBe('INVALID_STATE');
    const photo = await inbound(e, { channel: 'photo_social', from: { handle: '@maya.makes' }, content: 'cute' });
    const onPhoto = await as(e).post(`/v1/messages/${photo.body.message.id}/reaction`).send({ emoji: '❤️' });
    expect(onPhoto.status).toBe(422);
    expect(onPhoto.body.error.code).toBe('INVALID_PLATFORM');
    const id = await inboundPhoneMessage(e);
    const long = await as(e).post(`/v1/messages/${id}/reaction`).send({ emoji: '123456789' });
    expect(long.status).toBe(400);
    expect((await as(e).post('/v1/messages/msg_nope/reaction').send({ emoji: '👍' })).status).toBe(404);
  });
});
