import { redactedBody } from '../../internal/redact-body.js';
import { shownError } from '../../internal/redact-text.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../signature/index.js';
import { type AttemptRecord, type DeliveryRecord, type StepRecord } from '../../store/index.js';
import { stepJson } from '../../store/step-json.js';
import { CliError } from '../cli-error.js';
import { headerCase, out } from '../output.js';
import { attemptsTable, formatTime, paintStatus, redactSignature, stepsTable, summaryJson } from './format.js';
import { inboxLocation } from './inbox-location.js';
import { withStore } from './open-store.js';

export interface ShowOptions {
  db: string;
  json?: boolean;
}

function headersOf(record: DeliveryRecord): Record<string, string> {
  return {
    [DELIVERY_HEADER]: record.id,
    [EVENT_HEADER]: record.event,
    [TIMESTAMP_HEADER]: record.timestamp,
    [SIGNATURE_HEADER]: redactSignature(record.signature),
  };
}

function printHuman(record: DeliveryRecord, attempts: readonly AttemptRecord[], steps: readonly StepRecord[]): void {
  const c = out.c;
  out.line(c.bold(`Delivery ${record.id}`));
  const facts: [string, string][] = [
    ['event', record.event],
    ['status', paintStatus(record.status)],
    ['attempts', String(record.attempts)],
    ['received', formatTime(record.receivedAt)],
    ['next attempt', formatTime(record.nextAttemptAt)],
    ['last error', shownError(record.lastError) ?? '-'],
    ['size', `${record.size} bytes`],
  ];
  for (const [name, value] of facts) out.line(`  ${name.padEnd(13)}${value}`);
  out.line();
  out.line(c.bold('Headers'));
  for (const [name, value] of Object.entries(headersOf(record))) out.line(`  ${headerCase(name)}: ${value}`);
  out.line();
  // Redacted as the delivery inspector shows it: terminal output gets copied around too.
  out.line(c.bold('Payload') + c.dim(' (secret-looking fields redacted)'));
  const payload = redactedBody(record.body);
  const text = 'json' in payload ? JSON.stringify(payload.json, null, 2) : payload.text;
  for (const line of text.split('\n')) out.line(`  ${line}`);
  out.line();
  out.line(c.bold('Attempts'));
  if (attempts.length === 0) out.line('  none yet');
  else for (const line of attemptsTable(attempts)) out.line(`  ${line}`);
  out.line();
  out.line(c.bold('Steps') + c.dim(' (journaled by ctx.step, ctx.client, ctx.transaction)'));
  if (steps.length === 0) out.line('  none');
  else for (const line of stepsTable(steps)) out.line(`  ${line}`);
}

export async function showDelivery(id: string, options: ShowOptions): Promise<void> {
  await withStore(options.db, async (store) => {
    const record = await store.get(id);
    if (!record) {
      // As the database is shown everywhere: a postgres:// URL without its password.
      throw new CliError('NOT_FOUND', `No delivery ${id} in ${inboxLocation(options.db).shown}.`, {
        hint: 'List what is stored with `convo-kit deliveries list`.',
      });
    }
    const [attempts, steps] = await Promise.all([store.attempts(id), store.deliverySteps(id)]);
    if (!options.json) {
      printHuman(record, attempts, steps);
      return;
    }
    out.json({
      ...summaryJson(record),
      headers: headersOf(record),
      payload: redactedBody(record.body),
      attempts: attempts.map((a) => ({
        attempt: a.attempt,
        owner: a.owner,
        started_at: new Date(a.startedAt).toISOString(),
        finished_at: a.finishedAt === null ? null : new Date(a.finishedAt).toISOString(),
        outcome: a.outcome,
        error: shownError(a.error),
      })),
      steps: steps.map(stepJson),
    });
  });
}
