import { pino } from 'pino';
import { createEmulator } from '../src/emulator/index.js';
import { analyticsSummary } from '../src/emulator/domain/analytics.js';
const emulator = await createEmulator({ plan: 'dev_pro', seed: 200, logger: pino({ level: 'silent' }) });
const ctx = { db: emulator.db, clock: { now: () => Date.now() } } as never;
const queries = [{}, { channel: 'phone' }, { from: '2020-01-01' }, { integration_id: 'x' }] as never[];
for (const q of queries) console.log(JSON.stringify(analyticsSummary(ctx, q)));
for (let r = 0; r < 3; r++) {
  const t = performance.now();
  for (let i = 0; i < 300; i++) analyticsSummary(ctx, {} as never);
  console.log('µs/summary', Math.round(((performance.now() - t) * 1000) / 300));
}
await emulator.close();
