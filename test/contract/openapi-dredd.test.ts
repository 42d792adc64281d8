import { Converter } from '@apiture/openapi-down-convert';
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
  type Json,
  type Media,
  type Parameter,
} from '../../scripts/openapi-examples/example-requests.js';
import { REPO_ROOT, run } from '../support/run-command.js';

/**
 * Contract testing with Dredd 14.1.0 (the last release), as its users run it: the CLI, given the document
 * and the address of a real emulator, calls every GET route once with the document's own path examples and
 * compares each answer with the one the document declares. Dredd reads OpenAPI 3.0, not 3.1, so the
 * document is first down-converted (@apiture/openapi-down-convert). What Dredd checks, with OpenAPI 3: the
 * status, the declared response headers being present, the Content-Type, and that the answer carries every
 * field of the example, at every depth (its OpenAPI 3 adapter makes no JSON Schema of the body).
 *
 * Hooks (dredd-hooks.cjs) only put in the ids no document can know: resources the seeded workspace has none
 * of, made here first with the document's own request examples.
 */
const DREDD = resolve(REPO_ROOT, 'node_modules/dredd/bin/dredd');
const HOOKS = resolve(REPO_ROOT, 'test/contract/dredd-hooks.cjs');
/** The path example of an id that the hooks put in (dredd-hooks.cjs says the same). */
const HOOK_ID = 'id-from-dredd-hooks';
/** Dredd reads the GET routes' document and makes their 41 calls in about 8 s on an idle machine; the suite runs loaded. */
const DREDD_MS = 120_000;

let dir: string;
let emulator: Emulator;
let origin: string;
let doc: OpenApiDocument;
/** The ids the hooks put in, by path template. */
let hookIds: Record<string, string>;

/** The JSON content of a request body or an answer. */
const jsonOf = (part: unknown) =>
  ((part as Json | undefined)?.content as Record<string, Media> | undefined)?.['application/json'] ?? {};

