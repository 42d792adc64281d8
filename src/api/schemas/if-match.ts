import { z } from 'zod';

/** One entity tag (RFC 9110 §8.8.3): optional `W/`, then visible ASCII but `"` in double quotes. */
const ENTITY_TAG = String.raw`(?:W\/)?"[\x21\x23-\x7E]*"`;

/**
 * `*`, or a comma-separated list of entity tags where empty elements are ignored (RFC 9110 §5.6.1). One pattern,
 * so the OpenAPI document and the client state the same rule the emulator applies.
 */
const IF_MATCH = new RegExp(String.raw`^(?:\*|(?:,[ \t]*)*${ENTITY_TAG}(?:[ \t]*,(?:[ \t]*${ENTITY_TAG})?)*)$`);

/** Room for hundreds of tags; a longer value is refused rather than scanned. */
const MAX_IF_MATCH_LENGTH = 1024;

/**
 * `If-Match` (docs/resources.md): `"3"` (the ETag of GET), `W/"3"`, a list such as `"2", "3"`, or `*`. One that names
 * no current version gets 409 VERSION_CONFLICT; absent, the last write wins.
 */
export const IfMatch = z
  .string()
  .max(MAX_IF_MATCH_LENGTH)
  .regex(IF_MATCH, 'expected an ETag such as "3" (W/"3" weak), a comma-separated list of them, or *');

/** The headers of a conditional update. */
export const IfMatchHeaders = z.object({ 'if-match': IfMatch.optional() });

/** What a valid `If-Match` asks for: any current version (`*`), or one of these opaque tags (weak or strong alike). */
export function ifMatchTags(value: string): '*' | string[] {
  if (value === '*') return '*';
  return [...value.matchAll(new RegExp(ENTITY_TAG, 'g'))].map(([tag]) => tag.slice(tag.indexOf('"') + 1, -1));
}
