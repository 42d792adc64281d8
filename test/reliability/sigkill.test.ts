import { afterEach, expect, it } from 'vitest';
import { signedDelivery, type SignedDelivery } from '../../src/testing/index.js';
import { SECRET } from '../receiver/harness.js';
import { tempDir } from '../store/temp-dir.js';
import { cutByKill, eventIdOf, report, settle } from './figures.js';
import { ReceiverProcess, stopAll } from './receiver-process.js';
import { send } from './send.js';

const dir = tempDir();
afterEach(async () => {
  await stopAll();
  dir.remove();
});

const TOTAL = 900;
const KILL_AT = [150, 400, 650];

it('SIGKILL under load, three times: every acked delivery is handled, none after it was done', async () => {
  const dbPath = dir.path('inbox.db');
  const journal: string[] = [];
  const env = { HANDLER_MS: '30', LEASE_MS: '1000' };
  const deliveries = Array.from({ length: TOTAL }, () => signedDelivery({ secret: SECRET, event: 'message.received' }));
  const pending: SignedDelivery[] = [...deliveries];
  const acked = new Set<string>();
  const kills = [...KILL_AT];
  let current = ReceiverProcess.start(dbPath, journal, env);
  let refused = 0;

  // 24 senders, each retrying what was not acked, as the service does: a killed process refuses the
  // connection until the next one listens on a new port.
  await Promise.all(
    Array.from({ length: 24 }, async () => {
      while (acked.size < TOTAL) {
        const delivery = pending.shift();
        if (!delivery) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        const receiver = await current;
        const status = await send(receiver.url, delivery);
        if (status !== 200) {
          refused++;
          pending.push(delivery);
          continue;
        }
        acked.add(eventIdOf(delivery));
        if (kills.length > 0 && acked.size >= kills[0]!) {
          kills.shift();
          current = receiver.stop('SIGKILL').then(() => ReceiverProcess.start(dbPath, journal, env));
        }
      }
    }),
  );

  const f = await settle(acked, journal);
  report('SIGKILL under load (3 kills)', f, {
    'handlers cut by a kill': cutByKill(journal),
    'answers refused or cut by a kill': refused,
  });
  await (await current).stop();
  expect(f.acked).toBe(TOTAL);
  expect(f.lost).toBe(0);
  expect(f.runTwice).toBe(0);
});
