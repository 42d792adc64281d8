import { afterEach, describe, expect, it } from 'vitest';
import { allEndpoints } from '../../src/api/all-endpoints.js';
import { PANELS } from '../../src/console/emulator-console/console-panels.js';
import { DETAIL_PANELS } from '../../src/console/emulator-console/detail-panels.js';
import { panelData } from '../../src/console/emulator-console/console-panel.js';
import { EMULATOR_CONTROLS } from '../../src/emulator/controls/index.js';
import { as, cleanup, concretePath, emulator, frozen } from './platform-harness.js';

afterEach(cleanup);

const unknownIn = (body: { error: { details: { in: string; path: string }[] } }) =>
  body.error.details.filter((d) => d.in === 'query').map((d) => d.path);

describe('a query parameter a route does not declare', () => {
  it('is 400 naming it and the declared name it likely meant, where a typo once returned every template', async () => {
    const e = await emulator({ now: frozen });
    const all = (await as(e).get('/v1/templates').expect(200)).body.data as { status: string }[];
    expect(new Set(all.map((t) => t.status)).size).toBeGreaterThan(1);

    const res = await as(e).get('/v1/templates?stauts=approved').expect(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.body.error.message).toContain('stauts');
    expect(res.body.error.details).toEqual([
      { path: 'stauts', in: 'query', message: 'unknown query parameter; did you mean status?' },
    ]);

    const approved = (await as(e).get('/v1/templates?status=approved').expect(200)).body.data as { status: string }[];
    expect(approved.length).toBeGreaterThan(0);
    expect(approved.every((t) => t.status === 'approved')).toBe(true);
  });

  it('names each unknown one, lists the declared names when none is close, and keeps the other failures', async () => {
    const e = await emulator({ now: frozen });
    const res = await as(e).get('/v1/conversations?limit=0&Status=active&zzz=1').expect(400);
    const byPath = Object.fromEntries(
      (res.body.error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]),
    );
    expect(Object.keys(byPath).sort()).toEqual(['Status', 'limit', 'zzz']);
    expect(byPath.Status).toBe('unknown query parameter; did you mean status?');
    expect(byPath.zzz).toMatch(/^unknown query parameter; expected one of limit, cursor, /);
  });

  it('is refused on a route that declares no query at all', async () => {
    const e = await emulator({ now: frozen });
    const res = await as(e).get('/v1/usage?period=month').expect(400);
    expect(res.body.error.details).toEqual([
      { path: 'period', in: 'query', message: 'unknown query parameter; this route takes none' },
    ]);
    await as(e).get('/v1/usage').expect(200);
  });

  it('is refused on every route of the table, each named in the details', async () => {
    const e = await emulator({ now: frozen });
    const refused: string[] = [];
    for (const [i, { id, def }] of allEndpoints().entries()) {
      // The admin key's per-minute limit: move to the next window before running out.
      if (i % 25 === 24) e.clock.advance(60);
      const method = def.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      const url = `${concretePath(def.path)}?zz_unknown=1&also_unknown=2`;
      let req = as(e)[method](url).set('Idempotency-Key', `k-${id}`);
      if (def.multipart) req = req.field('title', 'x');
      else if (def.method !== 'GET' && def.method !== 'DELETE') req = req.send({});
      const res = await req;
      // An empty body names no channel, so even a route that takes one answers 400 (docs/resources.md).
      expect([id, res.status]).toEqual([id, 400]);
      if (unknownIn(res.body).includes('zz_unknown') && unknownIn(res.body).includes('also_unknown')) refused.push(id);
    }
    expect(refused).toEqual(allEndpoints().map((e) => e.id));
  });
});

describe("the console's own list calls", () => {
  it('send only query parameters their routes declare', async () => {
    const e = await emulator({ now: frozen });
    for (const { list } of [...PANELS, ...DETAIL_PANELS].map(panelData)) {
      // A detail panel's {of}, here no item, is 404: the query passed before the item was looked for.
      const res = await as(e).get(list.replace('{of}', 'none'));
      expect([list, res.status]).toEqual([list, list.includes('{of}') ? 404 : 200]);
    }
  });
});

describe('a query parameter an /_emulator route does not declare', () => {
  it('is refused as on the contract routes, before the control runs', async () => {
    const e = await emulator({ now: frozen });
    const before = e.clock.iso();
    const res = await as(e).post('/_emulator/clock?advance=60').send({ advance_seconds: 60 }).expect(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Invalid query field advance: unknown query parameter; this route takes none',
      details: [{ path: 'advance', in: 'query', message: 'unknown query parameter; this route takes none' }],
    });
    expect(e.clock.iso()).toBe(before);
    await as(e).post('/_emulator/clock').send({ advance_seconds: 60 }).expect(200);

    const index = await as(e).get('/_emulator?verbose=1').expect(400);
    expect(index.body.error.details).toEqual([
      { path: 'verbose', in: 'query', message: 'unknown query parameter; this route takes none' },
    ]);
    await as(e).get('/_emulator').expect(200);
  });

  it('is refused on every control, each named in the details', async () => {
    const e = await emulator({ now: frozen });
    for (const { path } of EMULATOR_CONTROLS) {
      const url = `/_emulator${concretePath(path)}?zz_unknown=1&also_unknown=2`;
      const res = await as(e).post(url).send({});
      // An empty body names no channel: 400, as on the contract routes; its details name the query too.
      expect([path, res.status, unknownIn(res.body)]).toEqual([path, 400, ['zz_unknown', 'also_unknown']]);
    }
  });
});
