import { codesOf, ERROR_STATUS, ERROR_STATUSES, errorEnvelopeOf, type ErrorCode } from '../error-codes.js';
import type { JsonSchema, SchemaConverter } from './json-schema.js';
import { ERROR_WHEN } from './route-errors.js';

/** The envelope schema of each error status, as named components (`Error400`, …, `Error503`). */
export const ERROR_ENVELOPES = Object.fromEntries(
  ERROR_STATUSES.map((status) => [`Error${status}`, errorEnvelopeOf(status)]),
);

/** Codes grouped by status, in status order. */
export function byStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const out = new Map<number, ErrorCode[]>();
  for (const code of [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]))
    out.set(ERROR_STATUS[code], [...(out.get(ERROR_STATUS[code]) ?? []), code]);
  return out;
}

/** What the codes of a status mean, one `` `CODE`: when `` apiece. */
const when = (codes: readonly ErrorCode[]) => codes.map((c) => `\`${c}\`: ${ERROR_WHEN[c]}`).join('; ');

/** The codes of a status an operation answers, `` `A`, `B` ``. */
const codeList = (codes: readonly ErrorCode[]) => codes.map((c) => `\`${c}\``).join(', ');

/**
 * The error responses of a document, one per status and set of headers in `components.responses`: an
 * operation refers to the one of each status it answers and names in its own description which codes of
 * that status it answers (OpenAPI 3.1 lets a reference override the description).
 */
export class ErrorResponses {
  readonly components: Record<string, JsonSchema> = {};

  constructor(private readonly schemas: SchemaConverter) {}

  /**
   * `responses` entries for these codes. `headers(status)` are the headers the answer carries; `variant`
   * names a set of headers other than the usual one (`NoKey`, `Replayable`), so that each name stands for one.
   */
  refs(codes: readonly ErrorCode[], headers: (status: number) => JsonSchema, variant: (status: number) => string) {
    const out: JsonSchema = {};
    for (const [status, group] of byStatus(codes)) {
      const name = `Error${status}${variant(status)}`;
      const response = {
        description: `Status ${status}: ${when(codesOf(status))}`,
        headers: headers(status),
        content: { 'application/json': { schema: this.schemas.convert(ERROR_ENVELOPES[`Error${status}`]!, 'output') } },
      };
      const known = this.components[name];
      if (known && JSON.stringify(known.headers) !== JSON.stringify(response.headers))
        throw new TypeError(`The error response ${name} has two sets of headers: give one of them a variant name`);
      this.components[name] ??= response;
      // The codes alone: what each means is the shared response's description, written once (the meanings
      // repeated in every operation were an eighth of the document).
      out[String(status)] = { $ref: `#/components/responses/${name}`, description: codeList(group) };
    }
    return out;
  }
}
