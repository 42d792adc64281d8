import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { openapi, type OpenApiDocument } from '../../src/api/index.js';
import type { OpenApiPaths } from '../../src/api/openapi/openapi.js';
import { RECORDED_EXAMPLES_FILE, recordedExamples } from '../../src/api/openapi/recorded-examples.js';
import { controlsOpenapi } from '../../src/emulator/controls/controls-openapi.js';
import {
  documentOperations,
  exampleOf,
  type Json,
  type Media as ExampleMedia,
} from '../../scripts/openapi-examples/example-requests.js';
import { recordExamples, recordedExamplesText } from '../../scripts/record-openapi-examples.js';

/**
 * The document's examples (src/api/openapi/examples.ts): one for every request body, answer, error
 * response and webhook, each valid against its own schema; the answers recorded from a real emulator
 * (scripts/record-openapi-examples.ts), and the recording up to date. Derived from the document, so a new
 * route is covered without editing this file.
 */
interface Media extends ExampleMedia {
  schema: Json;
}
interface Found {
  where: string;
  schema: Json;
  value: unknown;
}

/** The service's document, or the emulator controls' one (no webhooks). */
type Document = OpenApiPaths & Partial<Pick<OpenApiDocument, 'webhooks'>>;

const doc = openapi();
const components = doc.components as {
  examples: Record<string, { summary?: string; value: unknown }>;
  responses: Record<string, Json>;
};

/** Every media type of the document with what it names as its example (`undefined` for none). */
function mediaTypes(document: Document): { where: string; media: Media }[] {
  const out: { where: string; media: Media }[] = [];
  const add = (where: string, content: unknown) => {
    for (const [type, media] of Object.entries((content ?? {}) as Record<string, Media>))
      out.push({ where: `${where} ${type}`, media });
  };
  for (const { method, path, op } of documentOperations(document)) {
    const label = `${method.toUpperCase()} ${path}`;
    add(`${label} request`, (op.requestBody as Json | undefined)?.content);
    for (const [status, response] of Object.entries(op.responses as Record<string, Json>))
      add(`${label} ${status}`, response.content);
  }
  const shared = (document.components as { responses: Record<string, Json> }).responses;
  for (const [name, response] of Object.entries(shared)) add(`components.responses.${name}`, response.content);
  for (const [name, item] of Object.entries(document.webhooks ?? {}))
    add(`webhook ${name}`, ((item.post as Json).requestBody as Json).content);
  return out;
}

/** A JSON Schema 2020-12 validator that knows the document's components (`#/components/…` refs). */
function validator(document: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // OpenAPI's own format for a file part: any string.
  ajv.addFormat('binary', true);
  const rooted = (schema: unknown) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
  ajv.addSchema({ $id: 'doc', components: rooted(document.components) });
  return (schema: Json, value: unknown): string[] => {
    const check = ajv.compile(rooted(schema));
    return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  };
}

function examplesOf(document: Document): Found[] {
  return mediaTypes(document).map(({ where, media }) => ({
    where,
    schema: media.schema,
    value: exampleOf(document, media),
  }));
}

function invalidExamples(document: Document): string[] {
  const validate = validator(document);
  // A missing example is the first test's finding; this one checks those there are.
  return examplesOf(document)
    .filter((found) => found.value !== undefined)
    .flatMap(({ where, schema, value }) => validate(schema, value).map((problem) => `${where}: ${problem}`));
}

