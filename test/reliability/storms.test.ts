import { afterEach, beforeEach, expect, it } from 'vitest';
import { signedDelivery, type SignedDelivery } from '../../src/testing/index.js';
import { newDeliveryId } from '../../src/signature/index.js';
import { SECRET } from '../receiver/harness.js';
import { tempDir } from '../store/temp-dir.js';
import { eventIdOf, figures, report, settle } from './figures.js';
import { ReceiverProcess, stopAll } from './receiver-process.js';
import { pool, send, type Sendable } from './send.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await stopAll();
  dir.remove();
});

const EVENTS = 50;
const COPIES = 20;

/**
 * Sends `copy(delivery, n)` for n = 0..COPIES-1 of each of EVENTS deliveries (shuffled, 32 at once) to
 * one receiver process, prints the figures and checks that every event ran exactly once.
 */
async function storm(scenario: string, copy: (delivery: SignedDelivery, n: number) => Sendable) {
  const journal: string[] = [];
  const receiver = await ReceiverProcess.start(dir.path('inbox.db'), journal, { HANDLER_MS: '20' });
  const originals = Array.from({ length: EVENTS }, () => signedDelivery({ secret: SECRET, event: 'ticket.created' }));
  const copies = originals
    .flatMap((d) => Array.from({ length: COPIES }, (_, n) => ({ delivery: copy(d, n), event: eventIdOf(d) })))
    .map((c) => ({ c, k: Math.random() }))
    .sort((a, b) => a.k - b.k)
    .map(({ c }) => c);
  const acked = new Set<string>();
  let answers = 0;
  await pool(copies, 32, async (c) => {
    if ((await send(receiver.url, c.delivery)) !== 200) return;
    answers++;
    acked.add(c.event);
  });
  const f = await settle(acked, journal);
  await new Promise((r) => setTimeout(r, 500)); // a second run would show by now
  const runs = journal.filter((line) => line.startsWith('end ')).length;
  report(scenario, figures(acked, journal), { requests: copies.length, '200 answers': answers, 'handler runs': runs });
  await receiver.stop();
  expect(answers).toBe(EVENTS * COPIES);
  expect(f.lost).toBe(0);
  expect(f.runTwice).toBe(0);
  expect(runs).toBe(EVENTS);
}

it(`a duplicate storm: ${EVENTS} deliveries each sent ${COPIES} times at once are handled once each`, () =>
  storm('duplicate storm', (delivery) => delivery));

it(`replays under new delivery ids: ${EVENTS} captured deliveries each resent under ${COPIES - 1} new ids are handled once each`, () =>
  // The same bytes and signature, only the unsigned X-Service-Delivery changed (issue 13 F1).
  storm('replays under new delivery ids', (d, n) =>
    n === 0 ? d : { body: d.body, headers: { ...d.headers, 'x-service-delivery': newDeliveryId() } },
  ));
