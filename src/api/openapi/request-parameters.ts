import { EXAMPLE_REQUEST_ID } from './examples.js';
import type { JsonSchema } from './json-schema.js';

/** `components.parameters` that every operation takes. */
export const REQUEST_PARAMETERS: Record<string, JsonSchema> = {
  'X-Request-ID': {
    name: 'X-Request-ID',
    in: 'header',
    required: false,
    // Any value is taken (one that does not fit is replaced, not refused), so the schema does not narrow it.
    description:
      'Your own id for the request, echoed on the answer when it is 1-200 of `[A-Za-z0-9._:-]`; otherwise the answer carries a new `req_…`',
    schema: { type: 'string' },
    // The id the recorded examples were sent with (their answers echo it); tools that send examples (Dredd) send it.
    example: EXAMPLE_REQUEST_ID,
  },
};

/** The reference an operation lists among its parameters. */
export const REQUEST_ID_PARAMETER = { $ref: '#/components/parameters/X-Request-ID' };
