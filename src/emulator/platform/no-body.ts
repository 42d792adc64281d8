import { z } from 'zod';

/**
 * The body of a write route the table declares without one (takesNoBody), and of a control that takes none:
 * none, an empty body or `{}`. A field is refused by name rather than ignored (validateRequest names each), since the caller plainly
 * meant it to change something.
 */
export const NO_BODY = z.strictObject(
  {},
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? undefined
        : 'this route takes no body; expected none, or an empty JSON object',
  },
);
