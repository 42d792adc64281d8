import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/index.js';
import { ROUTE_CASES, type RouteCase } from './cases/index.js';
import { startE2e, type E2e } from './harness.js';

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
const cases: Record<string, RouteCase | undefined> = ROUTE_CASES;

describe('the case table', () => {
  it('has a case for every route of the table and none for an unknown one', () => {
    expect(entries.filter((e) => cases[e.id] === undefined).map((e) => e.id)).toEqual([]);
    const ids = new Set<string>(entries.map((e) => e.id));
    expect(Object.keys(cases).filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe('every route through the client', () => {
  it.each(entries.map((e) => [e.id, e.def.method, e.def.path] as const))('%s (%s %s)', async (id) => {
    const run = cases[id];
    if (!run) throw new Error(`no case for ${id}`);
    await run(t);
  });
});
