import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/events/index.js';
import { readdirSync } from 'node:fs';
import { takesNoBody } from '../../src/api/endpoint.js';
import { allEndpoints, documentedOperations, openapi, openapiPath, type OpenApiDocument } from '../../src/api/index.js';
import { SCHEMA_MODULES } from '../../src/api/openapi/component-names.js';
import { openapiText } from '../../src/api/openapi/openapi-text.js';

type Operation = Record<string, unknown> & {
  operationId: string;
  parameters: { name: string; in: string; required: boolean }[];
};

const doc = openapi();
const table = allEndpoints();
const op = (method: string, path: string) =>
  doc.paths[openapiPath(path)]?.[method.toLowerCase()] as Operation | undefined;
const validated = (d: OpenApiDocument) => validate(structuredClone(d) as unknown as Parameters<typeof validate>[0]);

describe('openapi()', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validated(doc);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is rejected by the validator once broken (the check can fail)', async () => {
    const broken = structuredClone(doc);
    (broken.paths['/v1/tickets/{id}']!.get!.responses as Record<string, unknown>)['200'] = { content: {} };
    expect((await validated(broken)).valid).toBe(false);
  });

  it('has one operation per route with operationId = id, one per alias, and one per provider where the body depends on it', () => {
    const documented = table.flatMap(documentedOperations);
    for (const d of documented) expect(doc.paths[d.path]?.[d.method]?.operationId).toBe(d.operationId);
    for (const { id, def } of table) {
      const ids = documented.filter((d) => d.entry.id === id).map((d) => d.operationId);
      if (def.path.endsWith('/:provider') && def.method === 'PUT')
        expect(ids, id).toEqual([`${id}.voice`, `${id}.custom_reply`]);
      else expect(ids, id).toEqual([id, ...(def.aliases ?? []).map((a) => `${id}.${a.toLowerCase()}`)]);
    }
    const count = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(count).toBe(documented.length);
    expect(new Set(documented.map((d) => d.operationId)).size).toBe(documented.length);
  });

  it('ties a provider’s config to its path: a custom_reply config sent to …/providers/voice fails the document', () => {
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    const bodyOf = (path: string) =>
      (doc.paths[path]!.put!.requestBody as { content: Record<string, { schema: unknown }> }).content[
        'application/json'
      ]!.schema;
    for (const base of ['/v1/channels/groups/{group_id}/providers', '/v1/channels/{integration_id}/providers']) {
      expect(bodyOf(`${base}/voice`)).toEqual({ $ref: '#/components/schemas/VoiceProviderPut' });
      expect(bodyOf(`${base}/custom_reply`)).toEqual({ $ref: '#/components/schemas/CustomReplyProviderPut' });
      expect(doc.paths[`${base}/{provider}`]!.put).toBeUndefined();
      expect(doc.paths[`${base}/{provider}`]!.get ?? doc.paths[`${base}/{provider}`]!.delete).toBeDefined();
    }
    expect(JSON.stringify(schemas.VoiceProviderPut)).toContain('"$ref":"#/components/schemas/VoiceConfig"');
    expect(JSON.stringify(schemas.VoiceProviderPut)).not.toContain('CustomReplyConfig');
  });

  it('declares the `{}` body of every write that takes none, as optional', () => {
    const noBody = table.filter((e) => takesNoBody(e.def));
    expect(noBody.map((e) => `${e.def.method} ${e.def.path}`)).toEqual(
      expect.arrayContaining([
        'POST /v1/keys/:id/rotate',
        'POST /v1/templates/:id/submit',
        'POST /v1/campaigns/:id/send',
      ]),
    );
    for (const { def } of noBody) {
      const body = op(def.method, def.path)!.requestBody as { required: boolean; content: Record<string, unknown> };
      expect(body.required, def.path).toBe(false);
      expect(body.content['application/json'], def.path).toEqual({
        schema: { $ref: '#/components/schemas/EmptyBody' },
        examples: { EmptyBody: { $ref: '#/components/examples/EmptyBody' } },
      });
    }
    expect((doc.components as { schemas: Record<string, unknown> }).schemas.EmptyBody).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });

  it('has every event of the catalog in its webhooks section, with the signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_NAMES].sort());
    const parameters = (doc.components as { parameters: Record<string, { name: string }> }).parameters;
    for (const name of EVENT_NAMES) {
      const post = (doc.webhooks[name] as { post: { parameters: { $ref: string }[]; requestBody: unknown } }).post;
      expect(post.parameters.map((p) => parameters[p.$ref.split('/').pop()!]!.name)).toEqual([
        'x-service-signature',
        'x-service-timestamp',
        'x-service-delivery',
        'x-service-event',
      ]);
      const schema = JSON.stringify(post.requestBody);
      expect(schema).toContain(`"const":"${name}"`);
    }
  });

  it('requires the bearer key everywhere but GET /v1/status, naming the scope it needs', () => {
    for (const { entry, path, method } of table.flatMap(documentedOperations))
      expect(doc.paths[path]![method]!.security).toEqual(
        entry.def.auth === false ? [] : [{ bearer: entry.def.scope === null ? [] : [entry.def.scope] }],
      );
    expect(op('GET', '/v1/tickets')!.security).toEqual([{ bearer: ['tickets:read'] }]);
  });

  it('declares path params, query params and the Idempotency-Key and If-Match headers', () => {
    const params = (method: string, path: string) =>
      op(method, path)!.parameters.map((p) => `${p.in}:${p.name}:${p.required}`);
    const requestId = 'undefined:undefined:undefined'; // the shared X-Request-ID parameter, by reference
    expect(params('POST', '/v1/messages')).toEqual(['header:Idempotency-Key:true', requestId]);
    expect(params('POST', '/v1/conversations/:id/messages')).toEqual([
      'path:id:true',
      'header:Idempotency-Key:true',
      requestId,
    ]);
    expect(params('PATCH', '/v1/tickets/:id')).toEqual(['path:id:true', 'header:If-Match:false', requestId]);
    expect(params('GET', '/v1/conversations')).toEqual(
      expect.arrayContaining(['query:limit:false', 'query:cursor:false', 'query:status:false']),
    );
    expect(params('DELETE', '/v1/channels/groups/:group_id/providers/:provider')).toEqual([
      'path:group_id:true',
      'path:provider:true',
      requestId,
    ]);
    expect(op('GET', '/v1/tickets')!.parameters).toContainEqual({ $ref: '#/components/parameters/X-Request-ID' });
    const limit = op('GET', '/v1/tickets')!.parameters.find((p) => p.name === 'limit') as unknown as {
      schema: { default: number };
    };
    expect(limit.schema.default).toBe(25);
  });

  it('answers the error envelope on failures and describes bodies from the schemas', () => {
    const send = op('POST', '/v1/messages')! as Operation & {
      responses: Record<string, { content?: Record<string, { schema: unknown }>; $ref?: string }>;
    };
    expect(send.responses['400']!.$ref).toBe('#/components/responses/Error400');
    expect(send.responses.default!.$ref).toBe('#/components/responses/Error');
    expect(JSON.stringify(send.responses['201']!.content!['application/json']!.schema)).toContain(
      '"$ref":"#/components/schemas/Message"',
    );
    expect(JSON.stringify(send.requestBody)).toContain('"$ref":"#/components/schemas/MessageSend"');
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    expect(JSON.stringify(schemas.Message)).toContain('"delivery_status"');
    expect(JSON.stringify(schemas.MessageSend)).toContain('"$ref":"#/components/schemas/MessageContent"');
    expect(JSON.stringify(schemas.MessageContent)).toContain('"maxLength":4096');
    expect(JSON.stringify(op('POST', '/v1/channels/groups/:group_id/knowledge/files')!.requestBody)).toContain(
      'multipart/form-data',
    );
    expect(Object.keys(op('DELETE', '/v1/keys/:id')!.responses as Record<string, unknown>)).toContain('204');
    expect(Object.keys(op('GET', '/v1/status')!.responses as Record<string, unknown>)).toContain('503');
  });

  it('names every refusal of the knowledge routes: a full group (422), and parse processes all busy (503)', () => {
    const described = (method: string, path: string, status: string) =>
      String((op(method, path)!.responses as Record<string, { description?: string }>)[status]?.description);
    const knowledge = '/v1/channels/groups/:group_id/knowledge';
    for (const path of [knowledge, `${knowledge}/files`]) {
      expect(described('POST', path, '422')).toContain('`PROMPT_INJECTION_DETECTED`');
      expect(described('POST', path, '422')).toContain('`INVALID_STATE`');
    }
    expect(described('POST', `${knowledge}/files`, '503')).toContain('`SERVICE_UNAVAILABLE`');
  });

  it('names a component for every schema of src/api/schemas that it uses, and refers to it everywhere', () => {
    expect(Object.keys(SCHEMA_MODULES).sort()).toEqual(
      readdirSync('src/api/schemas')
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .map((f) => f.replace(/\.ts$/, ''))
        .sort(),
    );
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    for (const name of ['Ticket', 'Conversation', 'Message', 'Contact', 'Template', 'Campaign', 'TicketUpdate'])
      expect(schemas[name], name).toBeDefined();
    const text = openapiText(doc);
    // One copy of each shape: the timestamp's long pattern is written once, in its component.
    expect(text.split('"format": "date-time"').length - 1).toBe(1);
    expect(JSON.stringify(op('GET', '/v1/tickets/:id'))).toContain('"$ref":"#/components/schemas/Ticket"');
    expect(JSON.stringify(op('GET', '/v1/tickets/:id'))).not.toContain('"subject"');
    // At most half the 1,386,985 bytes the document had when every operation wrote its schemas out in full
    // (and had no examples): the whole document as `convo-kit openapi` prints it, recorded examples included.
    expect(Buffer.byteLength(text)).toBeLessThan(1_386_985 / 2);
  });

  it('is JSON-serializable and the same on every call', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(openapi());
    expect(openapi({ serverUrl: 'http://127.0.0.1:4010' }).servers).toEqual([{ url: 'http://127.0.0.1:4010' }]);
  });
});
