import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as api from '../../src/api/index.js';
import * as resources from '../../src/resources/index.js';

const schemasDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/api/schemas');

/** What each file of src/api/schemas defines for users: its schemas and its constants (limits), not its helper functions. */
async function wireShapes(): Promise<Map<string, unknown>> {
  const shapes = new Map<string, unknown>();
  for (const file of readdirSync(schemasDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const mod = (await import(pathToFileURL(join(schemasDir, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod))
      if (typeof value !== 'function' || value instanceof z.ZodType) shapes.set(name, value);
  }
  return shapes;
}

describe('the public surface (src/api/README.md, "The public surface")', () => {
  it('convo-kit/resources exports every schema and limit of src/api/schemas, the same objects', async () => {
    const shapes = await wireShapes();
    expect(shapes.size).toBeGreaterThan(150);
    const exported = resources as Record<string, unknown>;
    const missing = [...shapes.keys()].filter((name) => exported[name] !== shapes.get(name));
    expect(missing).toEqual([]);
    for (const name of ['Ticket', 'Conversation', 'Message', 'Contact', 'Template', 'Campaign', 'TicketUpdate'])
      expect(exported[name]).toBeInstanceOf(z.ZodType);
  });

  it('convo-kit/api exports the contract only, so no shape has two homes', async () => {
    const shapes = await wireShapes();
    expect(Object.keys(api).filter((name) => shapes.has(name))).toEqual([]);
    expect(Object.keys(api)).toEqual(
      expect.arrayContaining(['endpoints', 'allEndpoints', 'SCOPES', 'ERROR_STATUS', 'openapi']),
    );
  });
});
