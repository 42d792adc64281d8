import { afterEach, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import type { SyntheticRouteId } from '../../src/emulator/platform/synthetic.js';
import { as, cleanup, concretePath, emulator, receiver } from './platform-harness.js';

afterEach(cleanup);

/** A valid input per synthetic route of the table (a route marked synthetic without one fails to compile). */
const SAMPLES: Record<string, object> = {
  'messages.send': { content: 'hello', conversation_id: 'conv_anything' },
  'conversations.sendMessage': { content: 'hello' },
  'campaigns.send': {},
  'automations.trigger': { contact_id: 'ct_anything' },
  'comments.reply': { content: 'Thanks!' },
} satisfies { [Id in SyntheticRouteId]: object };

const table = allEndpoints().filter((e) => e.def.auth !== false);
const synthetic = table.filter((e) => e.def.testKeySynthetic);

describe('test keys over the whole table', () => {
  it.each(table.filter((e) => !e.def.testKeySynthetic).map((e) => [e.id, e] as const))(
    'refuses %s with 403 TEST_KEY_NOT_ALLOWED',
    async (_id, entry) => {
      const e = await emulator();
      const method = entry.def.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      const res = await as(e, e.testKey)[method](concretePath(entry.def.path)).send({});
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('TEST_KEY_NOT_ALLOWED');
    },
  );

  it.each(synthetic.map((e) => [e.id, e] as const))(
    'answers %s with a synthetic 201 marked test, storing and announcing nothing',
    async (id, entry) => {
      const sample = SAMPLES[id];
      expect(sample, `add a valid sample input for ${id} to SAMPLES`).toBeDefined();
      const e = await emulator();
      const hooks = await receiver();
      expect(
        (
          await as(e)
            .post('/v1/webhooks')
            .send({ url: hooks.url, events: ['*'] })
        ).status,
      ).toBe(201);
      const before = (await as(e).get('/v1/messages?limit=100')).body.data.length;
      const path = concretePath(entry.def.path, 'conv_seeded');
      const res = await as(e, e.testKey).post(path).set('Idempotency-Key', 'test-1').send(sample);
      expect(res.status).toBe(201);
      expect(res.body.test).toBe(true);
      expect(entry.def.response.safeParse(res.body).success).toBe(true);
      expect((await as(e).get('/v1/messages?limit=100')).body.data.length).toBe(before);
      await e.dispatcher.idle();
      expect(hooks.received).toHaveLength(0);
    },
  );

  it.each(synthetic.map((e) => [e.id, e] as const))(
    'still validates the input of %s for a test key',
    async (_id, entry) => {
      const e = await emulator();
      const path = concretePath(entry.def.path);
      if (entry.def.params) {
        const longId = await as(e, e.testKey)
          .post(concretePath(entry.def.path, 'x'.repeat(101)))
          .set('Idempotency-Key', 'k')
          .send(SAMPLES[entry.id]!);
        expect(longId.body.error?.code).toBe('VALIDATION_FAILED');
      }
      if (entry.def.body) {
        const invalid = await as(e, e.testKey)
          .post(path)
          .set('Idempotency-Key', 'k')
          .send({ content: '', unexpected: 1 });
        expect(invalid.status).toBe(400);
        expect(invalid.body.error.code).toBe('VALIDATION_FAILED');
      }
      if (entry.def.idempotencyKey === 'required') {
        const missing = await as(e, e.testKey).post(path).send(SAMPLES[entry.id]!);
        expect(missing.body.error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
      }
    },
  );
});
