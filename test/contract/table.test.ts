import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  allEndpoints,
  compareRoutePrecedence,
  endpoints,
  SCOPES,
  type EndpointDef,
  type EndpointEntry,
} from '../../src/api/index.js';
import { PageQuery } from '../../src/resources/index.js';
import { routingOrder } from '../../src/api/all-endpoints.js';
import { SYNTHETIC_BUILDERS } from '../../src/emulator/platform/synthetic.js';

/** Decisions §5: the only routes where a test key gets a synthetic 201, in the spec's words. */
const SYNTHETIC_ROUTES = [
  'POST /v1/messages',
  'POST /v1/conversations/:id/messages',
  'POST /v1/campaigns/:id/send',
  'POST /v1/automations/:id/trigger',
  'POST /v1/comments/:id/reply',
];

const table = allEndpoints();
const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
const keysOf = (schema: z.ZodObject | undefined) => Object.keys(schema?.shape ?? {});
const byId = (id: string) => table.find((e) => e.id === id)!;

describe('the contract table', () => {
  // Every route is covered by the typed maps that name it (the handlers, the e2e cases), so no id list is kept here.
  it('gives every route a unique `group.verb` id', () => {
    const ids = table.map((e) => e.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of table) {
      expect(e.id).toBe(`${e.group}.${e.name}`);
      expect(e.name).toMatch(/^[a-z][A-Za-z]*$/);
    }
  });

  it('never declares the same method and path twice (aliases included)', () => {
    const seen = table.flatMap((e) => [e.def.method, ...(e.def.aliases ?? [])].map((m) => `${m} ${e.def.path}`));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it.each(table.map((e) => [e.id, e] as const))(
    '%s: path, params, summary and scope are consistent',
    (_id, { def }) => {
      expect(def.path).toMatch(/^\/v1(\/[a-z0-9_:-]+)+$/);
      expect(def.summary.length).toBeGreaterThan(5);
      const names = pathParams(def.path);
      expect(keysOf(def.params).sort()).toEqual([...names].sort());
      for (const name of names) {
        // Path params are strings (prefixed ids, or a fixed set such as :provider); an empty segment is refused.
        const param = def.params!.shape[name]!;
        expect(z.toJSONSchema(param, { io: 'input' }).type).toBe('string');
        expect(param.safeParse('').success).toBe(false);
      }
      if (def.scope !== null) expect(SCOPES).toContain(def.scope);
    },
  );

  it.each(table.map((e) => [e.id, e] as const))(
    '%s: path params, query, body and headers share no key',
    (_id, { def }) => {
      const all = [def.params, def.query, def.body, def.headers].flatMap(keysOf);
      expect(new Set(all).size).toBe(all.length);
      // The client also takes `idempotencyKey` and camelCased headers (`ifMatch`) in the same input object.
      const camel = keysOf(def.headers).map((h) => h.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()));
      for (const option of ['idempotencyKey', ...camel]) expect(all).not.toContain(option);
    },
  );

  it('has a body on every write that takes one, and none on GET or DELETE', () => {
    const noBody = new Set(['keys.rotate', 'templates.validate', 'templates.submit', 'campaigns.send']);
    for (const e of table) {
      const expectsBody = ['POST', 'PUT', 'PATCH'].includes(e.def.method) && !noBody.has(e.id);
      expect([e.id, e.def.body !== undefined]).toEqual([e.id, expectsBody]);
    }
  });

  it('declares every list route paginated, with PageQuery and a page() response', () => {
    const lists = table.filter((e) => e.name.startsWith('list') || e.id === 'trigger.history');
    expect(lists.length).toBeGreaterThan(20);
    for (const e of table) expect([e.id, e.def.paginated === true]).toEqual([e.id, lists.includes(e)]);
    for (const { def } of lists) {
      expect(def.method).toBe('GET');
      expect(keysOf(def.query)).toEqual(expect.arrayContaining(keysOf(PageQuery)));
      expect(def.query!.safeParse({ limit: '100' }).success).toBe(true);
      expect(def.query!.safeParse({ limit: '101' }).success).toBe(false);
      expect(def.response.safeParse({ data: [], pagination: { has_more: false, next_cursor: null } }).success).toBe(
        true,
      );
      expect(def.response.safeParse({ data: [] }).success).toBe(false);
    }
  });

  it('answers 201 for creates and sends, 204 for deletes, 200 otherwise', () => {
    const created = (e: EndpointEntry) =>
      e.def.method === 'POST' &&
      (/^(create|add|upload|send|sendMessage|reply|trigger|enroll|triggerCampaign)/.test(e.name) ||
        e.id === 'channels.createConnectSession');
    for (const e of table) {
      let expected = created(e) ? 201 : 200;
      if (e.def.method === 'DELETE' && e.id !== 'trigger.stopEnrollments') expected = 204;
      if (e.id === 'events.fire') expected = 202;
      expect([e.id, e.def.status ?? 200]).toEqual([e.id, expected]);
    }
  });

  it('marks exactly the five synthetic routes, each with a builder, and requires Idempotency-Key on exactly the two free-text sends', () => {
    const synthetic = table.filter((e) => e.def.testKeySynthetic);
    expect(synthetic.map((e) => `${e.def.method} ${e.def.path}`).sort()).toEqual([...SYNTHETIC_ROUTES].sort());
    // The builders' type is derived from the flags; this guards the same at run time.
    expect(synthetic.map((e) => e.id).sort()).toEqual(Object.keys(SYNTHETIC_BUILDERS).sort());
    expect(
      table
        .filter((e) => e.def.idempotencyKey === 'required')
        .map((e) => e.id)
        .sort(),
    ).toEqual(['conversations.sendMessage', 'messages.send']);
    for (const e of synthetic) expect(e.def.status).toBe(201);
  });

  it("keeps the spec's own scope assignments", () => {
    expect(byId('messages.send').def.scope).toBe('messages:send');
    expect(byId('conversations.sendMessage').def.scope).toBe('messages:send');
    expect(byId('templates.send').def.scope).toBe('templates:send');
    expect(byId('channels.update').def.scope).toBe('automations:write');
    expect(byId('comments.updateSettings').def.scope).toBe('automations:write');
    expect(byId('webhooks.create').def.scope).toBe('webhooks:write');
    expect(byId('webhooks.list').def.scope).toBe('webhooks:read');
    for (const e of table.filter((e) => e.group === 'developer' || e.group === 'usage' || e.group === 'status'))
      expect(e.def.scope).toBeNull();
  });

  it('reaches only GET /v1/status without a key', () => {
    expect(table.filter((e) => e.def.auth === false).map((e) => e.id)).toEqual(['status.get']);
  });

  it('records the PATCH aliases of the journey steps and status routes, and nothing else', () => {
    const aliased = table.filter((e) => e.def.aliases?.length).map((e) => [e.id, e.def.method, e.def.aliases]);
    expect(aliased).toEqual([
      ['journeys.replaceSteps', 'PUT', ['PATCH']],
      ['journeys.setStatus', 'POST', ['PATCH']],
    ]);
  });

  it('lets only the multipart knowledge upload skip JSON', () => {
    expect(table.filter((e) => e.def.multipart).map((e) => e.id)).toEqual(['groups.uploadKnowledge']);
  });

  it('groups the table as endpoints.<group>.<name>', () => {
    expect(endpoints.tickets.update.path).toBe('/v1/tickets/:id');
    expect(Object.keys(endpoints)).toHaveLength(new Set(table.map((e) => e.group)).size);
  });
});

describe('the routing order (compareRoutePrecedence)', () => {
  /** Does `pattern` match the concrete path `path`? (Express-style `:param` segments.) */
  const matches = (pattern: string, path: string) => {
    const p = pattern.split('/');
    const s = path.split('/');
    return p.length === s.length && p.every((seg, i) => seg.startsWith(':') || seg === s[i]);
  };
  const concrete = (def: EndpointDef) => def.path.replace(/:\w+/g, 'x_1');

  it('puts every literal route before a parameterized route of the same method that would shadow it, in the order the emulator registers them', () => {
    const sorted = routingOrder();
    expect(sorted.map((e) => e.id).sort()).toEqual(table.map((e) => e.id).sort());
    let shadowPairs = 0;
    for (const [i, a] of sorted.entries()) {
      for (const b of sorted.slice(i + 1)) {
        if (a.def.method !== b.def.method || a.def.path === b.def.path) continue;
        // b comes later: it must not be a more specific route that a would swallow.
        if (matches(a.def.path, b.def.path)) throw new Error(`${a.id} (${a.def.path}) shadows ${b.id} (${b.def.path})`);
        if (matches(b.def.path, a.def.path) && !matches(a.def.path, concrete(b.def))) shadowPairs++;
      }
    }
    // /v1/comments/settings vs /:id, /v1/templates/generate/validate vs /:id/validate, /v1/channels/groups vs …
    expect(shadowPairs).toBeGreaterThanOrEqual(2);
  });

  it('orders a literal segment before a parameter and is symmetric', () => {
    const literal = { path: '/v1/comments/settings' };
    const param = { path: '/v1/comments/:id' };
    expect(compareRoutePrecedence(literal, param)).toBeLessThan(0);
    expect(compareRoutePrecedence(param, literal)).toBeGreaterThan(0);
    expect(compareRoutePrecedence(param, param)).toBe(0);
  });
});
