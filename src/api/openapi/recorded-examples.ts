import { readFileSync } from 'node:fs';

/** One request the recorder sent to a fresh emulator, and the answer it got. */
export interface RecordedAnswer {
  /** What was sent: `PATCH /v1/tickets/tkt_seed_00001` (with the ids it used and the query it added). */
  request: string;
  status: number;
  /** The answer's body; absent for a 204. */
  body?: unknown;
}

/**
 * `recorded-examples.json`: real emulator answers, written by `npm run openapi:examples`
 * (scripts/record-openapi-examples.ts) and shown as the document's examples.
 */
export interface RecordedExamples {
  /** The success answer of each operation, by operationId. */
  answers: Record<string, RecordedAnswer>;
  /** An error answer for each shared error response (`components.responses`) a request can provoke cheaply, by name. */
  errors: Record<string, RecordedAnswer>;
}

/** Where the recording is; the build copies it beside the compiled module (tsconfig.build.json). */
export const RECORDED_EXAMPLES_FILE = new URL('./recorded-examples.json', import.meta.url);

let recorded: RecordedExamples | undefined;

/** The committed recording, read once. */
export function recordedExamples(): RecordedExamples {
  recorded ??= JSON.parse(readFileSync(RECORDED_EXAMPLES_FILE, 'utf8')) as RecordedExamples;
  return recorded;
}
