import { afterEach, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import { AutomationTriggerKind } from '../../src/api/schemas/automation.js';
import { Capabilities } from '../../src/api/schemas/developer.js';
import { FEATURES } from '../../src/emulator/domain/developer/developer.js';
import { as, cleanup, emulator } from './platform-harness.js';

afterEach(cleanup);

const byId = new Map(allEndpoints().map((e) => [e.id as string, e]));

describe('GET /v1/developer/capabilities', () => {
  it('names, for each feature, routes of the table that need exactly its scope', () => {
    for (const [feature, { scope, routes }] of Object.entries(FEATURES)) {
      expect(routes.length, feature).toBeGreaterThan(0);
      for (const id of routes) expect([feature, id, byId.get(id)?.def.scope]).toEqual([feature, id, scope]);
    }
  });

  it('turns a feature on exactly when the key has its scope and the plan allows it', async () => {
    const e = await emulator({ checkResponses: true });
    const all = await as(e).get('/v1/developer/capabilities');
    expect(all.status).toBe(200);
    expect(Capabilities.safeParse(all.body).success).toBe(true);
    // The admin key has every scope and dev_pro writes: every feature is on.
    expect(Object.entries(all.body.features).filter(([, on]) => !on)).toEqual([]);
    expect(Object.keys(all.body.features).sort()).toEqual(Object.keys(FEATURES).sort());
    // The AI surface is built and said so (README "What the emulator covers").
    expect(all.body.features).toMatchObject({ ai_groups: true, knowledge: true, ai_providers: true });
    // What automations do and do not do here (docs/automations.md): one line per trigger kind.
    expect(Object.keys(all.body.automations.triggers).sort()).toEqual([...AutomationTriggerKind.options].sort());
    expect(all.body.automations.not_emulated.length).toBeGreaterThan(0);
    const created = await as(e)
      .post('/v1/keys')
      .send({ label: 'comments only', scopes: ['comments:write', 'analytics:read'], kind: 'live' });
    const narrow = await as(e, created.body.key).get('/v1/developer/capabilities');
    expect(Object.entries(narrow.body.features).filter(([, on]) => on)).toEqual([
      ['comments', true],
      ['analytics', true],
    ]);
  });

  it('turns every write feature off on a read-only plan', async () => {
    const e = await emulator({ plan: 'free' });
    const res = await as(e).get('/v1/developer/capabilities');
    const on = Object.entries(res.body.features)
      .filter(([, value]) => value)
      .map(([feature]) => feature);
    expect(on).toEqual(
      Object.entries(FEATURES)
        .filter(([, { scope }]) => scope.endsWith(':read'))
        .map(([feature]) => feature),
    );
  });
});
