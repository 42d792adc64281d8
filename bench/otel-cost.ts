import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ROUNDS } from './bench-config.js';

const ACK = fileURLToPath(new URL('./otel-ack.ts', import.meta.url));
const HIDE = fileURLToPath(new URL('./hide-otel-api.ts', import.meta.url));
const MODES = ['absent', 'api', 'sdk'] as const;
const LABEL = {
  absent: '@opentelemetry/api not installed',
  api: 'api installed, no SDK',
  sdk: 'SDK registered (batch spans, a metric reader)',
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The `otel` part: what telemetry adds to the receiver's ack path, each mode in a process of its own
 * (the SDK is global), modes alternating round after round, medians shown.
 */
export async function otelCosts(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'convo-kit-otel-'));
  const samples = new Map<string, { cpuUs: number; wallUs: number }[]>(MODES.map((m) => [m, []]));
  try {
    for (let round = 0; round < Math.max(3, ROUNDS); round++)
      for (const mode of MODES) {
        const args = [...(mode === 'absent' ? ['--import', HIDE] : []), ACK, join(dir, `${mode}-${round}.db`), mode];
        const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', ...args], {
          timeout: 300_000,
        });
        samples.get(mode)!.push(JSON.parse(stdout) as { cpuUs: number; wallUs: number });
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const base = median(samples.get('absent')!.map((s) => s.cpuUs));
  console.log(
    `telemetry on the ack path (receiver.handle, SQLite normal, ${process.env.BENCH_OTEL_ACKS ?? 3000} acks a run):`,
  );
  console.table(
    MODES.map((mode) => {
      const cpu = median(samples.get(mode)!.map((s) => s.cpuUs));
      return {
        mode: LABEL[mode],
        'CPU µs/ack': Math.round(cpu),
        'wall µs/ack': Math.round(median(samples.get(mode)!.map((s) => s.wallUs))),
        'CPU vs not installed': `${((cpu / base - 1) * 100).toFixed(1)}%`,
        'each run (CPU µs/ack)': samples
          .get(mode)!
          .map((s) => Math.round(s.cpuUs))
          .join(' '),
      };
    }),
  );
}
