// A 25,000-recipient campaign must not starve the emulator: while it sends, GET /v1/status is timed
// back to back, and its p99 must stay under 50 ms, and the campaign must complete.
// Run: npx tsx bench/campaign.bench.ts (RECIPIENTS=25000 by default). Not a test: timings depend on the machine.
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { createEmulator } from '../src/emulator/index.js';
import { SEED_IDS } from '../src/emulator/seed.js';
import { stores } from '../src/emulator/state/stores.js';

const RECIPIENTS = Number(process.env.RECIPIENTS ?? 25_000);
const P99_TARGET_MS = 50;

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
    opted_out: i % 100 === 0,
    created_at: now,
    updated_at: now,
  })),
);

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

const latencies: number[] = [];
let sending = true;
const probe = (async () => {
  while (sending) {
    const start = performance.now();
    const res = await fetch(`${url}/v1/status`);
    await res.arrayBuffer();
    latencies.push(performance.now() - start);
  }
})();

const started = performance.now();
const sent = await fetch(`${url}/v1/campaigns/${campaign.id}/send`, { method: 'POST', headers: auth });
if (sent.status !== 201) throw new Error(`send answered ${sent.status}: ${await sent.text()}`);
let final: { status: string; stats: Record<string, number> };
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, 250));
  const res = await fetch(`${url}/v1/campaigns/${campaign.id}`, { headers: auth });
  final = (await res.json()) as typeof final;
  if (final.status === 'sent') break;
}
const seconds = (performance.now() - started) / 1000;
sending = false;
await probe;

latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
const p99 = pct(99);
console.log(
  JSON.stringify(
    {
      recipients: RECIPIENTS,
      campaign_seconds: Number(seconds.toFixed(2)),
      sends_per_second: Math.round(RECIPIENTS / seconds),
      stats: final.stats,
      status_requests: latencies.length,
      status_ms: { p50: +pct(50).toFixed(2), p99: +p99.toFixed(2), max: +latencies.at(-1)!.toFixed(2) },
      p99_under_target: p99 < P99_TARGET_MS,
    },
    null,
    2,
  ),
);
await close();
await emulator.close();
process.exit(p99 < P99_TARGET_MS && final.status === 'sent' ? 0 : 1);
