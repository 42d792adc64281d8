import { codesOf, DOCS_BASE_URL, ERROR_STATUSES } from '../error-codes.js';
import { documentedSamples } from '../events/samples.js';
import type { JsonSchema } from './json-schema.js';
import type { RecordedAnswer, RecordedExamples } from './recorded-examples.js';
import { REQUEST_EXAMPLES } from './request-examples.js';
import { ERROR_WHEN } from './route-errors.js';

/** A request shows what the caller must send; an answer shows every field it carries. */
type Direction = 'request' | 'answer';

/** The time of every example (the event samples' own, src/api/events/samples.ts), and of the recording's clock. */
export const EXAMPLE_TIME = documentedSamples().events['ticket.created'].created_at;

/**
 * Ids of the emulator's seeded workspace (`SEED_IDS`, src/emulator/state/seed-fixtures.ts) by the field
 * or path parameter that names them, so that an example sent to `convo-kit emulator` names what is there
 * (test/contract/openapi-examples.test.ts sends them).
 */
const SEEDED_IDS: Readonly<Record<string, string>> = {
  conversation_id: 'conv_delivered',
  contact_id: 'ct_delivered',
  integration_id: 'int_phone_main',
  group_id: 'grp_support',
  template_id: 'tpl_order_update',
  automation_id: 'aut_order_followup',
};

/** The seeded resource a route's `{id}` names, by the route's first segment after `/v1`. */
const SEEDED_PATH_IDS: Readonly<Record<string, string>> = {
  conversations: 'conv_delivered',
  contacts: 'ct_delivered',
  templates: 'tpl_order_update',
  automations: 'aut_order_followup',
  comments: 'cmt_seed_question',
  // The generated chats of the default seed (src/emulator/state/seed-workspace.ts), the first of each.
  messages: 'msg_seed_00001_1',
  tickets: 'tkt_seed_00001',
  pipeline: 'lead_seed_00001',
};

/** Where a route needs a resource in another state than its group's: a draft to submit, a customer's message to react to. */
const SEEDED_ROUTE_IDS: Readonly<Record<string, string>> = {
  '/v1/templates/{id}/submit': 'tpl_feedback',
  '/v1/messages/{id}/reaction': 'msg_seed_00001_2',
};

/** Path parameters that name no resource: an error code to explain, a provider. */
const PATH_PARAMETER_EXAMPLES: Readonly<Record<string, string>> = {
  code: 'OUTSIDE_SERVICE_WINDOW',
  provider: 'voice',
};

/** The request id of every example: the recorded requests send it as their X-Request-ID, which answers echo. */
export const EXAMPLE_REQUEST_ID = 'req_7Kd2Qw9Zx4';

/** Values the service answers in the same spelling everywhere, by field name. */
const FIELD_EXAMPLES: Readonly<Record<string, unknown>> = {
  ...SEEDED_IDS,
  request_id: EXAMPLE_REQUEST_ID,
  // Opaque to callers (docs/pagination.md): any string the previous page gave.
  next_cursor: 'eyJhZnRlciI6InRrdF8zUmY5V2MyTmQ2VWUifQ',
  name: 'Ada Lovelace',
  content: 'Your order shipped today',
  phone: '+14155550123',
  email: 'ada@example.com',
};

/** The error envelope of each status, with the first code of that status and what it means. */
function errorExamples(): Record<string, unknown> {
  return Object.fromEntries(
    ERROR_STATUSES.map((status) => {
      const code = codesOf(status)[0]!;
      const message = ERROR_WHEN[code].replace(/^./, (c) => c.toUpperCase());
      const error = { code, message, doc_url: `${DOCS_BASE_URL}#${code}`, request_id: FIELD_EXAMPLES.request_id };
      return [`Error${status}`, { error }];
    }),
  );
}

/**
 * Makes one example per schema of a document, from the schema itself: a component's own example where
 * one is known (the event samples' resources, the error envelopes), a value a zod schema declares with
 * `.meta({ examples })`, a `default`, `const` or first enum member, and otherwise a value of the type
 * within its bounds. A string with a pattern and no format has no value that can be guessed: its zod
 * schema must declare one, else this throws naming the pattern.
 */
export class ExampleMaker {
  private readonly known: Record<string, unknown>;
  private readonly made = new Map<string, unknown>();

