// The emulator on its own process for bench/emulator-load.bench.ts (so the load generator's event loop is
// not the emulator's, and --cpu-prof profiles the emulator alone): prints { url, adminKey } as one line.
import { pino } from 'pino';
import type { Plan } from '../src/api/plans.js';
import { createEmulator } from '../src/emulator/index.js';

const emulator = await createEmulator({
  plan: (process.env.PLAN ?? 'dev_pro') as Plan,
  seed: Number(process.env.SEED ?? 200),
  logger: pino({ level: 'silent' }),
});
const { url } = await emulator.listen(0);
process.stdout.write(`${JSON.stringify({ url, adminKey: emulator.adminKey })}\n`);
// Ends when the bench closes stdin; a profile (--cpu-prof) is written on a normal exit.
process.stdin.resume();
process.stdin.on('end', () => {
  void emulator.close().then(() => process.exit(0));
});
