import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * Turns zod schemas into OpenAPI 3.1 schema objects (JSON Schema 2020-12): requests as the caller may
 * write them (`io: 'input'`), responses as they arrive (`io: 'output'`). zod puts the definitions of
 * recursive schemas (e.g. a JSON value) in a local `$defs`, which means nothing once embedded in a
 * document: they move to `components.schemas` (one entry per distinct definition) and their refs follow.
 */
export class SchemaConverter {
  /** What goes into `components.schemas`. */
  readonly components: Record<string, JsonSchema> = {};
  private readonly names = new Map<string, string>();

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' });
    if (!$defs) return rest;
    const renamed = new Map<string, string>();
    for (const [local, def] of Object.entries($defs)) {
      const content = JSON.stringify(def);
      let name = this.names.get(content);
      if (name === undefined) {
        name = `Def${this.names.size + 1}`;
        this.names.set(content, name);
      }
      renamed.set(`#/$defs/${local}`, `#/components/schemas/${name}`);
    }
    for (const [local, def] of Object.entries($defs)) {
      const name = renamed.get(`#/$defs/${local}`)!.split('/').pop()!;
      this.components[name] ??= rewriteRefs(def as JsonSchema, renamed);
    }
    return rewriteRefs(rest, renamed);
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

function rewriteRefs<T>(value: T, renamed: ReadonlyMap<string, string>): T {
  if (Array.isArray(value)) return value.map((v: unknown) => rewriteRefs(v, renamed)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value))
    out[key] = key === '$ref' && typeof v === 'string' ? (renamed.get(v) ?? v) : rewriteRefs(v, renamed);
  return out as T;
}
