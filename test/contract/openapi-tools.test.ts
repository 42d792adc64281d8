import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { takesNoBody } from '../../src/api/endpoint.js';
import { allEndpoints, documentedOperations, openapi, type EndpointEntry } from '../../src/api/index.js';
import { SignPayloadRequest } from '../../src/resources/index.js';
import { ERROR_STATUS, type ErrorCode } from '../../src/api/error-codes.js';

/**
 * What third-party tools need from the document, checked for every route of the table (a new route is
 * covered without editing this file): tags, descriptions, response headers, explicit error responses,
 * standard formats, and redocly's recommended rules.
 */
type Json = Record<string, unknown>;
type Response = { description: string; headers?: Record<string, Json>; content?: Record<string, { schema: Json }> };
type Operation = { tags: string[]; description: string; responses: Record<string, Response | { $ref: string }> };

const doc = openapi();
const components = doc.components as {
  headers: Record<string, Json>;
  responses: Record<string, Response>;
  schemas: Record<string, Json>;
};
const { schemas } = components;
const table = allEndpoints();

/** Every operation of the document, aliases and per-provider paths included, with its route. */
const operations = table.flatMap(documentedOperations).map((d) => ({
  entry: d.entry,
  label: `${d.method.toUpperCase()} ${d.path}`,
  op: doc.paths[d.path]![d.method] as unknown as Operation,
}));

const response = (r: Response | { $ref: string }): Response =>
  '$ref' in r ? components.responses[r.$ref.split('/').pop()!]! : r;
const header = (h: Json): Json => (typeof h.$ref === 'string' ? components.headers[h.$ref.split('/').pop()!]! : h);
const requiredHeaders = (r: Response) =>
  Object.entries(r.headers ?? {})
    .filter(([, h]) => header(h).required === true)
    .map(([name]) => name);
const documentedHeaders = (r: Response) => Object.keys(r.headers ?? {});
const codesIn = (description: string) => [...description.matchAll(/`([A-Z][A-Z_]+)`/g)].map((m) => m[1] as ErrorCode);
const isAuthenticated = (entry: EndpointEntry) => entry.def.auth !== false;

describe('openapi() for tools: every operation', () => {
  it('has a tag that the document declares with a description', () => {
    const tags = new Map((doc.tags as { name: string; description: string }[]).map((t) => [t.name, t.description]));
    for (const { label, op } of operations) {
      expect(op.tags, label).toHaveLength(1);
      expect(tags.get(op.tags[0]!), label).toMatch(/\w{3}/);
    }
    const groups = new Set(table.map((e) => e.group));
    for (const group of groups) expect(tags.has(group), group).toBe(true);
  });

  it('has a description that says what it does and lists the errors it answers', () => {
    for (const { entry, label, op } of operations) {
      expect(op.description, label).toContain(entry.def.summary);
      const listed = op.description.split('Errors: ')[1];
      expect(listed, label).toBeDefined();
      const codes = codesIn(listed!);
      expect(codes.length, label).toBeGreaterThan(0);
      for (const code of codes) expect(Object.keys(ERROR_STATUS), label).toContain(code);
    }
  });

  it('answers each listed error with the shared response of its status, naming the codes in its own description', () => {
    for (const { label, op } of operations) {
      const codes = codesIn(op.description.split('Errors: ')[1]!);
      const statuses = [...new Set(codes.map((c) => String(ERROR_STATUS[c])))];
      // GET /v1/status answers 503 with its own body, not the envelope; elsewhere 503 is SERVICE_UNAVAILABLE.
      const errorStatuses = Object.keys(op.responses).filter(
        (s) => /^[45]\d\d$/.test(s) && (s !== '503' || codes.includes('SERVICE_UNAVAILABLE')),
      );
      expect(errorStatuses.sort(), label).toEqual(statuses.sort());
      for (const status of statuses) {
        const ref = op.responses[status] as { $ref: string; description: string };
        expect(ref.$ref, `${label} ${status}`).toMatch(
          new RegExp(`^#/components/responses/Error${status}(NoKey|Replayable)?$`),
        );
        expect(response(ref).content!['application/json']!.schema, `${label} ${status}`).toEqual({
          $ref: `#/components/schemas/Error${status}`,
        });
        // The reference's own description names exactly the route's codes of that status.
        expect(codesIn(ref.description).sort(), `${label} ${status}`).toEqual(
          codes.filter((c) => String(ERROR_STATUS[c]) === status).sort(),
        );
      }
      expect(op.responses.default, label).toEqual({ $ref: '#/components/responses/Error' });
    }
  });

  it('gives each error status an envelope whose code is one of that status, with `details` shaped by code', () => {
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    const statuses = [...new Set(Object.values(ERROR_STATUS))];
    for (const status of statuses) {
      const text = JSON.stringify(schemas[`Error${status}`]);
      const named = [...text.matchAll(/"(?:const|enum)":(\[[^\]]*\]|"[A-Z_]+")/g)].flatMap((m) =>
        [JSON.parse(m[1]!) as string | string[]].flat(),
      );
      const expected = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((c) => ERROR_STATUS[c] === status);
      expect(named.filter((c) => /^[A-Z_]+$/.test(c)).sort(), String(status)).toEqual([...expected].sort());
      expect(text, String(status)).toContain('"doc_url":{"type":"string","format":"uri"');
    }
    expect(JSON.stringify(schemas.Error403)).toContain('"$ref":"#/components/schemas/ScopeIssue"');
    expect(JSON.stringify(schemas.Error400)).toContain('"$ref":"#/components/schemas/FieldIssue"');
    expect(JSON.stringify(schemas.Error422)).toContain('"$ref":"#/components/schemas/ProviderIssue"');
  });

  it('answers what its declaration implies: 401/403/429 with a key, 404 for a path id, 413/415 for a body, 409 for idempotency', () => {
    for (const { entry, label, op } of operations) {
      const statuses = Object.keys(op.responses);
      const expectIf = (condition: boolean, status: string) =>
        condition
          ? expect(statuses, `${label} ${status}`).toContain(status)
          : expect(statuses, `${label} ${status}`).not.toContain(status);
      expectIf(isAuthenticated(entry), '401');
      expectIf(isAuthenticated(entry), '403');
      expectIf(isAuthenticated(entry), '429');
      // A write declared without a body still reads one, to refuse it (takesNoBody).
      const readsBody = entry.def.body !== undefined || takesNoBody(entry.def);
      expectIf(readsBody, '413');
      expectIf(readsBody, '415');
      if (entry.def.params) expect(statuses, label).toContain('404');
      if (entry.def.idempotencyKey || entry.def.headers?.shape['if-match']) expect(statuses, label).toContain('409');
    }
  });

  it('documents X-Request-ID as required on every response, and the rate-limit headers where they are sent', () => {
    for (const { entry, label, op } of operations) {
      for (const [status, r] of Object.entries(op.responses)) {
        const required = requiredHeaders(response(r));
        expect(required, `${label} ${status}`).toContain('X-Request-ID');
        const rate = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
        // 431 comes from the HTTP parser, before any key is read.
        if (!isAuthenticated(entry) || status === '401' || status === '431' || status === 'default')
          expect(required, `${label} ${status}`).not.toEqual(expect.arrayContaining(rate));
        else if (/^2|^429$|^403$/.test(status))
          expect(required, `${label} ${status}`).toEqual(expect.arrayContaining(rate));
        else expect(documentedHeaders(response(r)), `${label} ${status}`).toEqual(expect.arrayContaining(rate));
        if (status === '429') expect(required, label).toContain('Retry-After');
        if (/^2/.test(status) && entry.def.idempotencyKey)
          expect(documentedHeaders(response(r)), label).toContain('Idempotent-Replayed');
      }
    }
  });

  it('documents ETag as required on the ticket reads and updates', () => {
    for (const path of ['/v1/tickets/{id}']) {
      for (const method of ['get', 'patch']) {
        const op = doc.paths[path]![method] as unknown as Operation;
        expect(requiredHeaders(response(op.responses['200']!)), method).toContain('ETag');
      }
    }
    const list = doc.paths['/v1/tickets']!.get as unknown as Operation;
    expect(documentedHeaders(response(list.responses['200']!))).not.toContain('ETag');
  });
});