describe('the examples of openapi()', () => {
  it('give every request body, answer, error response and webhook an example', () => {
    const found = examplesOf(doc);
    expect(found.length).toBeGreaterThan(150);
    expect(found.filter((f) => f.value === undefined).map((f) => f.where)).toEqual([]);
    // Every shared example is used, and every reference names one.
    const refs = new Set(JSON.stringify(doc).match(/#\/components\/examples\/[\w.]+/g));
    expect([...refs].map((r) => r.split('/').pop()).sort()).toEqual(Object.keys(components.examples).sort());
  });

  it('are each valid against the schema they illustrate', () => {
    expect(invalidExamples(doc)).toEqual([]);
  });

  it('are reported once one breaks its schema (the check can fail)', () => {
    const broken = structuredClone(doc);
    const shared = (broken.components as typeof components).examples;
    (shared['tickets.get']!.value as Json).status = 'lost';
    delete (shared.MessageSend!.value as Json).content;
    const problems = invalidExamples(broken);
    expect(problems).toContainEqual(
      expect.stringMatching(/^GET \/v1\/tickets\/\{id\} 200 application\/json: \/status/),
    );
    expect(problems).toContainEqual(expect.stringMatching(/^POST \/v1\/messages request .*content/));
  });

  it('are in the emulator controls document too, each valid against its schema', () => {
    const controls = controlsOpenapi() as Document;
    const found = examplesOf(controls);
    expect(found.length).toBeGreaterThan(20);
    // But the state document's: its example would be a whole workspace, which GET /_emulator/state answers.
    expect(
      found.filter((f) => f.value === undefined && !f.where.includes('/_emulator/state')).map((f) => f.where),
    ).toEqual([]);
    expect(invalidExamples(controls)).toEqual([]);
  });

  it("show the emulator's own error envelope, with the request id the request sent", () => {
    const content = components.responses.Error404!.content as Record<string, Media>;
    expect(exampleOf(doc, content['application/json']!)).toEqual({
      error: {
        code: 'NOT_FOUND',
        message: 'No ticket with id "tkt_does_not_exist"',
        doc_url: 'https://docs.convo-kit.dev/errors#NOT_FOUND',
        request_id: 'req_7Kd2Qw9Zx4',
      },
    });
  });

  it('are the same on every run (fixed ids and times), so the document diffs cleanly', () => {
    expect(JSON.stringify(openapi())).toBe(JSON.stringify(doc));
  });
});

/** Where a success answer's example comes from: its operation's recording, or `undefined` if it is built. */
function recordedSuccess(document: OpenApiDocument) {
  const { answers } = recordedExamples();
  const shared = (document.components as typeof components).examples;
  return documentOperations(document).flatMap(({ id, method, path, op }) =>
    Object.entries(op.responses as Record<string, Json>)
      .filter(([status]) => /^2\d\d$/.test(status))
      .map(([status, response]) => {
        const media = (response.content as Record<string, Media> | undefined)?.['application/json'];
        const [ref] = Object.values(media?.examples ?? {});
        const name = ref?.$ref.split('/').pop();
        const answer = answers[id];
        const recorded =
          answer !== undefined &&
          String(answer.status) === status &&
          // A 204 has no body to show; any other shows the recorded one, under the operation's name.
          (media === undefined
            ? answer.body === undefined
            : name === id && JSON.stringify(shared[id]?.value) === JSON.stringify(answer.body));
        return { where: `${method.toUpperCase()} ${path} ${status}`, recorded };
      }),
  );
}

describe('the answer examples, recorded from a real emulator', () => {
  it('give every success answer of every operation its recorded answer', () => {
    const found = recordedSuccess(doc);
    // One success answer each: an operation with none, or two, is a finding too.
    expect(found.length).toBe(documentOperations(doc).length);
    expect(found.filter((f) => !f.recorded).map((f) => f.where)).toEqual([]);
  });

  it('give the shared error responses real errors, but those no request provokes cheaply', () => {
    const { errors } = recordedExamples();
    const built = Object.keys(components.responses).filter((name) => errors[name] === undefined);
    // Any failure; 408 (an upload stalled for 10 s); 500; 503 (every parse process busy); GET /v1/status's 400.
    expect(built.sort()).toEqual(['Error', 'Error400NoKey', 'Error408', 'Error500', 'Error500NoKey', 'Error503']);
    for (const [name, error] of Object.entries(errors)) {
      expect(components.examples[name], name).toEqual({ summary: `Recorded: ${error.request}`, value: error.body });
    }
  });

  it('are up to date: recording again gives the committed file, byte for byte', async () => {
    const committed = readFileSync(RECORDED_EXAMPLES_FILE, 'utf8');
    const fresh = await recordedExamplesText(await recordExamples());
    expect(
      fresh === committed,
      'src/api/openapi/recorded-examples.json is not what the emulator answers now: run `npm run openapi:examples` ' +
        `and commit the file. Changed: ${changedKeys(JSON.parse(committed), JSON.parse(fresh)).join(', ')}`,
    ).toBe(true);
  }, 120_000);
});

/** `answers.tickets.get`, … : the entries whose recording differs between two files. */
function changedKeys(before: Record<string, Json>, after: Record<string, Json>): string[] {
  const out: string[] = [];
  for (const part of new Set([...Object.keys(before), ...Object.keys(after)]))
    for (const key of new Set([...Object.keys(before[part] ?? {}), ...Object.keys(after[part] ?? {})]))
      if (JSON.stringify(before[part]?.[key]) !== JSON.stringify(after[part]?.[key])) out.push(`${part}.${key}`);
  return out.length > 0 ? out : ['only the formatting'];
}
