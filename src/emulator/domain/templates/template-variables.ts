import { TEMPLATE_VARIABLE as VARIABLE } from '../../../api/schemas/common.js';
import { MESSAGE_CONTENT_MAX_CHARS, MessageContent } from '../../../api/schemas/message.js';
import { ApiFailure } from '../../api-failure.js';

/** The variable positions a template body uses (`{{1}}`, `{{2}}`), in numeric order, each once. */
export function templateVariables(body: string): string[] {
  const positions = new Set<string>();
  for (const match of body.matchAll(VARIABLE)) positions.add(match[1]!);
  return [...positions].sort((a, b) => Number(a) - Number(b));
}

/** The positions of `required` that `given` lacks. */
export function missingVariables(required: readonly string[], given: Readonly<Record<string, string>>): string[] {
  return required.filter((position) => !Object.hasOwn(given, position));
}

/**
 * Refuses `given` values that lack a position `required` names, before anything is sent or stored:
 * 400 VALIDATION_FAILED naming each `<field>.<position>` (a trigger's `metadata`, a send's or a
 * campaign's `variables`), with `requiredBy` saying what needs it.
 */
export function requireVariableValues(
  required: readonly string[],
  given: Readonly<Record<string, string>>,
  field: string,
  requiredBy: string,
): void {
  const missing = missingVariables(required, given);
  if (missing.length === 0) return;
  const paths = missing.map((p) => `${field}.${p}`);
  throw new ApiFailure(
    'VALIDATION_FAILED',
    `${paths.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required by ${requiredBy}; nothing was sent`,
    {
      details: paths.map((path) => ({ path, in: 'body', message: `required by ${requiredBy}` })),
    },
  );
}

/**
 * The body with its variables filled in. A missing value is the provider's refusal of an incomplete
 * send, surfaced before sending as 400 VALIDATION_FAILED naming `<field>.<position>`.
 */
export function fillTemplate(
  body: string,
  values: Readonly<Record<string, string>>,
  field = 'variables',
  requiredBy = 'the template body',
): string {
  requireVariableValues(templateVariables(body), values, field, requiredBy);
  const content = body.replace(VARIABLE, (_, position: string) => values[position]!);
  if (MessageContent.safeParse(content).success) return content;
  // What reaches the customer is a message, so the spec's message content bound holds for it too.
  throw new ApiFailure(
    'VALIDATION_FAILED',
    `Filled in with ${field}, ${requiredBy} would be ${content === '' ? 'empty' : `${[...content].length} characters`}; a message is 1 to ${MESSAGE_CONTENT_MAX_CHARS}; nothing was sent`,
    {
      details: [
        { path: field, in: 'body', message: `the filled message must be 1 to ${MESSAGE_CONTENT_MAX_CHARS} characters` },
      ],
    },
  );
}
