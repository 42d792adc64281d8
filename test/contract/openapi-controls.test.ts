import { validate } from '@readme/openapi-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapi, openapiPath } from '../../src/api/index.js';
import { controlsOpenapi } from '../../src/emulator/controls/controls-openapi.js';
import { EMULATOR_CONTROLS } from '../../src/emulator/controls/index.js';
import { STATE_PATH } from '../../src/emulator/saved-state/state-document.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { tempDir } from '../cli/helpers.js';
import { runCli } from '../cli/run-cli.js';

/** The `/_emulator` controls' own document, derived from the list the emulator mounts. */
type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  'x-emulator': boolean;
  requestBody?: { content: Record<string, { schema: { required?: string[]; properties?: Json } }> };
  responses: Record<string, { headers?: Record<string, Json>; $ref?: string }>;
};

const doc = controlsOpenapi();
const components = doc.components as {
  headers: Record<string, { required?: boolean }>;
  responses: Record<string, { headers?: Record<string, Json> }>;
};
const opOf = (path: string) => doc.paths[`/_emulator${openapiPath(path)}`]?.post as Operation | undefined;

let emulator: Emulator;
let origin: string;
beforeAll(async () => {
  emulator = await createEmulator({ logger: pino({ level: 'silent' }) });
  ({ url: origin } = await emulator.listen(0, '127.0.0.1'));
});
afterAll(() => emulator?.close());

describe('controlsOpenapi()', () => {
  it('documents every control the emulator mounts, and nothing of the service', () => {
    // The POST controls, and the state routes (GET and PUT) beside them.
    expect(Object.keys(doc.paths).sort()).toEqual(
      [...EMULATOR_CONTROLS.map((c) => `/_emulator${openapiPath(c.path)}`), STATE_PATH].sort(),
    );
    expect(Object.keys(doc.paths[STATE_PATH]!).sort()).toEqual(['get', 'put']);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/_emulator/clock', '/_emulator/reset', '/_emulator/inbound', '/_emulator/handoff']),
    );
    expect(Object.keys(openapi().paths).filter((p) => p.startsWith('/_emulator'))).toEqual([]);
  });

  it('gives each control a tag marked x-emulator, a description with its errors, and X-Request-ID on every answer', () => {
    expect(doc.tags).toEqual([expect.objectContaining({ name: 'emulator controls', 'x-emulator': true })]);
    for (const item of EMULATOR_CONTROLS) {
      const op = opOf(item.path)!;
      expect(op.tags, item.path).toEqual(['emulator controls']);
      expect(op['x-emulator']).toBe(true);
      expect(op.summary).toBe(item.summary);
      expect(op.description).toMatch(/Errors: .*401 `UNAUTHENTICATED`; 403 `INSUFFICIENT_SCOPE`/);
      for (const [status, ref] of Object.entries(op.responses)) {
        if (status === 'default') continue;
        const response = ref.$ref ? components.responses[ref.$ref.split('/').pop()!]! : ref;
        const header = response.headers!['X-Request-ID']!;
        expect(components.headers[String(header.$ref).split('/').pop()!]!.required, `${item.path} ${status}`).toBe(
          true,
        );
      }
      expect(Boolean(op.requestBody), item.path).toBe(item.body !== undefined);
    }
  });

  it('is a valid document that redocly’s recommended rules pass without a warning', async () => {
    const result = await validate(structuredClone(doc) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid ? [] : result.errors).toEqual([]);
    const config = await createConfig({
      extends: ['recommended'],
      rules: { 'operation-tag-defined': 'error', 'tag-description': 'error', 'operation-description': 'error' },
    });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/controls.json', config });
    expect(problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`)).toEqual([]);
  }, 60_000);

  it('documents the bodies the controls validate with: what the document requires, the emulator requires', async () => {
    for (const item of EMULATOR_CONTROLS.filter((c) => c.body)) {
      const schema = opOf(item.path)!.requestBody!.content['application/json']!.schema;
      // A body of optional fields alone (POST /_emulator/chaos: `{}` turns every hazard off) is no refusal.
      if ((schema.required ?? []).length === 0) continue;
      const path = item.path.replace(':id', 'tpl_order_update');
      const post = (body: unknown) =>
        fetch(`${origin}/_emulator${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      // Without any field: refused, naming each field the document marks required (a missing channel
      // names none, so it is 400 like any other missing field).
      const empty = await post({});
      const answer = (await empty.json()) as { error: { code: string; details: { path: string }[] } };
      expect(`${empty.status} ${answer.error.code}`, item.path).toBe('400 VALIDATION_FAILED');
      expect(answer.error.details.map((d) => d.path.split('.')[0]).sort(), item.path).toEqual(
        [...(schema.required ?? [])].sort(),
      );
      expect(empty.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });

  it('answers a key that is not the admin key with the documented 403', async () => {
    const res = await fetch(`${origin}/_emulator/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.testKey}` },
    });
    expect(res.status).toBe(403);
    expect(Object.keys(opOf('/reset')!.responses)).toContain('403');
  });
});

describe('convo-kit openapi --emulator', () => {
  it('writes the controls document', async () => {
    const dir = tempDir('convo-kit-openapi-emulator-');
    try {
      const file = dir.file('controls.json');
      const result = await runCli(['openapi', '--emulator', '--out', file]);
      expect(result.code).toBe(0);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(doc)));
      // The POST controls, and GET and PUT /_emulator/state.
      const operations = EMULATOR_CONTROLS.length + 2;
      expect(result.stderr).toMatch(new RegExp(`wrote .*controls\\.json: ${operations} operations\\n`));
    } finally {
      dir.remove();
    }
  });
});
