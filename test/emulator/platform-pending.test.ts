import { afterEach, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import { handlers } from '../../src/emulator/handlers/index.js';
import { isPending, PENDING, type RouteHandlerTable } from '../../src/emulator/platform/pending.js';
import { as, cleanup, concretePath, emulator } from './platform-harness.js';

afterEach(cleanup);

const pending = allEndpoints().filter((e) => isPending(e.group, e.name));

describe('pending routes (part 2)', () => {
  it('lists only groups and routes the table has', () => {
    const groups = new Set(allEndpoints().map((e) => e.group as string));
    // Typed loosely: while every pending group is pending whole, the name lists' type is empty.
    for (const [group, names] of Object.entries(PENDING as Record<string, 'all' | readonly string[]>)) {
      if (names === 'all') continue;
      expect(groups.has(group), group).toBe(true);
      for (const name of names)
        expect(
          allEndpoints().some((e) => e.id === `${group}.${name}`),
          `${group}.${name}`,
        ).toBe(true);
    }
  });

  it.each(pending.map((e) => [e.id, e] as const))(
    'answers %s with 501 NOT_IMPLEMENTED for a live key',
    async (id, entry) => {
      const e = await emulator();
      const method = entry.def.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      const res = await as(e)[method](concretePath(entry.def.path)).send({});
      expect(res.status).toBe(501);
      expect(res.body.error.code).toBe('NOT_IMPLEMENTED');
      expect(res.body.error.message).toContain(id);
    },
  );

  it.each(pending.filter((e) => e.def.aliases?.length).map((e) => [e.id, e] as const))(
    'routes the alias methods of %s too',
    async (_id, entry) => {
      const e = await emulator();
      for (const alias of entry.def.aliases!) {
        const res = await as(e)[alias.toLowerCase() as 'patch'](concretePath(entry.def.path)).send({});
        expect(res.status).toBe(501);
      }
    },
  );

  it('checks auth and scope before answering 501', async () => {
    const e = await emulator();
    const entry = pending.find((p) => p.def.scope !== null)!;
    const reader = await as(e)
      .post('/v1/keys')
      .send({ label: 'r', scopes: ['keys:read'], kind: 'live' });
    const method = entry.def.method.toLowerCase() as 'get';
    expect((await as(e, `svc_live_${'Z'.repeat(32)}`)[method](concretePath(entry.def.path))).status).toBe(401);
    expect((await as(e, reader.body.key)[method](concretePath(entry.def.path))).body.error.code).toBe(
      'INSUFFICIENT_SCOPE',
    );
  });
});

describe('the handler registry type', () => {
  it('makes a missing handler of an implemented route a compile error (checked by tsc)', () => {
    const { get: _dropped, ...withoutGet } = handlers.tickets;
    // @ts-expect-error tickets.get is implemented in part 1, so a registry without it must not compile
    const broken: RouteHandlerTable = { ...handlers, tickets: withoutGet };
    // @ts-expect-error a whole implemented group missing must not compile either
    const missingGroup: RouteHandlerTable = { ...handlers, contacts: undefined };
    expect(Object.keys(broken.tickets)).not.toContain('get');
    expect(missingGroup.contacts).toBeUndefined();
  });
});