  constructor(private readonly components: Readonly<Record<string, JsonSchema>>) {
    this.known = { ...documentedSamples().resources, ...errorExamples() };
  }

  /** The example of a request body or answer of this schema. */
  of(schema: JsonSchema, direction: Direction): unknown {
    return this.value(schema, direction, undefined, 0);
  }

  /** The example of a path parameter: the seeded resource it names where there is one. */
  pathParameter(path: string, name: string): string | undefined {
    if (name === 'id') return SEEDED_ROUTE_IDS[path] ?? SEEDED_PATH_IDS[path.split('/')[2] ?? ''];
    return SEEDED_IDS[name] ?? PATH_PARAMETER_EXAMPLES[name];
  }

  private value(schema: JsonSchema, direction: Direction, key: string | undefined, depth: number): unknown {
    // The deepest component nesting of the document is well under this; a cycle would pass it.
    if (depth > 24) throw new TypeError('A schema refers to itself: give it an example with .meta({ examples })');
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop()!;
      if (key !== undefined && key in FIELD_EXAMPLES && this.components[name]?.type === 'string')
        return FIELD_EXAMPLES[key];
      return this.component(name, direction, depth);
    }
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
    if ('const' in schema) return schema.const;
    if (schema.default !== undefined) return schema.default;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if (key !== undefined && key in FIELD_EXAMPLES && schema.type === 'string') return FIELD_EXAMPLES[key];
    if (Array.isArray(schema.allOf)) {
      const parts = schema.allOf.map((s: JsonSchema) => this.value(s, direction, key, depth + 1));
      return Object.assign({}, ...parts) as unknown;
    }
    const members = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (members) {
      const member = members.find((m) => m.type !== 'null') ?? members[0]!;
      return this.value(member, direction, key, depth + 1);
    }
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    switch (type) {
      case 'object':
        return this.object(schema, direction, depth);
      case 'array': {
        const item = this.value((schema.items ?? {}) as JsonSchema, direction, key, depth + 1);
        return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => item).slice(
          0,
          Number(schema.maxItems ?? Infinity),
        );
      }
      case 'string':
        return stringExample(schema, key);
      case 'integer':
      case 'number':
        return numberExample(schema);
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        // Any JSON value.
        return { note: 'any JSON value' };
    }
  }

  private component(name: string, direction: Direction, depth: number): unknown {
    if (name in this.known) return this.known[name];
    const request = REQUEST_EXAMPLES[name.replace(/Input$/, '')];
    if (direction === 'request' && request !== undefined) return request;
    const key = `${direction} ${name}`;
    if (!this.made.has(key)) {
      const schema = this.components[name];
      if (!schema) throw new TypeError(`No component ${name} in the document`);
      this.made.set(key, this.value(schema, direction, undefined, depth + 1));
    }
    return this.made.get(key);
  }

  private object(schema: JsonSchema, direction: Direction, depth: number): Record<string, unknown> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    const out: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties))
      if (direction === 'answer' || required.has(name)) out[name] = this.value(property, direction, name, depth + 1);
    if (Object.keys(properties).length === 0 && typeof schema.additionalProperties === 'object') {
      const names = (schema.propertyNames ?? {}) as JsonSchema;
      const name =
        names.pattern === undefined && names.enum === undefined
          ? 'key'
          : this.value(names, direction, undefined, depth + 1);
      out[String(name)] = this.value(schema.additionalProperties as JsonSchema, direction, undefined, depth + 1);
    }
    return out;
  }
}

const STRING_FORMATS: Readonly<Record<string, string>> = {
  'date-time': EXAMPLE_TIME,
  date: EXAMPLE_TIME.slice(0, 10),
  email: 'ada@example.com',
  uri: 'https://shop.example.com/orders/1042',
  binary: 'Opening hours: 9:00 to 17:00, Monday to Friday',
};

