// A 25,000-recipient campaign must not starve the emulator: while it sends, GET /v1/status is timed
// back to back from a worker thread (a client with its own event loop, as a real one would be), its
// p99 must stay under 50 ms, and the campaign must complete with stats that add up.
// Run: npm run bench:campaign (RECIPIENTS=25000 by default). Not a test: timings depend on the machine.
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { pino } from 'pino';
import { createEmulator } from '../src/emulator/index.js';
import { SEED_IDS } from '../src/emulator/seed.js';
import { stores } from '../src/emulator/state/stores.js';

const RECIPIENTS = Number(process.env.RECIPIENTS ?? 25_000);
const P99_TARGET_MS = 50;
/** Every 100th contact is opted out: skipped, never sent. */
const OPTED_OUT_EVERY = 100;

interface CampaignView {
  status: string;
  stats: { recipients: number; sent: number; delivered: number; failed: number; skipped: number };
}

const load = () => loadavg().map((n) => Number(n.toFixed(2)));
const loadBefore = load();
const emulator = await createEmulator({ seed: 0, logger: pino({ level: 'silent' }) });
const { url, close } = await emulator.listen(0);
const auth = { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' };

// The audience is set up directly in the store: the bench measures sending, not 25,000 inbound requests.
const now = emulator.clock.iso();
const ids = Array.from({ length: RECIPIENTS }, (_, i) => `ct_bench_${String(i).padStart(5, '0')}`);
stores(emulator.db).contacts.insertMany(
  ids.map((id, i) => ({
    id,
    name: `Bench ${i}`,
    email: null,
    // Ends in 4 or 5: never the sandbox's 0001-0003.
    phone: `+1312${String(5_000_000 + i * 10 + 4 + (i % 2)).padStart(7, '0')}`,
    lead_stage: 'new',
    score: 0,
    owner: null,
    identities: [],
    opted_out: i % OPTED_OUT_EVERY === 0,
    created_at: now,
    updated_at: now,
  })),
);
const optedOut = Math.ceil(RECIPIENTS / OPTED_OUT_EVERY);

const created = await fetch(`${url}/v1/campaigns`, {
  method: 'POST',
  headers: auth,
  body: JSON.stringify({
    name: 'Bench',
    template_id: SEED_IDS.templates.approved,
    audience: { contact_ids: ids },
    variables: { '1': 'B-1', '2': 'today' },
  }),
});
if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
const campaign = (await created.json()) as { id: string };

// The prober: plain JS in a worker, timing each GET /v1/status until told to stop, then posting the latencies.
const probe = new Worker(
  `const { parentPort, workerData } = require('node:worker_threads');
   const { performance } = require('node:perf_hooks');
   let sending = true;
   parentPort.on('message', () => { sending = false; });
   (async () => {
     const latencies = [];
     while (sending) {
       const start = performance.now();
       const res = await fetch(workerData.url + '/v1/status');
       await res.arrayBuffer();
       if (res.status !== 200) throw new Error('status answered ' + res.status);
       latencies.push(performance.now() - start);
     }
     parentPort.postMessage(latencies);
   })();`,
  { eval: true, workerData: { url } },
);
const latenciesPromise = new Promise<number[]>((resolve, reject) =>
  probe.once('message', resolve).once('error', reject),
);
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

async function view(): Promise<CampaignView> {
  const res = await fetch(`${url}/v1/campaigns/${campaign.id}`, { headers: auth });
  return (await res.json()) as CampaignView;
}

const started = performance.now();
const cpuStart = process.cpuUsage();
const sent = await fetch(`${url}/v1/campaigns/${campaign.id}/send`, { method: 'POST', headers: auth });
if (sent.status !== 201) throw new Error(`send answered ${sent.status}: ${await sent.text()}`);
let final: CampaignView;
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, 250));
  final = await view();
  if (final.status === 'sent') break;
}
const sentSeconds = (performance.now() - started) / 1000;
// Every accepted send still moves queued -> sent -> delivered on the emulator clock; wait for the last.
while (final.stats.delivered < final.stats.sent) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  final = await view();
}
const deliveredSeconds = (performance.now() - started) / 1000;
// CPU time (emulator plus prober) per recipient, which unlike wall time does not depend on what else the machine runs.
const cpu = process.cpuUsage(cpuStart);
loopDelay.disable();
probe.postMessage('stop');
const latencies = (await latenciesPromise).sort((a, b) => a - b);
await probe.terminate();

const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
const p99 = pct(99);
const { stats } = final;
const addsUp =
  stats.recipients === RECIPIENTS &&
  stats.skipped === optedOut &&
  stats.sent + stats.skipped + stats.failed === stats.recipients &&
  stats.delivered === stats.sent;
const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
console.log(
  JSON.stringify(
    {
      recipients: RECIPIENTS,
      campaign_sent_seconds: Number(sentSeconds.toFixed(2)),
      all_delivered_seconds: Number(deliveredSeconds.toFixed(2)),
      sends_per_second: Math.round((RECIPIENTS - optedOut) / sentSeconds),
      cpu_ms_per_recipient: Number(((cpu.user + cpu.system) / 1000 / RECIPIENTS).toFixed(3)),
      stats,
      stats_add_up: addsUp,
      status_requests: latencies.length,
      status_ms: { p50: +pct(50).toFixed(2), p99: +p99.toFixed(2), max: +latencies.at(-1)!.toFixed(2) },
      p99_under_target: p99 < P99_TARGET_MS,
      emulator_event_loop_delay_ms: { p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) },
      load_average_1_5_15: { before: loadBefore, after: load() },
    },
    null,
    2,
  ),
);
await close();
await emulator.close();
process.exit(p99 < P99_TARGET_MS && addsUp ? 0 : 1);
