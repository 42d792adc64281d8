import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { as, cleanup, emulator } from './platform-harness.js';

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

  it('resets to the seeded workspace, keeping keys', async () => {
    const e = await emulator();
    const key = await as(e)
      .post('/v1/keys')
      .send({ label: 'kept', scopes: ['contacts:read'], kind: 'live' });
    const id = SEED_IDS.delivered.contact;
    const seeded = (await as(e).get(`/v1/contacts/${id}`)).body;
    expect((await as(e).patch(`/v1/contacts/${id}`).send({ name: 'Changed Name' })).status).toBe(200);
    expect((await as(e).get(`/v1/contacts/${id}`)).body.name).toBe('Changed Name');
    expect((await as(e).post('/_emulator/reset')).status).toBe(200);
    expect((await as(e).get(`/v1/contacts/${id}`)).body.name).toBe(seeded.name);
    expect((await as(e, key.body.key).get(`/v1/contacts/${id}`)).status).toBe(200);
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
