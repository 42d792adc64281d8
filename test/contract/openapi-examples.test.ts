import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapi, type OpenApiDocument } from '../../src/api/index.js';
import type { OpenApiPaths } from '../../src/api/openapi/openapi.js';
import { controlsOpenapi } from '../../src/emulator/controls/controls-openapi.js';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';

/**
 * The document's examples (src/api/openapi/examples.ts): one for every request body, answer, error
 * response and webhook, each valid against its own schema, and the requests accepted by a real emulator.
 * Derived from the document, so a new route is covered without editing this file.
 */
type Json = Record<string, unknown>;
interface Media {
  schema: Json;
  example?: unknown;
  examples?: Record<string, { $ref: string }>;
}
interface Found {
  where: string;
  schema: Json;
  value: unknown;
}

/** The service's document, or the emulator controls' one (no webhooks). */
type Document = OpenApiPaths & Partial<Pick<OpenApiDocument, 'webhooks'>>;

const doc = openapi();
const components = doc.components as { examples: Record<string, { value: unknown }>; responses: Record<string, Json> };

/** Every media type of the document with what it names as its example (`undefined` for none). */
function mediaTypes(document: Document): { where: string; media: Media }[] {
  const out: { where: string; media: Media }[] = [];
  const add = (where: string, content: unknown) => {
    for (const [type, media] of Object.entries((content ?? {}) as Record<string, Media>))
      out.push({ where: `${where} ${type}`, media });
  };
  for (const [path, item] of Object.entries(document.paths))
    for (const [method, op] of Object.entries(item)) {
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

/** The example of a media type: its own, or the one `components.examples` holds for it. */
function exampleOf(document: Document, media: Media): unknown {
  if (media.example !== undefined) return media.example;
  const [ref] = Object.values(media.examples ?? {});
  if (ref === undefined) return undefined;
  const shared = (document.components as { examples: Record<string, { value: unknown }> }).examples;
  return shared[ref.$ref.replace('#/components/examples/', '')]?.value;
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
    const refs = new Set(JSON.stringify(doc).match(/#\/components\/examples\/\w+/g));
    expect([...refs].map((r) => r.split('/').pop()).sort()).toEqual(Object.keys(components.examples).sort());
  });

  it('are each valid against the schema they illustrate', () => {
    expect(invalidExamples(doc)).toEqual([]);
  });

  it('are reported once one breaks its schema (the check can fail)', () => {
    const broken = structuredClone(doc);
    const shared = (broken.components as typeof components).examples;
    (shared.Ticket!.value as Json).status = 'lost';
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

  it('show the real error envelope: the first code of the status and its doc_url', () => {
    const content = components.responses.Error404!.content as Record<string, Media>;
    expect(exampleOf(doc, content['application/json']!)).toMatchObject({
      error: { code: 'NOT_FOUND', doc_url: 'https://docs.convo-kit.dev/errors#NOT_FOUND' },
    });
  });

  it('are the same on every run (fixed ids and times), so the document diffs cleanly', () => {
    expect(JSON.stringify(openapi())).toBe(JSON.stringify(doc));
  });
});

/** Each operation with a request example, as a request to send: method, path with its examples, body. */
function exampleRequests(document: OpenApiDocument) {
  const out: { label: string; method: string; path: string; body: unknown; status: number; replay: boolean }[] = [];
  for (const [template, item] of Object.entries(document.paths))
    for (const [method, op] of Object.entries(item)) {
      const content = (op.requestBody as Json | undefined)?.content as Record<string, Media> | undefined;
      const media = content?.['application/json'];
      if (!media) continue;
      const parameters = (op.parameters ?? []) as { in: string; name: string; example?: string }[];
      let path = template;
      for (const p of parameters.filter((p) => p.in === 'path'))
        path = p.example === undefined ? path : path.replace(`{${p.name}}`, encodeURIComponent(p.example));
      const status = Number(Object.keys(op.responses as Json).find((s) => /^2\d\d$/.test(s)));
      const replay = parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      out.push({
        label: `${method.toUpperCase()} ${template}`,
        method,
        path,
        body: exampleOf(document, media),
        status,
        replay,
      });
    }
  return out;
}

describe('the request examples, sent to a real emulator', () => {
  let emulator: Emulator;
  let origin: string;

  beforeAll(async () => {
    emulator = await createEmulator({ logger: pino({ level: 'silent' }), checkResponses: true });
    ({ url: origin } = await emulator.listen(0, '127.0.0.1'));
  });
  afterAll(() => emulator?.close());

  /** The reset control puts back the seeded workspace, so that no example depends on another's effect. */
  const reset = async () => {
    const answer = await fetch(`${origin}/_emulator/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.adminKey}` },
    });
    expect(answer.status).toBe(200);
  };

  /** One request as the example writes it, with the admin key. */
  const send = async (method: string, path: string, body: unknown, idempotencyKey?: string) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${emulator.adminKey}`,
      'content-type': 'application/json',
    };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    const answer = await fetch(origin + path, { method: method.toUpperCase(), headers, body: JSON.stringify(body) });
    return { status: answer.status, body: (await answer.json().catch(() => null)) as Json | null };
  };
  const requests = exampleRequests(doc);
  const exampleFor = (label: string) => requests.find((r) => r.label === label)!.body;

  /**
   * The seed has no journey and no webhook endpoint: a request that names one gets those its create
   * examples make (the journey's `trigger_name` is the one the trigger examples fire).
   */
  async function prerequisites(body: Json): Promise<Json> {
    if ('trigger_name' in body && !('steps' in body)) {
      const journey = await send('POST', '/v1/journeys', exampleFor('POST /v1/journeys'));
      expect(journey.status).toBe(201);
      const path = `/v1/journeys/${String(journey.body!.id)}/status`;
      expect((await send('POST', path, exampleFor('POST /v1/journeys/{id}/status'))).status).toBe(200);
    }
    if ('webhook_id' in body) {
      const webhook = await send('POST', '/v1/webhooks', exampleFor('POST /v1/webhooks'));
      expect(webhook.status).toBe(201);
      return { ...body, webhook_id: webhook.body!.id };
    }
    return body;
  }

  it('are accepted with the documented success status, wherever every path parameter has an example', async () => {
    const ready = requests.filter((r) => !r.path.includes('{'));
    expect(ready.length).toBeGreaterThan(25);
    const refused: string[] = [];
    for (const [n, request] of ready.entries()) {
      await reset();
      const body = await prerequisites(request.body as Json);
      const answer = await send(
        request.method,
        request.path,
        body,
        request.replay ? `openapi-example-${n}` : undefined,
      );
      if (answer.status !== request.status)
        refused.push(`${request.label} -> ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    expect(refused).toEqual([]);
  }, 120_000);
});
