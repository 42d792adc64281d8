import { type z } from 'zod';
import { type EndpointDef } from '../api/endpoint.js';
import { IdempotencyKey } from '../api/schemas/common.js';
import { unknownKeyMessage, unknownKeys } from '../api/unknown-keys.js';
import { buildPath } from './build-path.js';
import { type FieldIssue, issuePath, InvalidInputError } from './client-errors.js';
import { headerOptionName } from './header-options.js';

/** A call's input, split by where it goes on the wire and validated. */
export interface PreparedInput {
  /** The path with its segments filled and percent-encoded. */
  path: string;
  query: Record<string, unknown>;
  /** `undefined` when the route declares no body. */
  body: Record<string, unknown> | undefined;
  /** Contract headers (`if-match`) and Idempotency-Key, by wire name. */
  headers: Record<string, string>;
  idempotencyKey: string | null;
}

/**
 * What a header carries unchanged: fetch throws on a line break, NUL or a character above U+00FF (after
 * the retries, as if the request had been lost) and trims outer spaces, which would send another key.
 */
const HEADER_SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

function acceptsUnknownKeys(schema: z.ZodObject | undefined): boolean {
  const catchall = schema?._zod.def.catchall;
  return catchall !== undefined && catchall._zod.def.type !== 'never';
}

function check(
  schema: z.ZodObject | undefined,
  value: Record<string, unknown>,
  issues: FieldIssue[],
  rename: (key: string) => string = (k) => k,
) {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data as Record<string, unknown>;
  const named = (path: readonly PropertyKey[], message: string) => {
    const [first, ...rest] = path;
    issues.push({ path: issuePath(rest, first === undefined ? '' : rename(String(first))), message });
  };
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys')
      for (const key of unknownKeys(schema, issue, 'field')) named(key.path, key.message);
    else named(issue.path, issue.message);
  }
  return value;
}

/** Every name the one input object of a route takes, for the name a misspelt key likely meant. */
function inputNames(def: EndpointDef, headerOptions: Iterable<string>): string[] {
  return [
    ...[def.params, def.query, def.body].flatMap((schema) => Object.keys(schema?.shape ?? {})),
    ...headerOptions,
    ...(def.idempotencyKey === 'required' ? ['idempotencyKey'] : []),
  ];
}

/** Own keys only: `'constructor' in shape` is true for every object, so such a key was taken and then dropped. */
function declares(schema: z.ZodObject | undefined, key: string): boolean {
  return schema !== undefined && Object.hasOwn(schema.shape, key);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Splits the one input object of a call into path params, query, body and header options (the contract
 * guarantees the keys do not collide), refuses keys the route does not know (a typo would otherwise be
 * dropped silently), validates each part with its schema and throws one InvalidInputError naming every failure.
 */
export function prepareInput(id: string, def: EndpointDef, input: unknown): PreparedInput {
  if (input !== undefined && !isPlainObject(input)) {
    throw new InvalidInputError(id, [
      { path: '', message: `expected an object, got ${Array.isArray(input) ? 'an array' : typeof input}` },
    ]);
  }
  const issues: FieldIssue[] = [];
  const parts = {
    params: {} as Record<string, unknown>,
    query: {} as Record<string, unknown>,
    body: {} as Record<string, unknown>,
  };
  const headerByOption = new Map(Object.keys(def.headers?.shape ?? {}).map((h) => [headerOptionName(h), h]));
  const headerInput: Record<string, unknown> = {};
  let idempotencyKey: string | null = null;

  for (const [key, value] of Object.entries(input ?? {})) {
    if (value === undefined) continue;
    const header = headerByOption.get(key);
    if (header !== undefined) headerInput[header] = value;
    else if (key === 'idempotencyKey' && def.idempotencyKey === 'required') {
      // The contract's length rule (spec, Send behavior 6), and what a header carries as it is.
      const checked = IdempotencyKey.safeParse(value);
      if (checked.success && HEADER_SAFE.test(checked.data)) idempotencyKey = checked.data;
      else
        issues.push({
          path: key,
          message: `expected a string of 1 to ${IdempotencyKey.maxLength} visible ASCII characters (spaces inside allowed)`,
        });
    } else if (declares(def.params, key)) parts.params[key] = value;
    else if (declares(def.query, key)) parts.query[key] = value;
    else if (def.body && (declares(def.body, key) || (acceptsUnknownKeys(def.body) && key !== '__proto__')))
      parts.body[key] = value;
    else {
      // Worded as the service words the same key (a body's field, or a query parameter where the route
      // takes no body), with the hint drawn from every name the input object takes.
      const noun = def.body ? 'field' : 'query parameter';
      issues.push({ path: key, message: unknownKeyMessage(key, inputNames(def, headerByOption.keys()), noun, true) });
    }
  }

  const params = check(def.params, parts.params, issues);
  const query = check(def.query, parts.query, issues);
  const body = def.body ? check(def.body, parts.body, issues) : undefined;
  const headerValues = check(def.headers, headerInput, issues, headerOptionName);
  const { path, issues: pathIssues } = buildPath(def.path, params);
  issues.push(...pathIssues.filter((p) => !issues.some((i) => i.path === p.path)));
  if (issues.length > 0) throw new InvalidInputError(id, issues);

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(headerValues)) if (value !== undefined) headers[name] = String(value);
  if (def.idempotencyKey === 'required') {
    idempotencyKey ??= globalThis.crypto.randomUUID();
    headers['idempotency-key'] = idempotencyKey;
  }
  return { path, query, body, headers, idempotencyKey };
}
