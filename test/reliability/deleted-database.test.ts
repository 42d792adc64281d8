import { mkdirSync, rmSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { signedDelivery, type SignedDelivery } from '../../src/testing/index.js';
import { SECRET } from '../receiver/harness.js';
import { tempDir } from '../store/temp-dir.js';
import { eventIdOf, report, settle } from './figures.js';
import { ReceiverProcess, stopAll } from './receiver-process.js';
import { pool, send } from './send.js';

const dir = tempDir();
afterEach(async () => {
  await stopAll();
  dir.remove();
});

const TOTAL = 400;
const REMOVE_AT = 150;

it('the database directory removed under load: nothing is acked after it, nothing acked is lost', async () => {
  mkdirSync(dir.path('data'));
  const dbPath = dir.path('data/inbox.db');
  const journal: string[] = [];
  const env = { HANDLER_MS: '20' };
  const deliveries = Array.from({ length: TOTAL }, () => signedDelivery({ secret: SECRET, event: 'message.received' }));
  const acked = new Set<string>();
  const refused: SignedDelivery[] = [];
  let removed = false;
  let ackedAfterRemoval = 0;

  // Each delivery sent once, 16 at once; the directory goes away part way.
  const first = await ReceiverProcess.start(dbPath, journal, env);
  await pool(deliveries, 16, async (delivery) => {
    const sentAfterRemoval = removed;
    if ((await send(first.url, delivery)) !== 200) return void refused.push(delivery);
    acked.add(eventIdOf(delivery));
    if (sentAfterRemoval) ackedAfterRemoval++;
    if (!removed && acked.size >= REMOVE_AT) {
      removed = true;
      rmSync(dir.path('data'), { recursive: true });
    }
  });
  // What was acked lives on in the open (removed) file: this process still runs it.
  const beforeRestart = await settle(acked, journal);
  await first.stop();

  // The operator restores the directory and restarts; the service's retries of the refused ones land.
  mkdirSync(dir.path('data'));
  const second = await ReceiverProcess.start(dbPath, journal, env);
  for (const delivery of refused) {
    while ((await send(second.url, delivery)) !== 200) await new Promise((r) => setTimeout(r, 50));
    acked.add(eventIdOf(delivery));
  }
  const f = await settle(acked, journal);
  report('deleted database', f, {
    'refused (503) while gone': refused.length,
    'acked after the removal': ackedAfterRemoval,
  });
  await second.stop();
  expect(beforeRestart.lost).toBe(0);
  expect(ackedAfterRemoval).toBe(0);
  expect(refused.length).toBeGreaterThan(0);
  expect(f.acked).toBe(TOTAL);
  expect(f.lost).toBe(0);
  expect(f.runTwice).toBe(0);
});
