/**
 * Records the OpenAPI document's answer examples from a real emulator (issue 27): `npm run openapi:examples`
 * writes src/api/openapi/recorded-examples.json, which src/api/openapi/examples.ts shows in the document.
 *
 * A fresh in-process emulator answers each operation's own example request (its path ids and body, from the
 * document), once per operation and from the seeded workspace, so that no answer depends on another. What
 * the seed lacks (a key, a webhook endpoint, a journey, a campaign, an enrollment, a knowledge entry) is
 * made first with its own create example. Lists are asked for `limit=1`, so the document shows a page
 * with its `next_cursor` without growing by whole pages. Then one request per shared error response
 * provokes it for real, where that is cheap.
 *
 * The recording is the same on every run: the emulator's clock stands still at the examples' time
 * (EXAMPLE_TIME), every request carries the examples' X-Request-ID, and ids, keys and secrets are made
 * from a counter per prefix that restarts at each operation (drawIdsFrom) instead of the CSPRNG.
 * test/contract/openapi-examples.test.ts records again and fails if the committed file differs.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { format, resolveConfig } from 'prettier';
import { openapi } from '../src/api/index.js';
import { EXAMPLE_TIME } from '../src/api/openapi/examples.js';
import {
  RECORDED_EXAMPLES_FILE,
  type RecordedAnswer,
  type RecordedExamples,
} from '../src/api/openapi/recorded-examples.js';
import type { Plan } from '../src/api/plans.js';
import { createEmulator, type Emulator } from '../src/emulator/index.js';
import { drawIdsFrom } from '../src/internal/prefixed-id.js';
import { documentOperations } from './openapi-examples/example-requests.js';
import { PROVOKED, responseNameOf } from './openapi-examples/provoked-errors.js';
import { FixedIds, Recorder } from './openapi-examples/recorder.js';

/** Records every answer and error example on fresh emulators; throws naming what did not answer as documented. */
export async function recordExamples(): Promise<RecordedExamples> {
  const ids = new FixedIds();
  const restore = drawIdsFrom(ids.next);
  const emulators: Emulator[] = [];
  try {
    const document = openapi();
    /** An emulator whose clock stands still at the examples' time, and a recorder in front of it. */
    const start = async (plan?: Plan) => {
      const emulator = await createEmulator({
        logger: pino({ level: 'silent' }),
        checkResponses: true,
        now: () => Date.parse(EXAMPLE_TIME),
        plan,
      });
      emulators.push(emulator);
      const { url } = await emulator.listen(0, '127.0.0.1');
      return { emulator, recorder: new Recorder(document, emulator, url) };
    };
    const { emulator, recorder } = await start();
    const answers: Record<string, RecordedAnswer> = {};
    for (const operation of documentOperations(document)) {
      ids.restart(operation.id);
      emulator.reset();
      recorder.restart();
      answers[operation.id] = await recorder.succeed(operation.id);
    }
    const errors: Record<string, RecordedAnswer> = {};
    for (const provoked of PROVOKED) {
      const operation = recorder.operation(provoked.operation);
      const named = responseNameOf(operation, provoked.status);
      if (named !== provoked.response)
        throw new Error(`${provoked.operation} answers ${provoked.status} as ${named}, not ${provoked.response}`);
      ids.restart(provoked.response);
      emulator.reset();
      recorder.restart();
      const on = provoked.plan === undefined ? recorder : (await start(provoked.plan)).recorder;
      const sent = await provoked.send(on, operation);
      if (sent.status !== provoked.status)
        throw new Error(
          `${sent.request} answered ${sent.status}, not ${provoked.status}: ${JSON.stringify(sent.body)}`,
        );
      errors[provoked.response] = sent;
    }
    return { answers: sorted(answers), errors: sorted(errors) };
  } finally {
    await Promise.all(emulators.map((e) => e.close()));
    restore();
  }
}

/** The object with its keys in order; the answers inside keep the emulator's own order. */
const sorted = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The file's text: the recording as JSON, formatted as the repository formats JSON. */
export async function recordedExamplesText(recorded: RecordedExamples): Promise<string> {
  const path = fileURLToPath(RECORDED_EXAMPLES_FILE);
  const options = await resolveConfig(path);
  return format(JSON.stringify(recorded), { ...options, filepath: path });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const recorded = await recordExamples();
  writeFileSync(RECORDED_EXAMPLES_FILE, await recordedExamplesText(recorded));
  console.log(
    `${fileURLToPath(RECORDED_EXAMPLES_FILE)}: ${Object.keys(recorded.answers).length} answers, ` +
      `${Object.keys(recorded.errors).length} error answers`,
  );
}