describe('openapi() for tools: schemas', () => {
  it('uses only standard formats (zod-only ones such as starts_with become a pattern)', () => {
    const formats = new Set<string>();
    JSON.stringify(doc, (key, value: unknown) => {
      if (key === 'format' && typeof value === 'string') formats.add(value);
      return value;
    });
    expect([...formats].sort()).toEqual(['binary', 'date', 'date-time', 'email', 'uri']);
    expect(
      JSON.stringify(
        (doc.paths['/v1/webhooks/sign-payload']!.post!.responses as Record<string, Response>)['200']!.content,
      ),
    ).toContain('"$ref":"#/components/schemas/SignPayloadResult"');
    expect(JSON.stringify(schemas.SignPayloadResult)).toContain('"$ref":"#/components/schemas/Signature"');
    expect(schemas.Signature).toEqual({
      type: 'string',
      pattern: '^sha256=[0-9a-f]{64}$',
      examples: [`sha256=${'5f'.repeat(32)}`],
    });
  });

  it('describes the any-JSON `payload` of sign-payload without a self-reference, while zod still checks it is JSON', () => {
    const schema = schemas.SignPayloadRequest as { properties: Record<string, Json>; required: string[] };
    expect(schema.properties.payload).toEqual({ description: 'Any JSON value' });
    expect(schema.required).toContain('payload');
    expect(JSON.stringify(doc)).not.toContain('"$ref":"#/components/schemas/Def');
    expect(SignPayloadRequest.safeParse({ webhook_id: 'wh_1', payload: { a: [1, null, 'x'] } }).success).toBe(true);
    expect(SignPayloadRequest.safeParse({ webhook_id: 'wh_1', payload: { a: new Date(0) } }).success).toBe(false);
    expect(SignPayloadRequest.safeParse({ webhook_id: 'wh_1', payload: undefined }).success).toBe(false);
  });
});

describe("redocly's recommended rules", () => {
  /** The project's lint configuration, redocly.yaml, the one `redocly lint` reads (test/contract/openapi-redocly.test.ts). */
  const lint = async (document: unknown) => {
    const config = await loadConfig({ configPath: 'redocly.yaml' });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: '/openapi.json',
      config,
    });
    return problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}`).sort();
  };

  it('leave only the warnings that the routes themselves cause', async () => {
    expect(await lint(doc)).toEqual([
      // The spec's own paths: /v1/channels/groups/{group_id} and /v1/channels/{integration_id}/providers
      // both match /v1/channels/groups/providers (with different methods, so no request is ambiguous).
      'warn no-ambiguous-paths #/paths/~1v1~1channels~1groups~1{group_id}',
    ]);
  }, 60_000);

  it('report a document that lacks tags and descriptions (the check can fail)', async () => {
    const broken = structuredClone(doc);
    delete broken.tags;
    delete (broken.paths['/v1/tickets']!.get as Json).description;
    const problems = await lint(broken);
    expect(problems).toContain('error operation-description #/paths/~1v1~1tickets/get/description');
    expect(problems.filter((p) => p.includes('operation-tag-defined')).length).toBeGreaterThan(90);
  }, 60_000);
});
