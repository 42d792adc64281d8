import { z } from 'zod';
import { componentNames } from './component-names.js';

export type JsonSchema = Record<string, unknown>;

type Io = 'input' | 'output';

/** What stands for zod's `z.json()`: no constraint, which every tool reads as "any value". */
export const ANY_JSON_VALUE: JsonSchema = Object.freeze({ description: 'Any JSON value' });

const COMPONENTS = '#/components/schemas/';

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

/** A `$ref` handed out before the component's final name is known (see {@link SchemaConverter.finish}). */
interface PendingRef {
  ref: JsonSchema;
  name: string;
  io: Io;
}

/**
 * Turns zod schemas into OpenAPI 3.1 schema objects (JSON Schema 2020-12): requests as the caller may
 * write them (`io: 'input'`), responses as they arrive (`io: 'output'`).
 *
 * Every schema exported from `src/api/schemas` (and each one passed as `named`) is a component under its
 * export name, referenced by `$ref` wherever it is used: zod's `metadata` registry gives it that `id`, and
 * `z.toJSONSchema` puts it in a local `$defs`, which moves to `components.schemas`. A schema that reads
 * differently as a request (a transform, a default) gets a second component, `<Name>Input`.
 *
 * The one recursive schema of the table, "any JSON value", becomes a schema without constraint instead:
 * code generators turn its self-reference into a type that refers to itself (TypeScript's TS2502), while
 * zod, which the emulator validates with, still checks that the value is JSON.
 */
export class SchemaConverter {
  private readonly names: Map<z.ZodType, string>;
  private readonly defs: Record<Io, Map<string, JsonSchema>> = {
    input: new Map(),
    output: new Map(),
  };
  private readonly pending: PendingRef[] = [];
  /** The schema whose own id is ignored in this conversion (a query or params object, spread into parameters). */
  private inlineRoot: z.ZodType | undefined;
  private readonly registry: z.core.$ZodRegistry<Record<string, unknown>>;

  constructor(named: Readonly<Record<string, z.ZodType>> = {}) {
    this.names = new Map(componentNames());
    for (const [name, schema] of Object.entries(named)) this.names.set(schema, name);
    // Every other schema keeps what `.meta()` put in zod's global registry; only the ids are added.
    this.registry = {
      get: (schema: z.ZodType) => {
        const meta = z.globalRegistry.get(schema);
        const id = schema === this.inlineRoot ? undefined : this.names.get(schema);
        return id === undefined ? meta : meta === undefined ? { id } : { ...meta, id };
      },
    } as unknown as z.core.$ZodRegistry<Record<string, unknown>>;
  }

  /** Each schema converted once per direction: many routes share their params, pages and bodies. */
  private readonly done: Record<Io, Map<z.ZodType, JsonSchema>> = { input: new Map(), output: new Map() };

  convert(schema: z.ZodType, io: Io): JsonSchema {
    const key = schema === this.inlineRoot ? undefined : schema;
    const known = key && this.done[io].get(key);
    if (known) return known;
    const json = this.convertOnce(schema, io);
    if (key) this.done[io].set(key, json);
    return json;
  }

  private convertOnce(schema: z.ZodType, io: Io): JsonSchema {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', metadata: this.registry });
    const { $schema: _dialect, $defs, ...rest } = json;
    const renamed = new Map<string, (siblings: JsonSchema) => JsonSchema>();
    for (const [local, def] of Object.entries($defs ?? {})) {
      const ref = `#/$defs/${local}`;
      if (isAnyJsonValue(def as JsonSchema, ref)) renamed.set(ref, (siblings) => ({ ...siblings, ...ANY_JSON_VALUE }));
      else if (local.startsWith('__schema'))
        throw new TypeError(`A recursive schema needs a name to be documented: export it from src/api/schemas`);
      else renamed.set(ref, (siblings) => this.refTo(local, io, siblings));
    }
    // zod converts a schema alike every time, so a component already known is not converted again.
    for (const [local, def] of Object.entries($defs ?? {}))
      if (!local.startsWith('__schema') && !this.defs[io].has(local))
        this.defs[io].set(local, toolFriendly(def as JsonSchema, renamed));
    return toolFriendly(rest, renamed);
  }

  /** The properties of an object schema, each with whether it is required: one OpenAPI parameter apiece. */
  properties(schema: z.ZodObject, io: Io): { name: string; schema: JsonSchema; required: boolean }[] {
    this.inlineRoot = schema;
    let json: JsonSchema;
    try {
      json = this.convert(schema, io);
    } finally {
      this.inlineRoot = undefined;
    }
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    return Object.entries(properties).map(([name, property]) => ({
      name,
      schema: property,
      required: required.has(name),
    }));
  }

  /** A `$ref` to the component of this name, read as a request or an answer. */
  private refTo(name: string, io: Io, siblings: JsonSchema): JsonSchema {
    const ref: JsonSchema = { $ref: `${COMPONENTS}${name}`, ...siblings };
    this.pending.push({ ref, name, io });
    return ref;
  }

  /**
   * `components.schemas`, once every schema of the document is converted: a component read alike as a
   * request and as an answer is one, else the request's is `<Name>Input`. The refs handed out are
   * pointed at their final names; a component that is only a `$ref` (an alias) gives way to its target.
   */
  finish(): Record<string, JsonSchema> {
    const differs = new Set(
      [...this.defs.input]
        .filter(([name, json]) => {
          const output = this.defs.output.get(name);
          return output !== undefined && JSON.stringify(output) !== JSON.stringify(json);
        })
        .map(([name]) => name),
    );
    const finalName = (name: string, io: Io) => (io === 'input' && differs.has(name) ? `${name}Input` : name);
    const json = ({ name, io }: Pick<PendingRef, 'name' | 'io'>) => this.defs[io].get(name)!;
    const out: Record<string, JsonSchema> = {};
    for (const io of ['output', 'input'] as const)
      for (const [name, def] of this.defs[io]) if (!isAlias(def)) out[finalName(name, io)] ??= def;
    const viaAlias = this.pending.filter((p) => isAlias(json(p)));
    for (const p of this.pending) if (!isAlias(json(p))) p.ref.$ref = `${COMPONENTS}${finalName(p.name, p.io)}`;
    // An alias's own ref is among those just pointed at their final names.
    for (const p of viaAlias) p.ref.$ref = json(p).$ref;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }
}

const isAlias = (json: JsonSchema) => typeof json.$ref === 'string' && Object.keys(json).length === 1;

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
function toolFriendly<T>(value: T, renamed: ReadonlyMap<string, (siblings: JsonSchema) => JsonSchema>): T {
  if (Array.isArray(value)) return value.map((v: unknown) => toolFriendly(v, renamed)) as T;
  if (value === null || typeof value !== 'object') return value;
  const schema = value as JsonSchema;
  if (typeof schema.$ref === 'string' && renamed.has(schema.$ref)) {
    const { $ref, ...siblings } = schema;
    return renamed.get($ref)!(toolFriendly(siblings, renamed)) as T;
  }
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