function stringExample(schema: JsonSchema, key: string | undefined): string {
  const format = typeof schema.format === 'string' ? STRING_FORMATS[schema.format] : undefined;
  if (format !== undefined) return format;
  // zod's base64 and base64url strings say so besides their pattern: "convo-kit" in either spelling.
  if (schema.contentEncoding === 'base64' || schema.contentEncoding === 'base64url') return 'Y29udm8ta2l0';
  if (typeof schema.pattern === 'string')
    throw new TypeError(
      `A string with the pattern ${schema.pattern}${key ? ` (field ${key})` : ''} has no example: ` +
        'give its zod schema .meta({ examples: [...] })',
    );
  const words = key === undefined ? 'example text' : key.replace(/_/g, ' ');
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? Infinity);
  return words.padEnd(min, '.').slice(0, max);
}

function numberExample(schema: JsonSchema): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + 1
        : 1;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  return Math.min(Math.max(min, 1), max);
}

type MediaType = { schema?: JsonSchema; example?: unknown; examples?: Record<string, JsonSchema> };

const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)$/;

/**
 * Gives every request body, answer and error response of the document an example, every webhook its
 * event sample, and each path parameter that names a seeded resource that id.
 *
 * An answer that `recorded` holds (an operation's success by its operationId, a shared error response by
 * its name) shows what the emulator really answered (src/api/openapi/recorded-examples.json, written by
 * `npm run openapi:examples`), under `components.examples` by that key. Any other body gets one built from
 * its schema: a named component's refers to `components.examples` (one copy however many routes answer
 * it), another's is its own `example`.
 */
export function addExamples(
  document: JsonSchema & {
    paths: Record<string, Record<string, JsonSchema>>;
    webhooks?: Record<string, JsonSchema>;
  },
  recorded: RecordedExamples = { answers: {}, errors: {} },
): void {
  const components = document.components as {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    examples?: Record<string, { value: unknown }>;
  };
  const maker = new ExampleMaker(components.schemas);
  const shared: Record<string, { summary?: string; value: unknown }> = {};
  /** The name of this component's example: a request's is `<Name>Request` where it differs from the answer's. */
  const sharedName = (name: string, value: unknown) => {
    const known = shared[name];
    if (known === undefined || JSON.stringify(known.value) === JSON.stringify(value)) return name;
    return `${name}Request`;
  };
  const refer = (media: MediaType, name: string) => {
    media.examples = { [name]: { $ref: `#/components/examples/${name}` } };
  };
  /**
   * The examples of a body. `as` names its shared example (a shared error response's own name), and
   * `answer` is its recording.
   */
  const fill = (content: unknown, direction: Direction, as?: { name: string; answer?: RecordedAnswer }) => {
    for (const media of Object.values((content ?? {}) as Record<string, MediaType>)) {
      if (!media.schema || media.example !== undefined || media.examples !== undefined) continue;
      const answer = as?.answer;
      if (as !== undefined) {
        shared[as.name] =
          answer?.body === undefined
            ? { value: maker.of(media.schema, direction) }
            : { summary: `Recorded: ${answer.request}`, value: answer.body };
        refer(media, as.name);
        continue;
      }
      const value = maker.of(media.schema, direction);
      const component = Object.keys(media.schema).length === 1 && COMPONENT_REF.exec(String(media.schema.$ref));
      if (!component) {
        media.example = value;
        continue;
      }
      const name = sharedName(component[1]!, value);
      shared[name] ??= { value };
      refer(media, name);
    }
  };
  for (const [path, item] of Object.entries(document.paths))
    for (const op of Object.values(item)) {
      const id = String(op.operationId);
      const answer = recorded.answers[id];
      for (const [status, response] of Object.entries(op.responses as Record<string, JsonSchema>))
        fill(response.content, 'answer', String(answer?.status) === status ? { name: id, answer } : undefined);
      fill((op.requestBody as JsonSchema | undefined)?.content, 'request');
      for (const parameter of (op.parameters ?? []) as JsonSchema[]) {
        const example = parameter.in === 'path' ? maker.pathParameter(path, String(parameter.name)) : undefined;
        if (example !== undefined) parameter.example = example;
      }
    }
  for (const [name, response] of Object.entries(components.responses))
    fill(response.content, 'answer', { name, answer: recorded.errors[name] });
  const { events } = documentedSamples();
  for (const [name, item] of Object.entries(document.webhooks ?? {})) {
    const content = ((item.post as JsonSchema).requestBody as JsonSchema).content as Record<string, MediaType>;
    content['application/json']!.example = events[name as keyof typeof events];
  }
  components.examples = Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b)));
}
