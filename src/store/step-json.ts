import type { StepRecord } from './step-journal.js';
import { shownError } from '../internal/redact-text.js';

/**
 * A journaled step as the inspector and `deliveries show --json` give it: name, outcome and when, the
 * size of its result (not the result: it may hold what the body's redaction would hide), its error shown
 * as errors are.
 */
export function stepJson(step: StepRecord) {
  return {
    name: step.name,
    attempt: step.attempt,
    outcome: step.outcome,
    started_at: new Date(step.startedAt).toISOString(),
    finished_at: new Date(step.finishedAt).toISOString(),
    result_bytes: step.result === null ? 0 : Buffer.byteLength(step.result),
    error: shownError(step.error),
  };
}
