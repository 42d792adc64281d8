import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/index.js';
import { ApiError } from '../../src/client/index.js';
import { isPending } from '../../src/emulator/platform/pending.js';
import { ROUTE_CASES, type RouteCase } from './cases/index.js';
import { methodOf, rejection, startE2e, type E2e } from './harness.js';
import { PENDING_INPUTS } from './pending-inputs.js';

// One emulator for the whole file (file database), driven only through the client over real HTTP. The client
// checks every 2xx against the route's response schema, so each passing case also proves emulator and contract agree.
let t: E2e;
beforeAll(async () => {
  t = await startE2e({ fileDb: true });
});
afterAll(async () => {
  await t.close();
});

const entries = allEndpoints();
const implemented = entries.filter((e) => !isPending(e.group, e.name));
const pending = entries.filter((e) => isPending(e.group, e.name));
const cases: Record<string, RouteCase | undefined> = ROUTE_CASES;
const pendingInputs: Record<string, object | undefined> = PENDING_INPUTS;

describe('the case table', () => {
  it('has a case for every implemented route and none for a pending or unknown one', () => {
    expect(implemented.length).toBeGreaterThan(0);
    expect(implemented.filter((e) => cases[e.id] === undefined).map((e) => e.id)).toEqual([]);
    const implementedIds = new Set<string>(implemented.map((e) => e.id));
    expect(Object.keys(cases).filter((id) => !implementedIds.has(id))).toEqual([]);
  });

  it('has a valid input for every pending route and none for a route that is no longer pending', () => {
    expect(pending.filter((e) => pendingInputs[e.id] === undefined).map((e) => e.id)).toEqual([]);
    const pendingIds = new Set<string>(pending.map((e) => e.id));
    expect(Object.keys(pendingInputs).filter((id) => !pendingIds.has(id))).toEqual([]);
  });
});

describe('every implemented route through the client', () => {
  it.each(implemented.map((e) => [e.id, e.def.method, e.def.path] as const))('%s (%s %s)', async (id) => {
    const run = cases[id];
    if (!run) throw new Error(`no case for ${id}`);
    await run(t);
  });
});

describe('every pending route through the client', () => {
  it.each(pending.map((e) => [e.id, e] as const))(
    '%s answers 501 NOT_IMPLEMENTED as an ApiError',
    async (id, entry) => {
      const input = pendingInputs[id];
      if (!input) throw new Error(`no input for ${id}`);
      const error = await rejection(methodOf(t.client, entry.group, entry.name)(input));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
      expect((error as ApiError).message).toContain(id);
      expect((error as ApiError).requestId).toMatch(/\S/);
    },
  );
});
