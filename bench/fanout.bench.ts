// `npm run bench:fanout`: the emulator's webhook fan-out, as signed deliveries per second from its dispatcher
// (8 in flight, at most 2 per endpoint: src/emulator/dispatch/dispatcher.ts) to 1, 10 and 100 registered
// endpoints of a local receiver that verifies every signature (bench/fanout-receiver.ts, its own process).
// Each round emits enough events for DELIVERIES deliveries and times them from the first emit until the
// dispatcher is idle and the receiver verified every one; the median of ROUNDS rounds is kept. Target:
// 1,000 deliveries/s. Not a test: the figures depend on the machine and on what else it runs (load printed).
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createEmulator } from '../src/emulator/index.js';
import { sampleEvent } from '../src/events/index.js';

/** ENDPOINTS=100 (or 1,10) runs only those; DELIVERIES=100 BENCH_ROUNDS=1 is a short check that it runs. */
const ENDPOINT_COUNTS = (process.env.ENDPOINTS ?? '1,10,100').split(',').map(Number);
const DELIVERIES = Number(process.env.DELIVERIES ?? 6_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_PER_SECOND = 1_000;
const EVENT = 'message.received';

const load = () => loadavg().map((n) => Number(n.toFixed(2)));

/** Sends `message` to the receiver and resolves with its first answer that `accept` takes. */
function ask<T>(child: ChildProcess, message: unknown, accept: (answer: unknown) => answer is T): Promise<T> {
  return new Promise((resolve) => {
    const listener = (answer: unknown) => {
      if (!accept(answer)) return;
      child.off('message', listener);
      resolve(answer);
    };
    child.on('message', listener);
    if (message !== undefined) child.send(message as string);
  });
}
const isCounts = (a: unknown): a is { verified: number; refused: number } =>
  typeof a === 'object' && a !== null && 'verified' in a;

const receiver = fork(fileURLToPath(new URL('./fanout-receiver.ts', import.meta.url)), [], {
  execArgv: ['--import', 'tsx'],
});
const { port } = await ask(
  receiver,
  undefined,
  (a): a is { port: number } => typeof a === 'object' && a !== null && 'port' in a,
);

// 100 endpoints is past every plan's webhook quota but enterprise's (docs/keys-and-limits.md), which leaves the
// emulator's own bound of 100 a workspace.
const emulator = await createEmulator({ seed: 0, plan: 'enterprise', logger: pino({ level: 'silent' }) });
const { url, close } = await emulator.listen(0);
const auth = { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' };
const data = sampleEvent(EVENT).data;

/** Registers `count` endpoints over the API (loopback URLs are the emulator's allowance). */
async function register(count: number): Promise<{ ids: string[]; secrets: string[] }> {
  const ids: string[] = [];
  const secrets: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/v1/webhooks`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook/${i}`, events: [EVENT] }),
    });
    if (res.status !== 201) throw new Error(`POST /v1/webhooks answered ${res.status}: ${await res.text()}`);
    const created = (await res.json()) as { id: string; secret: string };
    ids.push(created.id);
    secrets.push(created.secret);
  }
  return { ids, secrets };
}

async function unregister(ids: string[]): Promise<void> {
  for (const id of ids) await fetch(`${url}/v1/webhooks/${id}`, { method: 'DELETE', headers: auth });
}

interface Round {
  perSecond: number;
  cpuMicrosPerDelivery: number;
  deliveries: number;
  refused: number;
}

/** One round: the receiver gets the secrets (which zeroes its counts), then `events` emits are timed until all are verified. */
async function round(secrets: string[], events: number): Promise<Round> {
  await ask(receiver, { secrets }, (a): a is 'ready' => a === 'ready');
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < events; i++) emulator.dispatcher.emit(EVENT, data);
  await emulator.dispatcher.idle();
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const counts = await ask(receiver, 'stats', isCounts);
  const deliveries = events * secrets.length;
  if (counts.verified !== deliveries)
    throw new Error(`expected ${deliveries} verified deliveries, the receiver counted ${JSON.stringify(counts)}`);
  return {
    perSecond: Math.round(deliveries / seconds),
    cpuMicrosPerDelivery: Math.round((used.user + used.system) / deliveries),
    deliveries,
    refused: counts.refused,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results = [];
for (const endpoints of ENDPOINT_COUNTS) {
  const loadBefore = load();
  const { ids, secrets } = await register(endpoints);
  const events = Math.ceil(DELIVERIES / endpoints);
  await round(secrets, Math.min(events, 50)); // warm-up: JIT, first connections
  const rounds: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(secrets, events));
  await unregister(ids);
  const perSecond = median(rounds.map((r) => r.perSecond));
  results.push({
    endpoints,
    events_per_round: events,
    deliveries_per_round: rounds[0]!.deliveries,
    deliveries_per_second: { median: perSecond, rounds: rounds.map((r) => r.perSecond) },
    emulator_cpu_us_per_delivery: median(rounds.map((r) => r.cpuMicrosPerDelivery)),
    meets_target: perSecond >= TARGET_PER_SECOND,
    load_average_1_5_15: { before: loadBefore, after: load() },
  });
}
console.log(JSON.stringify({ target_per_second: TARGET_PER_SECOND, results }, null, 2));
await close();
await emulator.close();
receiver.kill();
process.exit(results.every((r) => r.meets_target) ? 0 : 1);
