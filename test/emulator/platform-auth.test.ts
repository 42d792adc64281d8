import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiKeyCreated, ApiKeyRotated } from '../../src/api/schemas/api-key.js';
import { EMULATOR_KEY_IDS } from '../../src/emulator/handlers/keys.js';
import { as, cleanup, emulator } from './platform-harness.js';

afterEach(cleanup);

const DAY_SECONDS = 24 * 3600;

async function createKey(e: Awaited<ReturnType<typeof emulator>>, scopes: string[], kind = 'live') {
  const res = await as(e).post('/v1/keys').send({ label: 'ci', scopes, kind });
  expect(res.status).toBe(201);
  return ApiKeyCreated.parse(res.body);
}

describe('authentication', () => {
  it.each([
    ['no Authorization header', undefined, /Missing Authorization/],
    ['another scheme', 'Basic dXNlcjpwYXNz', /Malformed Authorization/],
    ['Bearer without a key', 'Bearer ', /Missing|Malformed/],
    ['a malformed key', 'Bearer svc_live_short', /Malformed API key/],
    ['an unknown key', `Bearer svc_live_${'A'.repeat(32)}`, /not known/],
  ])('answers 401 UNAUTHENTICATED for %s', async (_name, header, message) => {
    const e = await emulator();
    const req = request(e.app).get('/v1/tickets');
    const res = await (header === undefined ? req : req.set('Authorization', header));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
    expect(res.body.error.message).toMatch(message);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('never echoes the presented key', async () => {
    const e = await emulator();
    const key = `svc_live_${'B'.repeat(32)}`;
    const res = await request(e.app).get('/v1/tickets').set('Authorization', `Bearer ${key}`);
    expect(JSON.stringify(res.body)).not.toContain('BBBB');
  });

  it('reaches GET /v1/status without a key', async () => {
    const e = await emulator();
    expect((await request(e.app).get('/v1/status')).status).toBe(200);
  });
});

describe('keys lifecycle', () => {
  it('shows a created key once, lists it without its value, and lets it authenticate', async () => {
    const e = await emulator();
    const created = await createKey(e, ['tickets:read']);
    expect(created.key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(created.last4).toBe(created.key.slice(-4));
    const list = await as(e).get('/v1/keys?limit=100');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(created.key);
    expect(list.body.data.map((k: { id: string }) => k.id)).toEqual(
      expect.arrayContaining([created.id, EMULATOR_KEY_IDS.admin]),
    );
    expect(list.body.data.every((k: object) => !('key' in k))).toBe(true);
    expect((await as(e, created.key).get('/v1/tickets')).status).toBe(200);
  });

  it('filters the list by kind', async () => {
    const e = await emulator();
    await createKey(e, ['tickets:read'], 'test');
    const res = await as(e).get('/v1/keys?kind=test');
    expect(res.body.data.length).toBeGreaterThanOrEqual(2);
    expect(res.body.data.every((k: { kind: string }) => k.kind === 'test')).toBe(true);
  });

  it('keeps the old value for 24 hours after a rotation, by the emulator clock, then refuses it', async () => {
    const e = await emulator();
    const created = await createKey(e, ['tickets:read']);
    const res = await as(e).post(`/v1/keys/${created.id}/rotate`);
    expect(res.status).toBe(200);
    const rotated = ApiKeyRotated.parse(res.body);
    expect(rotated.key).not.toBe(created.key);
    expect(Date.parse(rotated.previous_key_expires_at) - e.clock.now()).toBeGreaterThan(DAY_SECONDS * 1000 - 60_000);
    expect((await as(e, created.key).get('/v1/tickets')).status).toBe(200);
    expect((await as(e, rotated.key).get('/v1/tickets')).status).toBe(200);
    e.clock.advance(DAY_SECONDS - 60);
    expect((await as(e, created.key).get('/v1/tickets')).status).toBe(200);
    e.clock.advance(61);
    const after = await as(e, created.key).get('/v1/tickets');
    expect(after.status).toBe(401);
    expect(after.body.error.message).toMatch(/rotated/);
    expect((await as(e, rotated.key).get('/v1/tickets')).status).toBe(200);
  });

  it('refuses a revoked key at once, including a rotated value still in its grace period', async () => {
    const e = await emulator();
    const created = await createKey(e, ['tickets:read']);
    const rotated = ApiKeyRotated.parse((await as(e).post(`/v1/keys/${created.id}/rotate`)).body);
    const revoke = await as(e).delete(`/v1/keys/${created.id}`);
    expect(revoke.status).toBe(204);
    expect(revoke.text).toBe('');
    for (const value of [created.key, rotated.key]) {
      const res = await as(e, value).get('/v1/tickets');
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/revoked/);
    }
    expect((await as(e).get('/v1/keys?limit=100')).body.data.map((k: { id: string }) => k.id)).not.toContain(
      created.id,
    );
    expect((await as(e).delete(`/v1/keys/${created.id}`)).status).toBe(404);
    expect((await as(e).post(`/v1/keys/${created.id}/rotate`)).status).toBe(404);
  });

  it('refuses a key at once whoever removes it or its value: plain SQL, an import', async () => {
    const e = await emulator();
    const [first, second] = [await createKey(e, ['tickets:read']), await createKey(e, ['tickets:read'])];
    for (const { key } of [first, second]) expect((await as(e, key).get('/v1/tickets')).status).toBe(200);
    e.db.prepare("DELETE FROM docs WHERE kind = 'api_keys' AND id = ?").run(first.id);
    expect((await as(e, first.key).get('/v1/tickets')).body.error.message).toMatch(/revoked/);
    e.db.prepare('UPDATE api_key_hashes SET expires_at = ? WHERE key_id = ?').run(e.clock.now(), second.id);
    expect((await as(e, second.key).get('/v1/tickets')).body.error.message).toMatch(/rotated/);
    const third = await createKey(e, ['tickets:read']);
    expect((await as(e, third.key).get('/v1/tickets')).status).toBe(200);
    const document = e.state.export();
    e.state.import({ ...document, api_key_hashes: [], collections: { ...document.collections, api_keys: [] } });
    expect((await as(e, third.key).get('/v1/tickets')).body.error.message).toMatch(/not known/);
  });

  it('keeps last_used_at to the minute, by the emulator clock', async () => {
    const e = await emulator();
    const created = await createKey(e, ['tickets:read']);
    const lastUsed = async () =>
      (await as(e).get('/v1/keys?limit=100')).body.data.find((k: { id: string }) => k.id === created.id).last_used_at;
    expect(await lastUsed()).toBeNull();
    await as(e, created.key).get('/v1/tickets');
    const first = await lastUsed();
    expect(Math.abs(Date.parse(first) - e.clock.now())).toBeLessThan(5_000);
    e.clock.advance(30);
    await as(e, created.key).get('/v1/tickets');
    expect(await lastUsed()).toBe(first);
    e.clock.advance(31);
    await as(e, created.key).get('/v1/tickets');
    expect(Date.parse(await lastUsed()) - Date.parse(first)).toBeGreaterThanOrEqual(61_000);
  });

  it("refuses to rotate or revoke the emulator's own keys", async () => {
    const e = await emulator();
    expect((await as(e).delete(`/v1/keys/${EMULATOR_KEY_IDS.admin}`)).body.error.code).toBe('INVALID_STATE');
    expect((await as(e).post(`/v1/keys/${EMULATOR_KEY_IDS.test}/rotate`)).body.error.code).toBe('INVALID_STATE');
    expect((await as(e).get('/v1/tickets')).status).toBe(200);
  });

  it('does not let a key grant scopes it lacks', async () => {
    const e = await emulator();
    const limited = await createKey(e, ['keys:write', 'keys:read']);
    const res = await as(e, limited.key)
      .post('/v1/keys')
      .send({ label: 'escalate', scopes: ['tickets:write'], kind: 'live' });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: [{ required_scope: 'tickets:write' }],
    });
    expect(
      (
        await as(e, limited.key)
          .post('/v1/keys')
          .send({ label: 'ok', scopes: ['keys:read'], kind: 'live' })
      ).status,
    ).toBe(201);
  });

  it('does not let a key rotate a key that holds scopes it lacks: the new value would hand them out', async () => {
    const e = await emulator();
    const broad = await createKey(e, ['tickets:read', 'keys:write']);
    const limited = await createKey(e, ['keys:write', 'keys:read']);
    const refused = await as(e, limited.key).post(`/v1/keys/${broad.id}/rotate`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: [{ required_scope: 'tickets:read' }],
    });
    expect(JSON.stringify(refused.body)).not.toMatch(/svc_live_/);
    // Nothing changed: the broad key's value still works, and no second value exists.
    expect((await as(e, broad.key).get('/v1/tickets')).status).toBe(200);
    const peer = await createKey(e, ['keys:read']);
    expect((await as(e, limited.key).post(`/v1/keys/${peer.id}/rotate`)).status).toBe(200);
    expect((await as(e, broad.key).post(`/v1/keys/${broad.id}/rotate`)).status).toBe(200);
  });
});

describe('scopes', () => {
  it('answers 403 INSUFFICIENT_SCOPE naming the missing scope', async () => {
    const e = await emulator();
    const reader = await createKey(e, ['tickets:read']);
    const res = await as(e, reader.key).get('/v1/contacts');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: [{ required_scope: 'contacts:read' }],
    });
    expect((await as(e, reader.key).patch('/v1/tickets/tkt_x').send({ priority: 'high' })).body.error.details).toEqual([
      { required_scope: 'tickets:write' },
    ]);
  });

  it('lets any valid live key reach routes without a scope (developer, usage)', async () => {
    const e = await emulator();
    const reader = await createKey(e, ['tickets:read']);
    expect((await as(e, reader.key).get('/v1/developer/limits')).status).toBe(200);
    expect((await as(e, reader.key).get('/v1/usage')).status).toBe(200);
  });

  it('gives the admin key every scope', async () => {
    const e = await emulator();
    for (const path of [
      '/v1/contacts',
      '/v1/tickets',
      '/v1/keys',
      '/v1/webhooks',
      '/v1/channels',
      '/v1/pipeline/stages',
      '/v1/analytics/summary',
    ]) {
      expect((await as(e).get(path)).status, path).toBe(200);
    }
  });
});
