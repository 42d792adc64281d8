import { type Contact } from 'convo-kit/resources';
import { z } from 'zod';

/**
 * The approved template sent instead of a free-form reply once the phone channel's 24-hour window has
 * closed (the service answers OUTSIDE_SERVICE_WINDOW). Named explicitly: the CRM never picks one.
 */
export interface WindowClosedTemplate {
  /** The template's id (`tpl_…`); it must be `approved` when the send happens. */
  templateId: string;
  /**
   * The values of the template's `{{1}}`, `{{2}}`, … by position: the same text for everyone, or
   * computed from the contact (for example its name). Every variable the template uses needs one.
   */
  variables: Readonly<Record<string, string>> | ((contact: Contact) => Record<string, string>);
}

/** The environment variables that configure it (README, "When the 24-hour window has closed"). */
const WINDOW_CLOSED_TEMPLATE_ID = 'WINDOW_CLOSED_TEMPLATE_ID';
const WINDOW_CLOSED_TEMPLATE_VARIABLES = 'WINDOW_CLOSED_TEMPLATE_VARIABLES';

const TEMPLATE_ID = /^[\w-]{1,100}$/;
const MAX_VALUE_CHARS = 1024; // the service's bound on one template variable
const VALUE_TEXT = `must be text of 1 to ${MAX_VALUE_CHARS} characters`;

/** `WINDOW_CLOSED_TEMPLATE_VARIABLES`: variable positions ("1" to "99", so at most 99 entries) to their text. */
const TemplateVariables = z.record(
  z.string().regex(/^[1-9]\d?$/, 'is not a variable position ("1" to "99")'),
  z.string({ error: VALUE_TEXT }).min(1, VALUE_TEXT).max(MAX_VALUE_CHARS, VALUE_TEXT),
  {
    error: (issue) =>
      issue.code === 'invalid_type'
        ? 'must be a JSON object of variable positions to text, such as {"1":"Convo Kit Shop"}'
        : undefined,
  },
);

/**
 * Reads the fallback from the environment: none when `WINDOW_CLOSED_TEMPLATE_ID` is unset (the send then
 * fails with OUTSIDE_SERVICE_WINDOW). `WINDOW_CLOSED_TEMPLATE_VARIABLES` is a JSON object such as
 * `{"1":"Convo Kit Shop"}`. A malformed value throws an error naming the variable.
 */
export function windowClosedTemplateFromEnv(env: NodeJS.ProcessEnv): WindowClosedTemplate | undefined {
  const templateId = env[WINDOW_CLOSED_TEMPLATE_ID];
  const rawVariables = env[WINDOW_CLOSED_TEMPLATE_VARIABLES];
  if (!templateId) {
    if (rawVariables)
      throw new Error(`${WINDOW_CLOSED_TEMPLATE_VARIABLES} is set but ${WINDOW_CLOSED_TEMPLATE_ID} is not`);
    return undefined;
  }
  if (!TEMPLATE_ID.test(templateId))
    throw new Error(
      `${WINDOW_CLOSED_TEMPLATE_ID} must be a template id such as tpl_reply_waiting, got "${templateId}"`,
    );
  return { templateId, variables: parseVariables(rawVariables ?? '{}') };
}

/** The setting's JSON, checked by `TemplateVariables`; the error names the setting and the entry at fault. */
function parseVariables(raw: string): Record<string, string> {
  const fail = (why: string): never => {
    throw new Error(`${WINDOW_CLOSED_TEMPLATE_VARIABLES} ${why}`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fail(`is not valid JSON (expected an object such as {"1":"Convo Kit Shop"})`);
  }
  const result = TemplateVariables.safeParse(parsed);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const entry = issue.path[0];
  if (entry === undefined) return fail(issue.message);
  if (issue.code === 'invalid_key')
    return fail(`has "${String(entry)}", which ${issue.issues[0]?.message ?? 'is not a variable position'}`);
  return fail(`entry "${String(entry)}" ${issue.message}`);
}

/** The variables for one contact. */
export function variablesFor(template: WindowClosedTemplate, contact: Contact): Record<string, string> {
  return typeof template.variables === 'function' ? template.variables(contact) : { ...template.variables };
}

/** A free-form reply the service refused because the window closed, with no fallback template configured. */
export class WindowClosedError extends Error {
  readonly code = 'OUTSIDE_SERVICE_WINDOW';
  constructor(readonly conversationId: string) {
    super(
      `The 24-hour window of conversation ${conversationId} has closed, so the service refuses free text; nothing was sent. Set ${WINDOW_CLOSED_TEMPLATE_ID} (and ${WINDOW_CLOSED_TEMPLATE_VARIABLES}) to send an approved template instead`,
    );
    this.name = 'WindowClosedError';
  }
}
