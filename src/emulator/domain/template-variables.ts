import { ApiFailure } from '../api-failure.js';

const VARIABLE = /\{\{\s*([1-9]\d?)\s*\}\}/g;

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
 * The body with its variables filled in. A missing value is the provider's refusal of an incomplete
 * send, surfaced before sending as 400 VALIDATION_FAILED naming `<field>.<position>`.
 */
export function fillTemplate(body: string, values: Readonly<Record<string, string>>, field = 'variables'): string {
  const missing = missingVariables(templateVariables(body), values);
  if (missing.length > 0) {
    throw new ApiFailure(
      'VALIDATION_FAILED',
      `The template needs ${missing.map((p) => `${field}.${p}`).join(', ')}; nothing was sent`,
      {
        details: missing.map((p) => ({ path: `${field}.${p}`, in: 'body', message: 'required by the template body' })),
      },
    );
  }
  return body.replace(VARIABLE, (_, position: string) => values[position]!);
}
