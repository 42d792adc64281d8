import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { EMULATOR_KEY_IDS } from '../../src/emulator/handlers/keys.js';
import { as, cleanup, emulator, receiver } from './platform-harness.js';

afterEach(cleanup);

describe('/_emulator controls', () => {
  it('need the admin key: 401 without a key, 403 for any other key', async () => {
    const e = await emulator();
    expect((await request(e.app).post('/_emulator/reset')).status).toBe(401);
    const other = await as(e)
      .post('/v1/keys')
      .send({ label: 'ci', scopes: ['tickets:read'], kind: 'live' });
    for (const key of [other.body.key as string, e.testKey]) {
      const res = await as(e, key).post('/_emulator/clock').send({ advance_seconds: 5 });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
  });

  it('moves the clock forward', async () => {
    const e = await emulator();
    const before = e.clock.now();
    const res = await as(e).post('/_emulator/clock').send({ advance_seconds: 3600 });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.now)).toBeGreaterThanOrEqual(before + 3600_000);
    expect(res.body.offset_seconds).toBe(3600);
  });

  it.each([[{ advance_seconds: -1 }], [{ advance_seconds: 'soon' }], [{}], [{ advance_seconds: 1e12 }]])(
    'refuses a clock body of %j',
    async (body) => {
      const e = await emulator();
      const res = await as(e).post('/_emulator/clock').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(e.clock.offsetMs).toBe(0);
    },
  );

  it('resets to the seeded workspace: API-made keys, webhooks and deliveries go, the emulator keys stay', async () => {
    const e = await emulator();
    const fresh = await emulator();
    const made = await as(e)
      .post('/v1/keys')
      .send({ label: 'gone after reset', scopes: ['contacts:read'], kind: 'live' })
      .expect(201);
    const hooks = await receiver();
    await as(e)
      .post('/v1/webhooks')
      .send({ url: hooks.url, events: ['*'] })
      .expect(201);
    const id = SEED_IDS.delivered.contact;
    const seeded = (await as(e).get(`/v1/contacts/${id}`)).body;
    expect((await as(e).patch(`/v1/contacts/${id}`).send({ name: 'Changed Name' })).status).toBe(200);
    await e.dispatcher.idle();
    expect(hooks.received.length).toBeGreaterThan(0);
    // A rotated key's old value, in its grace period, goes with it.
    const rotated = (await as(e).post(`/v1/keys/${made.body.id}/rotate`).expect(200)).body.key as string;
    expect((await as(e).post('/_emulator/reset')).status).toBe(200);
    expect((await as(e).get(`/v1/contacts/${id}`)).body.name).toBe(seeded.name);
    expect((await as(e, made.body.key).get(`/v1/contacts/${id}`)).status).toBe(401);
    expect((await as(e).get(`/v1/keys`)).body.data.map((k: { id: string }) => k.id)).toContain(EMULATOR_KEY_IDS.admin);
    expect((await as(e, rotated).get(`/v1/contacts/${id}`)).status).toBe(401);
    const ids = (page: { body: { data: { id: string }[] } }) => page.body.data.map((k) => k.id);
    expect(ids(await as(e).get('/v1/keys').expect(200))).toEqual(ids(await as(fresh).get('/v1/keys')));
    expect((await as(e).get('/v1/webhooks').expect(200)).body.data).toEqual([]);
    expect((await as(e).get('/v1/usage').expect(200)).body.usage).toMatchObject({ webhooks: 0 });
    expect((await as(e, e.testKey).post('/v1/messages').send({})).status).not.toBe(401);
  });

  it('mounts the inbound, handoff and template review controls', async () => {
    const e = await emulator();
    const inbound = await as(e)
      .post('/_emulator/inbound')
      .send({ channel: 'phone', from: { handle: '+14155557777', name: 'New Person' }, content: 'Hello' });
    expect(inbound.status).toBe(201);
    const handoff = await as(e).post('/_emulator/handoff').send({ conversation_id: SEED_IDS.delivered.conversation });
    expect(handoff.status).toBeLessThan(300);
    const review = await as(e)
      .post(`/_emulator/templates/${SEED_IDS.templates.pending}/review`)
      .send({ status: 'approved' });
    expect(review.status).toBe(200);
    expect(
      (
        await as(e)
          .post('/_emulator/inbound')
          .send({ channel: 'fax', from: { handle: 'x' }, content: 'x' })
      ).body.error.code,
    ).toBe('INVALID_PLATFORM');
  });

  it('answers 404 for an unknown control', async () => {
    const e = await emulator();
    expect((await as(e).post('/_emulator/nothing')).status).toBe(404);
  });
});
