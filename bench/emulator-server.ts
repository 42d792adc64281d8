// The emulator on its own process for the emulator benches (so the load generator's event loop is not the
// emulator's, and --cpu-prof profiles the emulator alone): prints { url, adminKey } as one line. With
// FROM_DIST=1 it runs the build in dist/ (npm run build), as `convo-kit emulator` does, so that its parse
// processes load JavaScript and not TypeScript through tsx, which costs each process memory of its own.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import type { Plan } from '../src/api/plans.js';
import type * as Emulator from '../src/emulator/index.js';

const { createEmulator } = (await import(
  process.env.FROM_DIST ? '../dist/emulator/index.js' : '../src/emulator/index.js'
)) as typeof Emulator;

const emulator = await createEmulator({
  plan: (process.env.PLAN ?? 'dev_pro') as Plan,
  seed: Number(process.env.SEED ?? 200),
  logger: pino({ level: 'silent' }),
});
const { url } = await emulator.listen(0);
process.stdout.write(`${JSON.stringify({ url, adminKey: emulator.adminKey })}\n`);
// Ends when the bench closes stdin; a profile (--cpu-prof) is written on a normal exit.
if (process.env.MEMORY_ON_SIGUSR2) {
  // What the process's own heap and buffers hold, as against its RSS (bench/knowledge-upload-memory.bench.ts).
  process.on('SIGUSR2', () => {
    const mib = Object.entries(process.memoryUsage()).map(([k, v]) => [k, Math.round(v / 1024 / 1024)]);
    process.stderr.write(`memory MiB ${JSON.stringify(Object.fromEntries(mib))}\n`);
  });
}
// With EVENT_LOOP_DELAY=1: how long the event loop was blocked (a line `reset` on stdin starts the count again),
// printed as one more line at the end, so a bench can tell stalls in the emulator from waiting in a queue.
const loopDelay = process.env.EVENT_LOOP_DELAY ? monitorEventLoopDelay({ resolution: 10 }) : undefined;
loopDelay?.enable();
process.stdin.on('data', (chunk: Buffer) => {
  if (chunk.toString().includes('reset')) loopDelay?.reset();
});
process.stdin.on('end', () => {
  if (loopDelay) {
    loopDelay.disable();
    const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
    const delay = { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) };
    process.stdout.write(`${JSON.stringify({ event_loop_delay_ms: delay })}\n`);
  }
  void emulator.close().then(() => process.exit(0));
});