/** Calls one operation as its examples say, with `{id}` as given; answers the JSON it got. */
async function send(operationId: string, id?: string): Promise<Json> {
  const { path, method, op } = documentOperations(doc).find((o) => o.id === operationId)!;
  const body = exampleOf(doc, jsonOf(op.requestBody));
  const answer = await fetch(origin + path.replace('{id}', id ?? ''), {
    method: method.toUpperCase(),
    headers: {
      authorization: `Bearer ${emulator.adminKey}`,
      'content-type': 'application/json',
      'idempotency-key': `dredd-${operationId}`,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await answer.json()) as Json;
  expect(answer.ok, `${operationId}: ${JSON.stringify(json)}`).toBe(true);
  return json;
}

/**
 * Makes what the seed has none of, each with the document's own create example, and answers the id each
 * GET route is called with. An enrollment needs an active journey whose trigger name its example names;
 * the journey's create example names that one.
 */
async function makeUnseeded(): Promise<Record<string, string>> {
  const journey = await send('journeys.create');
  await send('journeys.setStatus', String(journey.id));
  return {
    '/v1/webhooks/{id}/deliveries': String((await send('webhooks.create')).id),
    '/v1/journeys/{id}': String(journey.id),
    '/v1/trigger/status/{id}': String((await send('trigger.enroll')).action_id),
    '/v1/campaigns/{id}': String((await send('campaigns.create')).id),
  };
}

const isSuccess = (status: string) => /^2\d\d$/.test(status);

/**
 * The document as Dredd is given it: the GET operations with their success answers, down-converted to
 * OpenAPI 3.0. The other operations are left out rather than filtered by Dredd's `--method GET`, since
 * Dredd compiles every operation first and fails on a header parameter that has no example and whose
 * schema is a `$ref` (Idempotency-Key, If-Match). Each change by hand is one that Dredd or the converter
 * needs and that says nothing new:
 * - only success answers: with OpenAPI 3, Dredd expects every documented status from the same request (for
 *   OpenAPI 2 it skips the others itself); the error answers need requests that fail, not examples;
 * - `contentEncoding: binary` (the knowledge upload's file part) is dropped: the converter refuses any
 *   encoding but base64, and `format: binary` beside it says the same in 3.0;
 * - a path id no example can name (see {@link makeUnseeded}) is HOOK_ID, which the hooks replace;
 * - answers are `application/json; charset=utf-8`, as the emulator sends them: Dredd (its validator Gavel)
 *   compares Content-Type as a string, so `application/json` alone would fail every answer although it
 *   is the same media type (JSON has no charset parameter, RFC 8259 §11).
 */
function dreddDocument(document: OpenApiDocument): Json {
  const gets = structuredClone(document);
  for (const [path, item] of Object.entries(gets.paths)) {
    const op = item.get;
    if (!op) {
      delete gets.paths[path];
      continue;
    }
    gets.paths[path] = { get: op };
    const responses = op.responses as Record<string, Json>;
    for (const status of Object.keys(responses)) if (!isSuccess(status)) delete responses[status];
    for (const parameter of (op.parameters ?? []) as Parameter[])
      if (parameter.in === 'path' && parameter.example === undefined) parameter.example = HOOK_ID;
  }
  const schemas = (gets.components as { schemas: Record<string, Json> }).schemas;
  for (const schema of Object.values(schemas))
    if (schema.format === 'binary' && schema.contentEncoding === 'binary') delete schema.contentEncoding;
  const converted = new Converter(gets).convert() as OpenApiDocument;
  for (const item of Object.values(converted.paths))
    for (const answer of Object.values(item.get!.responses as Record<string, { content?: Json }>))
      if (answer.content?.['application/json'])
        answer.content = { 'application/json; charset=utf-8': answer.content['application/json'] };
  return converted;
}

interface DreddRun {
  complete: { passing: number; failing: number; errors: number; skipped: number; total: number };
  /** Each call as Dredd names it, `GET (200) /v1/tickets` (the path as the document's examples give it). */
  passed: string[];
  failed: string[];
  /** What Dredd says of each failing transaction: what was sent, expected and received. */
  failures: string;
  output: string;
}

/** The calls of one outcome that Dredd's reporter lists as it goes (it lists the failing ones again at the end). */
const calls = (output: string, outcome: 'pass' | 'fail') => [
  ...new Set(
    [...output.matchAll(new RegExp(`^${outcome}: ([A-Z]+ \\(\\d+\\) \\S+) duration`, 'gm'))].map((m) => m[1]!),
  ),
];

/** Runs the Dredd CLI on a document against the emulator; reads its summary line and its pass lines. */
async function dredd(document: Json, name: string): Promise<DreddRun> {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(document));
  const { stdout, stderr } = await run(
    process.execPath,
    [
      DREDD,
      file,
      origin,
      '--hookfiles',
      HOOKS,
      '--header',
      `Authorization: Bearer ${emulator.adminKey}`,
      '--no-color',
      // The parser's warnings (schema keywords its OpenAPI 3 adapter does not read) are left out.
      '--loglevel',
      'error',
    ],
    { cwd: dir, timeoutMs: DREDD_MS, env: { CONVO_KIT_DREDD_IDS: JSON.stringify(hookIds) } },
  );
  const output = stdout + stderr;
  const summary = /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped, (\d+) total/.exec(output);
  if (!summary) throw new Error(`Dredd gave no summary:\n${output.slice(-5000)}`);
  const [passing, failing, errors, skipped, total] = summary.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return {
    complete: { passing, failing, errors, skipped, total },
    passed: calls(output, 'pass'),
    failed: calls(output, 'fail'),
    failures: failing > 0 ? output.slice(output.indexOf('Displaying failed tests')) : '',
    output,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'convo-kit-dredd-'));
  emulator = await createEmulator({ logger: pino({ level: 'silent' }), checkResponses: true });
  ({ url: origin } = await emulator.listen(0, '127.0.0.1'));
  doc = openapi({ serverUrl: origin });
  hookIds = await makeUnseeded();
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Dredd 14.1.0 against the emulator, from the document', () => {
  it(
    'passes on every GET route',
    async () => {
      const gets = Object.entries(doc.paths).filter(([, item]) => item.get).length;
      const result = await dredd(dreddDocument(doc), 'openapi-3.0.json');
      // Every GET route called once, none skipped and none an error (a call that got no answer).
      expect(result.complete, result.output.slice(-5000)).toMatchObject({ errors: 0, skipped: 0, total: gets });
      expect(result.passed.length + result.failed.length).toBe(gets);
      // Every answer carries the fields of its example: the examples are recorded emulator answers
      // (src/api/openapi/recorded-examples.json).
      expect(result.failed, result.failures).toEqual([]);
    },
    DREDD_MS + 30_000,
  );

  it(
    'reports an answer that lacks a field of its example (the check can fail)',
    async () => {
      // GET /v1/tickets/{id} alone, behind an example of its answer with a field the service never sends.
      const broken = structuredClone(doc);
      const get = broken.paths['/v1/tickets/{id}']!.get!;
      broken.paths = { '/v1/tickets/{id}': { get } };
      const example = exampleOf(broken, jsonOf((get.responses as Json)['200'])) as Json;
      example.loyalty_tier = 'gold';
      const result = await dredd(dreddDocument(broken), 'broken.json');
      expect(result.complete).toMatchObject({ passing: 0, failing: 1, total: 1 });
      expect(result.failures).toContain('Missing required property: loyalty_tier');
    },
    DREDD_MS + 30_000,
  );
});
