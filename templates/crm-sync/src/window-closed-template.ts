import { TemplateVariables } from 'convo-kit/resources';
import { type Contact } from 'convo-kit/resources';
import { SettingsError } from 'convo-kit/settings';

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
// The service's bound on one value, read from its own schema of template variables.
const VALUE_TEXT = `must be text of 1 to ${TemplateVariables.valueType.maxLength} characters`;

/**
 * Reads the fallback from the environment: none when `WINDOW_CLOSED_TEMPLATE_ID` is unset (the send then
 * fails with OUTSIDE_SERVICE_WINDOW). `WINDOW_CLOSED_TEMPLATE_VARIABLES` is a JSON object such as
 * `{"1":"Convo Kit Shop"}`. A malformed value throws a SettingsError naming the variable.
 */
export function windowClosedTemplateFromEnv(env: NodeJS.ProcessEnv): WindowClosedTemplate | undefined {
  const templateId = env[WINDOW_CLOSED_TEMPLATE_ID];
  const rawVariables = env[WINDOW_CLOSED_TEMPLATE_VARIABLES];
  if (!templateId) {
    if (rawVariables)
      throw new SettingsError(
        'SETTINGS_MISSING',
        [WINDOW_CLOSED_TEMPLATE_ID],
        `${WINDOW_CLOSED_TEMPLATE_VARIABLES} is set but ${WINDOW_CLOSED_TEMPLATE_ID} is not`,
      );
    return undefined;
  }
  if (!TEMPLATE_ID.test(templateId))
    throw new SettingsError(
      'SETTINGS_INVALID',
      [WINDOW_CLOSED_TEMPLATE_ID],
      `${WINDOW_CLOSED_TEMPLATE_ID} must be a template id such as tpl_reply_waiting, got "${templateId}"`,
    );
  return { templateId, variables: parseVariables(rawVariables ?? '{}') };
}

/**
 * The setting's JSON, checked by the service's own `TemplateVariables` (variable positions to bounded
 * text), and not blank: the service would send a blank value as a gap in the text. The error names the
 * setting and the entry at fault.
 */
function parseVariables(raw: string): Record<string, string> {
  const fail = (why: string): never => {
    throw new SettingsError(
      'SETTINGS_INVALID',
      [WINDOW_CLOSED_TEMPLATE_VARIABLES],
      `${WINDOW_CLOSED_TEMPLATE_VARIABLES} ${why}`,
    );
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fail(`is not valid JSON (expected an object such as {"1":"Convo Kit Shop"})`);
  }
  const result = TemplateVariables.safeParse(parsed);
  if (result.success) {
    const blank = Object.keys(result.data).find((position) => result.data[position] === '');
    return blank === undefined ? result.data : fail(`entry "${blank}" ${VALUE_TEXT}`);
  }
  const issue = result.error.issues[0]!;
  const entry = issue.path[0];
  if (entry === undefined)
    return fail('must be a JSON object of variable positions to text, such as {"1":"Convo Kit Shop"}');
  if (issue.code === 'invalid_key')
    return fail(`has "${String(entry)}": ${issue.issues[0]?.message ?? 'expected a variable position'}`);
  return fail(`entry "${String(entry)}" ${VALUE_TEXT}`);
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
