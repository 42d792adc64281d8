import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { setup, teardown } from './inspector-harness.js';

/** Every module a page loads: its entry and, transitively, each relative import, as served. */
async function moduleGraph(get: (path: string) => Promise<request.Response>, entry: string) {
  const served = new Map<string, request.Response>();
  const queue = [entry];
  while (queue.length > 0 && served.size < 50) {
    const path = queue.shift()!;
    if (served.has(path)) continue;
    const res = await get(path);
    served.set(path, res);
    for (const [, spec] of res.text.matchAll(/^(?:import|export)[^'"]*from ["'](\.\/[a-z-]+\.js)["']/gm)) {
      queue.push(new URL(spec!, `http://page.local${path}`).pathname);
    }
  }
  return served;
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await createEmulator({});
});
afterAll(async () => {
  await emulator.close();
});

describe("the pages' browser modules, as served", () => {
  it('the console loads one module under its nonce, and every module it imports is served as JavaScript', async () => {
    const page = await request(emulator.app).get('/_emulator/console').expect(200);
    const csp = page.headers['content-security-policy'] as string;
    const nonce = /script-src 'nonce-([^']+)';/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    // No inline script, nor any script of the same origin: the nonce only.
    expect(csp).not.toMatch(/script-src[^;]*('self'|'unsafe-inline'|'strict-dynamic')/);
    const scripts = [...page.text.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
    expect(scripts).toEqual([
      '<script type="application/json" id="page-data">',
      `<script type="module" nonce="${nonce}" src="/_emulator/console/assets/console.js">`,
    ]);
    const graph = await moduleGraph((path) => request(emulator.app).get(path), '/_emulator/console/assets/console.js');
    expect([...graph.keys()]).toEqual(expect.arrayContaining(['/_emulator/console/assets/dom.js']));
    for (const [path, res] of graph) {
      expect([path, res.status, res.headers['content-type'], res.headers['x-content-type-options']]).toEqual([
        path,
        200,
        'text/javascript; charset=utf-8',
        'nosniff',
      ]);
      // Compiled: no type annotation is left for the browser to choke on.
      expect(res.text).not.toMatch(/^import type |: HTMLElement\b|\binterface \w+ \{/m);
    }
  });

  it('serves no other file, and nothing to another site or a rebound host', async () => {
    for (const name of ['nope.js', 'dom.ts', 'tsconfig.json', '..%2Fpage-shell.js', 'DOM.js']) {
      await request(emulator.app).get(`/_emulator/console/assets/${name}`).expect(404);
    }
    await request(emulator.app)
      .get('/_emulator/console/assets/console.js')
      .set('sec-fetch-site', 'cross-site')
      .expect(403);
    await request(emulator.app).get('/_emulator/console/assets/console.js').set('host', 'rebound.example').expect(403);
  });

  it("the inspector loads its module from under its own mount path, behind the inspector's rule", async () => {
    const s = setup();
    try {
      const page = await request(s.app).get('/_inspector/').expect(200);
      expect(page.text).toMatch(/<script type="module" nonce="[^"]+" src="\/_inspector\/assets\/inspector\.js">/);
      const graph = await moduleGraph((path) => request(s.app).get(path), '/_inspector/assets/inspector.js');
      expect([...graph.keys()]).toEqual(
        expect.arrayContaining(['/_inspector/assets/delivery-row.js', '/_inspector/assets/row-cells.js']),
      );
      for (const [path, res] of graph) expect([path, res.status]).toEqual([path, 200]);
      await request(s.app).get('/_inspector/assets/nope.js').expect(404);
      await request(s.app).get('/_inspector/assets/inspector.js').set('origin', 'http://elsewhere.example').expect(403);
    } finally {
      await teardown(s);
    }
  });
});
