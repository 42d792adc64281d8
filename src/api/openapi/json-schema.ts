import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** What stands for zod's `z.json()`: no constraint, which every tool reads as "any value". */
export const ANY_JSON_VALUE: JsonSchema = Object.freeze({ description: 'Any JSON value' });

/**
 * The formats that JSON Schema 2020-12 and the OpenAPI format registry define. zod adds its own
 * (`starts_with`, `cuid`, `e164`, …), always next to a `pattern` that says the same, so those are dropped.
 */
const STANDARD_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
  'int32',
  'int64',
  'float',
  'double',
  'byte',
  'binary',
  'password',
]);

/**
 * Turns zod schemas into OpenAPI 3.1 schema objects (JSON Schema 2020-12): requests as the caller may
 * write them (`io: 'input'`), responses as they arrive (`io: 'output'`). zod puts the definitions of
 * recursive schemas in a local `$defs`, which means nothing once embedded in a document: they move to
 * `components.schemas` (one entry per distinct definition) and their refs follow. The one recursive
 * schema of the table, "any JSON value", becomes a schema without constraint instead: code generators
 * turn its self-reference into a type that refers to itself (TypeScript's TS2502), while zod, which
 * the emulator validates with, still checks that the value is JSON.
 */
export class SchemaConverter {
  /** What goes into `components.schemas`. */
  readonly components: Record<string, JsonSchema> = {};
  private readonly names = new Map<string, string>();

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' });
    if (!$defs) return toolFriendly(rest, new Map());
    const renamed = new Map<string, JsonSchema>();
    for (const [local, def] of Object.entries($defs)) {
      const ref = `#/$defs/${local}`;
      if (isAnyJsonValue(def as JsonSchema, ref)) {
        renamed.set(ref, ANY_JSON_VALUE);
        continue;
      }
      const content = JSON.stringify(def);
      let name = this.names.get(content);
      if (name === undefined) {
        name = `Def${this.names.size + 1}`;
        this.names.set(content, name);
      }
      renamed.set(ref, { $ref: `#/components/schemas/${name}` });
    }
    for (const [local, def] of Object.entries($defs)) {
      const target = renamed.get(`#/$defs/${local}`)!;
      if (typeof target.$ref !== 'string') continue;
      this.components[target.$ref.split('/').pop()!] ??= toolFriendly(def as JsonSchema, renamed);
    }
    return toolFriendly(rest, renamed);
  }

  /** The properties of an object schema, each with whether it is required: one OpenAPI parameter apiece. */
  properties(schema: z.ZodObject, io: 'input' | 'output'): { name: string; schema: JsonSchema; required: boolean }[] {
    const json = this.convert(schema, io);
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    return Object.entries(properties).map(([name, property]) => ({
      name,
      schema: property,
      required: required.has(name),
    }));
  }
}

const isUnconstrained = (schema: unknown) =>
  typeof schema === 'object' && schema !== null && Object.keys(schema).every((k) => k === 'description');

/** zod's `z.json()`: string, number, boolean, null, or an array or record of itself. */
function isAnyJsonValue(def: JsonSchema, ref: string): boolean {
  const members = def.anyOf;
  if (!Array.isArray(members) || members.length !== 6) return false;
  const types = members.map((m: JsonSchema) => m.type).join(',');
  const self = JSON.stringify({ $ref: ref });
  return (
    types === 'string,number,boolean,null,array,object' &&
    JSON.stringify(members[4].items) === self &&
    JSON.stringify(members[5].additionalProperties) === self
  );
}

/**
 * Points local refs where they now live, drops the formats no tool knows, and folds a union with an
 * unconstrained member (`string | any JSON value`) into that member.
 */
function toolFriendly<T>(value: T, renamed: ReadonlyMap<string, JsonSchema>): T {
  if (Array.isArray(value)) return value.map((v: unknown) => toolFriendly(v, renamed)) as T;
  if (value === null || typeof value !== 'object') return value;
  const schema = value as JsonSchema;
  if (typeof schema.$ref === 'string' && renamed.has(schema.$ref)) return renamed.get(schema.$ref) as T;
  const out: JsonSchema = {};
  for (const [key, v] of Object.entries(schema)) {
    if (key === 'format' && typeof v === 'string' && !STANDARD_FORMATS.has(v)) {
      if (!JSON.stringify(schema).includes('"pattern"'))
        throw new TypeError(`The schema format ${JSON.stringify(v)} is not standard and has no pattern to stand in`);
      continue;
    }
    out[key] = toolFriendly(v, renamed);
  }
  if (Array.isArray(out.anyOf) && out.anyOf.some(isUnconstrained)) {
    const { anyOf: _members, ...rest } = out;
    return { ...ANY_JSON_VALUE, ...rest } as T;
  }
  return out as T;
}
