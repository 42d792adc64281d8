import { z } from 'zod';
import { closestName } from '../internal/closest-name.js';

/** At most this many unknown keys of one object are named: a hostile body cannot make the answer huge. */
const MAX_NAMED = 20;

export interface UnknownKey {
  path: PropertyKey[];
  message: string;
}

function unwrap(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return unwrap(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return unwrap(schema.in as z.ZodType);
  return schema;
}

/** The object schema at `path` inside `schema` (through optional, nullable, default and arrays), if there is one. */
function objectAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodObject | undefined {
  let at = unwrap(schema);
  for (const segment of path) {
    if (at instanceof z.ZodObject && typeof segment === 'string' && Object.hasOwn(at.shape, segment))
      at = unwrap(at.shape[segment] as z.ZodType);
    else if (at instanceof z.ZodArray && typeof segment === 'number') at = unwrap(at.element as z.ZodType);
    else return undefined;
  }
  return at instanceof z.ZodObject ? at : undefined;
}

/** What a refused key is called: a key of a JSON body (at any depth), or of the query string. */
export type UnknownKeyNoun = 'field' | 'query parameter';

function hint(key: string, declared: readonly string[] | undefined, noun: UnknownKeyNoun, atRoot: boolean): string {
  if (declared === undefined) return '';
  if (declared.length === 0) {
    if (!atRoot) return '; this object takes none';
    return noun === 'query parameter' ? '; this route takes none' : '; this route takes no body';
  }
  const meant = closestName(key, declared);
  if (meant !== undefined) return `; did you mean ${meant}?`;
  const list = declared.slice(0, MAX_NAMED).join(', ');
  return `; expected ${declared.length > MAX_NAMED ? `one of ${list}, …` : `one of ${list}`}`;
}

/**
 * The one wording of a key nothing declares, in the service's answers and the client's InvalidInputError
 * alike: `unknown field; did you mean caption?`, `unknown query parameter; expected one of limit, cursor`,
 * or a note that the place takes no key at all. `declared` is undefined where the place is not an object.
 */
export function unknownKeyMessage(
  key: string,
  declared: readonly string[] | undefined,
  noun: UnknownKeyNoun,
  atRoot: boolean,
): string {
  return `unknown ${noun}${hint(key, declared, noun, atRoot)}`;
}

/**
 * zod reports a strict object's unknown keys as one issue at the object; this names each key at its own
 * path, as any other refused field is named (docs/errors.md), with the declared name it likely meant.
 */
export function unknownKeys(
  schema: z.ZodType,
  issue: Pick<z.core.$ZodIssueUnrecognizedKeys, 'keys' | 'path'>,
  noun: UnknownKeyNoun,
): UnknownKey[] {
  const object = objectAt(schema, issue.path);
  const declared = object && Object.keys(object.shape);
  return issue.keys.slice(0, MAX_NAMED).map((key) => ({
    path: [...issue.path, key],
    message: unknownKeyMessage(key, declared, noun, issue.path.length === 0),
  }));
}
