import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapi, type OpenApiDocument } from '../../src/api/index.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  documentOperations,
  exampleOf,
  formData,
  type Json,
  type Parameter,
} from '../../scripts/openapi-examples/example-requests.js';
import { freePort } from '../support/run-command.js';

/**
 * Contract testing with an outside tool: Prism (@stoplight/prism-cli) as a validating proxy in front of
 * a real emulator. Prism checks each request against the document before passing it on, and each answer
 * against the document on its way back (`--errors` turns a violation into an error answer). Every
 * operation of the document is called once with its own examples (path ids, Idempotency-Key, body), so
 * a new route is covered without editing this file.
 */

const PRISM = resolve('node_modules/@stoplight/prism-cli/dist/index.js');
/** How long Prism may take to read the document and listen, on a loaded machine. */
const PRISM_START_MS = 120_000;

let dir: string;
let emulator: Emulator;
let origin: string;
let proxy: string;
let prism: ChildProcess | undefined;
let doc: OpenApiDocument;

/** Starts Prism's proxy; resolves once it says it listens, rejects if it exits or takes too long. */
async function startPrism(documentPath: string, upstream: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [PRISM, 'proxy', documentPath, upstream, '--host', '127.0.0.1', '--port', String(port), '--errors'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`Prism did not listen in time:\n${output}`)), PRISM_START_MS);
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`Prism exited (${String(code)}):\n${output}`));
    });
  });
  return child;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'convo-kit-prism-'));
  emulator = await createEmulator({ logger: pino({ level: 'silent' }), checkResponses: true });
  ({ url: origin } = await emulator.listen(0, '127.0.0.1'));
  doc = openapi({ serverUrl: origin });
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
  const port = await freePort();
  prism = await startPrism(join(dir, 'openapi.json'), origin, port);
  proxy = `http://127.0.0.1:${port}`;
}, PRISM_START_MS + 30_000);

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((done) => prism!.once('exit', done));
    prism.kill('SIGTERM');
    await exited;
  }
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One request per operation, written from the document alone. */
function requestOf(path: string, method: string, op: Json, key: string, n: number) {
  const parameters = (op.parameters ?? []) as Parameter[];
  let url = path;
  for (const p of parameters.filter((p) => p.in === 'path'))
    url = url.replace(`{${p.name}}`, encodeURIComponent(p.example ?? `${p.name}_unknown`));
  const headers: Record<string, string> = {};
  if ((op.security as unknown[]).length > 0) headers.authorization = `Bearer ${key}`;
  if (parameters.some((p) => p.name === 'Idempotency-Key' && p.required)) headers['idempotency-key'] = `prism-${n}`;
  const content = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
  let body: string | FormData | undefined;
  if (content?.['application/json']) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(exampleOf(doc, content['application/json']));
  } else if (content?.['multipart/form-data']) body = formData(exampleOf(doc, content['multipart/form-data']) as Json);
  return { url, init: { method: method.toUpperCase(), headers, body } };
}

describe('Prism 5.14.2 as a validating proxy in front of the emulator', () => {
  it('finds no request or answer that breaks the document, on every operation', async () => {
    const problems: string[] = [];
    const statuses: Record<string, number> = {};
    const operations = documentOperations(doc);
    for (const [n, { path, method, op }] of operations.entries()) {
      // Each call starts from the seeded workspace: a DELETE does not take away what the next one reads.
      const reset = await fetch(`${origin}/_emulator/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emulator.adminKey}` },
      });
      expect(reset.status).toBe(200);
      const { url, init } = requestOf(path, method, op, emulator.adminKey, n);
      const answer = await fetch(proxy + url, init);
      const text = await answer.text();
      const label = `${method.toUpperCase()} ${path} -> ${answer.status}`;
      const kind = `${String(answer.status)[0]}xx`;
      statuses[kind] = (statuses[kind] ?? 0) + 1;
      const violations = answer.headers.get('sl-violations');
      if (violations) problems.push(`${label} violations: ${violations}`);
      // Prism's own refusals are problem+json under its errors address; the service's are the envelope.
      if (text.includes('stoplight.io/prism/errors')) problems.push(`${label} prism: ${text.slice(0, 600)}`);
    }
    expect(problems).toEqual([]);
    // Most calls reach a handler and succeed: the examples name seeded resources.
    expect(statuses['2xx'], JSON.stringify(statuses)).toBeGreaterThan(operations.length / 2);
  }, 300_000);

  it('refuses a request that breaks the document before it reaches the emulator (the check can fail)', async () => {
    const answer = await fetch(`${proxy}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ conversation_id: 'conv_delivered', content: 'no Idempotency-Key' }),
    });
    expect(answer.status).toBe(422);
    expect(await answer.text()).toContain('idempotency-key');
  });

  it(
    'reports an answer that breaks a document (the check can fail)',
    async () => {
      // The same emulator behind a document that says a conversation's stage is a number.
      const broken = structuredClone(doc);
      const conversation = (broken.components as { schemas: Record<string, Json> }).schemas.Conversation!;
      (conversation.properties as Json).stage = { type: 'integer' };
      writeFileSync(join(dir, 'broken.json'), JSON.stringify(broken));
      const port = await freePort();
      const strict = await startPrism(join(dir, 'broken.json'), origin, port);
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/v1/conversations/conv_delivered`, {
          headers: { authorization: `Bearer ${emulator.adminKey}` },
        });
        expect(answer.status).toBe(500);
        expect(answer.headers.get('sl-violations')).toContain('stage must be integer');
      } finally {
        const exited = new Promise((done) => strict.once('exit', done));
        strict.kill('SIGTERM');
        await exited;
      }
    },
    PRISM_START_MS + 30_000,
  );
});
