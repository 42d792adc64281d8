import { afterEach, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import { Capabilities } from '../../src/api/schemas/developer.js';
import { FEATURES } from '../../src/emulator/domain/developer.js';
import { as, cleanup, concretePath, emulator } from './platform-harness.js';

afterEach(cleanup);

const byId = new Map(allEndpoints().map((e) => [e.id as string, e]));

describe('GET /v1/developer/capabilities says what this emulator implements', () => {
  it('names, for each feature, routes of the table that need exactly its scope', () => {
    for (const [feature, { scope, routes }] of Object.entries(FEATURES)) {
      expect(routes.length, feature).toBeGreaterThan(0);
      for (const id of routes) expect([feature, id, byId.get(id)?.def.scope]).toEqual([feature, id, scope]);
    }
  });

  it('turns a feature on exactly when none of its routes answers 501 NOT_IMPLEMENTED', async () => {
    const e = await emulator({ checkResponses: true });
    const res = await as(e).get('/v1/developer/capabilities');
    expect(res.status).toBe(200);
    expect(Capabilities.safeParse(res.body).success).toBe(true);
    const answered: Record<string, boolean> = {};
    for (const [feature, { routes }] of Object.entries(FEATURES)) {
      let implemented = true;
      for (const id of routes) {
        const { def } = byId.get(id)!;
        // An empty body: an implemented route refuses it (400/404), a pending one answers 501 before reading it.
        const reply = await as(e)[def.method.toLowerCase() as 'post'](concretePath(def.path)).send({});
        expect([id, reply.status]).not.toEqual([id, 500]);
        if (reply.status === 501) implemented = false;
      }
      answered[feature] = implemented;
    }
    // The admin key has every scope and dev_pro writes: only what the emulator implements decides.
    expect(res.body.features).toEqual(answered);
  });
});
