import { eventSchemas, type EventName } from '../../events/index.js';
import { sampleEvent, type SampleEnvelope } from '../../events/index.js';
import { CliError } from '../cli-error.js';
import { parseJson, readInput } from '../read-input.js';
import { applySet } from '../set-path.js';
import { issueText } from '../../internal/issue-text.js';

export interface BuildOptions {
  /** A JSON file whose object is deep-merged into the sample's `data`. */
  data?: string;
  /** `path=value` assignments inside `data`, applied after --data. */
  set?: string[];
  /** @default true */
  validate?: boolean;
}

const MAX_ISSUES_SHOWN = 5;

/** The sample of `event`, with the user's overrides, checked against the event's schema unless told not to. */
export async function buildEvent(event: EventName, options: BuildOptions): Promise<SampleEnvelope> {
  let overrides: Record<string, unknown> = {};
  if (options.data !== undefined) {
    const parsed = parseJson(await readInput(options.data, '--data file'), '--data file');
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new CliError(
        'USAGE',
        `--data must hold a JSON object (fields of the event's \`data\`), got ${Array.isArray(parsed) ? 'an array' : typeof parsed}.`,
      );
    }
    overrides = parsed as Record<string, unknown>;
  }
  const envelope: SampleEnvelope = sampleEvent(event, { data: overrides });
  for (const assignment of options.set ?? []) applySet(envelope.data as Parameters<typeof applySet>[0], assignment);
  if (options.validate !== false) {
    const result = eventSchemas[event].safeParse(envelope.data);
    if (!result.success) {
      const problems = result.error.issues
        .slice(0, MAX_ISSUES_SHOWN)
        .map((issue) => `  ${issueText({ ...issue, path: ['data', ...issue.path] }, 'data')}`);
      throw new CliError(
        'USAGE',
        `The ${event} payload no longer matches its schema after your overrides:\n${problems.join('\n')}`,
        {
          hint: 'Fix the --data/--set values, or pass --no-validate to send it anyway (to test how a receiver handles a bad payload).',
        },
      );
    }
  }
  return envelope;
}
