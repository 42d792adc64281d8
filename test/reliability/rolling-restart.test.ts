import { afterEach, expect, it } from 'vitest';
import { signedDelivery, type SignedDelivery } from '../../src/testing/index.js';
import { SECRET } from '../receiver/harness.js';
import { tempDir } from '../store/temp-dir.js';
import { eventIdOf, report, settle } from './figures.js';
import { ReceiverProcess, stopAll } from './receiver-process.js';
import { send } from './send.js';

const dir = tempDir();
afterEach(async () => {
  await stopAll();
  dir.remove();
});

const TOTAL = 500;
/** After this many acks, a new process starts and then the oldest is stopped (SIGTERM: receiver.close()). */
const RESTART_AT = [120, 300];

it('a rolling restart under load, twice: every acked delivery is handled, none twice, no lease waited for', async () => {
  const dbPath = dir.path('inbox.db');
  const journal: string[] = [];
  const env = { HANDLER_MS: '40' };
  const deliveries = Array.from({ length: TOTAL }, () => signedDelivery({ secret: SECRET, event: 'message.received' }));
  const pending: SignedDelivery[] = [...deliveries];
  const acked = new Set<string>();
  // The instances a load balancer sends to. A stopping one stays here until it exits, as behind a load
  // balancer that has not yet seen its /readyz fail: it answers 503 and the sender tries another.
  let live = [await ReceiverProcess.start(dbPath, journal, env)];
  const stopMs: number[] = [];
  let refused = 0;
  let turn = 0;

  const deploys = (async () => {
    for (const at of RESTART_AT) {
      while (acked.size < at) await new Promise((r) => setTimeout(r, 20));
      const next = await ReceiverProcess.start(dbPath, journal, env);
      const [oldest] = live;
      live = [...live, next];
      const began = Date.now();
      await oldest!.stop('SIGTERM');
      stopMs.push(Date.now() - began);
      live = live.filter((p) => p !== oldest);
    }
  })();
  await Promise.all(
    Array.from({ length: 12 }, async () => {
      while (acked.size < TOTAL) {
        const delivery = pending.shift();
        if (!delivery) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        const status = await send(live[turn++ % live.length]!.url, delivery);
        if (status !== 200) {
          refused++;
          pending.push(delivery);
          continue;
        }
        acked.add(eventIdOf(delivery));
      }
    }),
  );
  await deploys;

  const f = await settle(acked, journal);
  report('rolling restart under load (2 restarts)', f, {
    'answers refused while stopping': refused,
    'ms from SIGTERM to exit': stopMs.join(' and '),
  });
  expect(f).toMatchObject({ acked: TOTAL, handled: TOTAL, lost: 0, runTwice: 0, rerunAfterKill: 0 });
  expect(stopMs).toHaveLength(RESTART_AT.length);
  // A graceful stop waits for its handlers (40 ms each), not for a lease (8 s) to run out: the ms from SIGTERM
  // to exit above say how long it took (a figure, not a check: a loaded machine lengthens it). What would be
  // wrong whatever the load, a delivery run twice or lost across the stops, is checked above.
  for (const p of live) await p.stop();
});
