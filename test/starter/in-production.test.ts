import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../../src/cli/create-starter/templates-catalog.js';
import { createEmulator, emulatorPost, type Emulator } from '../../src/emulator/index.js';
import { METRICS } from '../../src/telemetry/metric-names.js';
import { sampleEvent, signedDelivery } from '../../src/testing/index.js';
import { parsePrometheusText, type Sample } from '../support/prometheus-text.js';
import { freePort, REPO_ROOT, until } from '../support/run-command.js';

// The receiver starters run as `npm start` runs them (tsx, src/main.ts), from this checkout, against the
// real emulator; the OpenTelemetry packages are the root's devDependencies, as a starter's own install has them.
const START_TIMEOUT_MS = 60_000;
/** A test of one started app: its start (tsx compiles the app, 5-15 s at a load of 20) and what it does. */
const APP_TEST_TIMEOUT_MS = 120_000;
const REPORT_IMPORTS = join(REPO_ROOT, 'test', 'starter', 'fixtures', 'report-otel-imports.mjs');

interface StarterPackage {
  'convo-kit': { webhookPath?: string; events: string[] };
}
const starterPackage = (name: string) =>
  JSON.parse(readFileSync(join(REPO_ROOT, 'templates', name, 'package.json'), 'utf8')) as StarterPackage;
/** Every starter with a webhook receiver, from the catalog: a new one is covered with no edit here. */
const RECEIVER_STARTERS = TEMPLATES.map((t) => t.name).filter((name) => starterPackage(name)['convo-kit'].webhookPath);

let emulator: Emulator;
let emulatorUrl: string;
let closeEmulator: () => Promise<void>;
let post: ReturnType<typeof emulatorPost>;
let dir: string;
const cleanups: (() => Promise<unknown> | void)[] = [];

beforeAll(async () => {
  emulator = await createEmulator({});
  const server = await emulator.listen(0);
  emulatorUrl = server.url;
  closeEmulator = () => server.close();
  post = emulatorPost(server.url, emulator.adminKey);
  dir = mkdtempSync(join(tmpdir(), 'starter-in-production-'));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await closeEmulator();
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

interface RunningApp {
  /** e.g. http://127.0.0.1:3100, from the app's Health line. */
  url: string;
  output(): string;
  /** Sends SIGTERM and answers the exit code once the process is gone. */
  stop(): Promise<number | null>;
}

/** The starter's `src/main.ts` in a process of its own, with `env`; resolves once it printed its Health line. */
async function startApp(name: string, env: NodeJS.ProcessEnv): Promise<RunningApp> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', REPORT_IMPORTS, join(REPO_ROOT, 'templates', name, 'src', 'main.ts')],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NO_COLOR: '1',
        OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
        OTEL_METRICS_EXPORTER: undefined,
        CONVO_KIT_DEV_WEBHOOK_URL: undefined,
        CONVO_KIT_BASE_URL: emulatorUrl,
        CONVO_KIT_API_KEY: emulator.adminKey,
        CONVO_KIT_WEBHOOK_SECRET: `whsec_${'a'.repeat(32)}`,
        PORT: '0',
        DELIVERIES_DB_PATH: join(dir, `${name}-${cleanups.length}-deliveries.db`),
        CRM_DB_PATH: join(dir, `${name}-${cleanups.length}-crm.db`),
        ROUTING_RULES: join(REPO_ROOT, 'templates', 'ticket-routing', 'routing-rules.json'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  cleanups.push(stop);
  const url = await Promise.race([
    until(
      async () => /^Health: +(http:\/\/\S+)\/healthz/m.exec(output)?.[1],
      () => `${name}'s Health line:\n${output}`,
      START_TIMEOUT_MS,
    ),
    exited.then((code) => Promise.reject(new Error(`${name} exited (${code}) before starting:\n${output}`))),
  ]);
  return { url, output: () => output, stop };
}

/** GET `url`, answered with its status and text. */
async function get(url: string): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
}

async function scrape(app: RunningApp): Promise<Sample[]> {
  const answer = await get(`${app.url}/metrics`);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.type).toMatch(/^text\/plain/);
  return parsePrometheusText(answer.text);
}

/** The sum of the samples named `name` whose labels include `labels`. */
const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

/** The OpenTelemetry packages the app's ES modules imported, as the fixture hook reported them. */
const otelImports = (output: string) => [...output.matchAll(/^otel-import: (\S+)$/gm)].map((m) => m[1]);

/** Prometheus's names for one instrument of the kit's table, as @opentelemetry/exporter-prometheus writes them. */
function prometheusNames(metric: (typeof METRICS)[keyof typeof METRICS], kind: 'counter' | 'gauge' | 'histogram') {
  const base = metric.name.replaceAll('.', '_');
  if (kind === 'counter') return [`${base}_total`];
  if (kind === 'histogram') return [`${base}_bucket`, `${base}_sum`, `${base}_count`];
  return [base];
}
const KINDS: Record<keyof typeof METRICS, 'counter' | 'gauge' | 'histogram'> = {
  receiverDeliveries: 'counter',
  handlerRuns: 'counter',
  handlerDuration: 'histogram',
  backlog: 'gauge',
  oldestPendingAge: 'gauge',
  dead: 'gauge',
  leaseRecoveries: 'counter',
  clientRequests: 'counter',
  clientRetries: 'counter',
  clientDuration: 'histogram',
  emulatorWebhookDeliveries: 'counter',
};

describe.each(RECEIVER_STARTERS)('the %s starter in production', (name) => {
  it(
    'with no OTEL_* variable set: /healthz and /readyz answer, no /metrics, no OpenTelemetry package loaded, SIGTERM closes it',
    async () => {
      const app = await startApp(name, {});
      const live = await get(`${app.url}/healthz`);
      expect(live.status).toBe(200);
      expect(JSON.parse(live.text)).toMatchObject({ status: 'ok', store: { ok: true }, worker: { running: true } });
      expect((await get(`${app.url}/readyz`)).status).toBe(200);
      expect((await get(`${app.url}/metrics`)).status).toBe(404);
      expect(app.output()).not.toContain('/metrics');
      expect(otelImports(app.output())).toEqual([]);
      expect(await app.stop()).toBe(0);
    },
    APP_TEST_TIMEOUT_MS,
  );

  it(
    'with OTEL_METRICS_EXPORTER=prometheus: /metrics on its own port parses as Prometheus text, with the receiver’s numbers',
    async () => {
      const app = await startApp(name, { OTEL_METRICS_EXPORTER: 'prometheus' });
      expect(app.output()).toMatch(/; metrics http:\/\/\S+\/metrics/);
      // A delivery signed with another secret: refused, and counted with its reason.
      const forged = signedDelivery({ secret: `whsec_${'b'.repeat(32)}`, event: 'ticket.created' });
      const webhookUrl = `${app.url}${starterPackage(name)['convo-kit'].webhookPath}`;
      const refused = await fetch(webhookUrl, { method: 'POST', headers: forged.headers, body: forged.body });
      expect(refused.status).toBe(401);
      const samples = await scrape(app);
      expect(
        total(samples, 'convo_kit_receiver_deliveries_total', { outcome: 'refused', reason: 'SIGNATURE_MISMATCH' }),
      ).toBe(1);
      for (const status of ['pending', 'retrying', 'processing'])
        expect(samples.some((s) => s.name === 'convo_kit_receiver_backlog' && s.labels.status === status)).toBe(true);
      expect(samples.some((s) => s.name === 'convo_kit_receiver_dead')).toBe(true);
      expect(samples.some((s) => s.name === 'convo_kit_receiver_oldest_pending_age')).toBe(true);
      // The SDK carries the starter's name, unless OTEL_SERVICE_NAME says otherwise.
      expect(samples.find((s) => s.name === 'target_info')?.labels.service_name).toBe(name);
      // Metrics only: the trace SDK and exporter are not loaded when no OTLP endpoint is set.
      expect(otelImports(app.output())).toEqual(
        expect.arrayContaining(['@opentelemetry/sdk-metrics', '@opentelemetry/exporter-prometheus']),
      );
      expect(otelImports(app.output()).filter((p) => /trace/.test(p!))).toEqual([]);
      expect(await app.stop()).toBe(0);
    },
    APP_TEST_TIMEOUT_MS,
  );

  it(
    'refuses an OTEL_METRICS_EXPORTER it does not serve, in one line naming the choices',
    async () => {
      const app = startApp(name, { OTEL_METRICS_EXPORTER: 'otlp' });
      await expect(app).rejects.toThrow(
        /exited \(1\)[\s\S]*OTEL_METRICS_EXPORTER: must be one of prometheus, none .*got "otlp"/,
      );
    },
    APP_TEST_TIMEOUT_MS,
  );

  it('registers the SDK with the kit’s startTelemetry (convo-kit/telemetry), and has no telemetry code of its own', () => {
    const main = readFileSync(join(REPO_ROOT, 'templates', name, 'src', 'main.ts'), 'utf8');
    expect(main).toMatch(/^import \{ startTelemetry \} from 'convo-kit\/telemetry';$/m);
    expect(main).toContain(`startTelemetry('${name}')`);
    expect(existsSync(join(REPO_ROOT, 'templates', name, 'src', 'telemetry.ts'))).toBe(false);
  });

  it('its README gives a query for each receiver and client number, by the Prometheus names the kit emits', () => {
    const readme = readFileSync(join(REPO_ROOT, 'templates', name, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## In production'));
    expect(section).toContain('scrape_configs:');
    const queried = new Set([...section.matchAll(/`[^`\n]*`/g)].flatMap((m) => m[0].match(/convo_kit_\w+/g) ?? []));
    const known = new Map(
      Object.entries(METRICS).flatMap(([key, metric]) =>
        prometheusNames(metric, KINDS[key as keyof typeof METRICS]).map((n) => [n, key] as const),
      ),
    );
    // Every name a query uses is one the kit emits…
    expect([...queried].filter((n) => !known.has(n))).toEqual([]);
    // …and every receiver and client instrument has its query (the emulator's own is not the app's).
    const covered = new Set([...queried].map((n) => known.get(n)));
    const expected = Object.entries(METRICS)
      .filter(([, m]) => /^convo_kit\.(receiver|client)\./.test(m.name))
      .map(([key]) => key);
    expect(expected.filter((key) => !covered.has(key))).toEqual([]);
  });
});

/** The route crm-sync's replies (and so its auto-reply) are sent by, as a url.template. */
const SEND_TEMPLATE = '/v1/conversations/{id}/messages';

/** An OTLP/HTTP collector of the simplest kind: keeps each JSON body POSTed to /v1/traces. */
async function otlpSink(): Promise<{ url: string; spans: () => OtlpSpan[]; close: () => Promise<void> }> {
  const bodies: OtlpTraces[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpTraces);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () =>
      bodies.flatMap((b) =>
        b.resourceSpans.flatMap((r) =>
          r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ ...span, resource: r.resource }))),
        ),
      ),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: number | string; boolValue?: boolean };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  name: string;
  attributes: OtlpAttribute[];
  resource?: { attributes: OtlpAttribute[] };
}
interface OtlpTraces {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}
const attribute = (attributes: OtlpAttribute[] | undefined, key: string) =>
  attributes?.find((a) => a.key === key)?.value.stringValue;

describe('crm-sync under real deliveries from the emulator, with duplicates, a forgery and a dead letter', () => {
  it(
    'adds up on /metrics, answers /healthz and /readyz, and sends each delivery’s receive span to the OTLP endpoint',
    async () => {
      const sink = await otlpSink();
      cleanups.push(sink.close);
      // The webhook names the app's port before the app starts: its secret is the app's setting.
      const port = await freePort();
      const webhook = await post<{ id: string; secret: string }>('/v1/webhooks', {
        url: `http://127.0.0.1:${port}/webhooks`,
        events: starterPackage('crm-sync')['convo-kit'].events,
      });
      cleanups.push(() => post('/_emulator/chaos/clear', {}));
      await post('/_emulator/chaos', { endpoint_id: webhook.id, duplicate_rate: 1 });
      const app = await startApp('crm-sync', {
        PORT: String(port),
        CONVO_KIT_WEBHOOK_SECRET: webhook.secret,
        CRM_AUTO_REPLY: 'Thanks for writing in!',
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      });
      const webhookUrl = `${app.url}/webhooks`;

      // Two customers write in: each is a contact, a conversation and a message, and the auto-reply a send.
      for (const [handle, content] of [
        ['+447700900111', 'Is my order shipped?'],
        ['+447700900222', 'Do you ship to Canada?'],
      ])
        await post('/_emulator/inbound', { channel: 'phone', from: { handle, name: `Customer ${handle}` }, content });
      const forged = signedDelivery({ secret: `whsec_${'b'.repeat(32)}`, event: 'contact.updated' });
      expect((await fetch(webhookUrl, { method: 'POST', headers: forged.headers, body: forged.body })).status).toBe(
        401,
      );
      // Well signed, but its data fails the event's schema: acked, then dead at its first run.
      const broken = signedDelivery({
        secret: webhook.secret,
        envelope: { ...sampleEvent('contact.updated'), data: { id: 7 } },
      });
      expect((await fetch(webhookUrl, { method: 'POST', headers: broken.headers, body: broken.body })).status).toBe(
        200,
      );

      // Settled: the emulator has nothing left to deliver, every acked delivery has run, and nothing waits.
      let samples: Sample[] = [];
      await until(
        async () => {
          await emulator.dispatcher.idle();
          samples = await scrape(app);
          const runs = ['done', 'dead'].reduce(
            (sum, outcome) => sum + total(samples, 'convo_kit_receiver_handler_runs_total', { outcome }),
            0,
          );
          return (
            runs === total(samples, 'convo_kit_receiver_deliveries_total', { outcome: 'acked' }) &&
            total(samples, 'convo_kit_receiver_backlog') === 0 &&
            total(samples, 'convo_kit_receiver_dead') === 1
          );
        },
        () => `the app to settle; last scrape:\n${samples.map((s) => JSON.stringify(s)).join('\n')}\n${app.output()}`,
        START_TIMEOUT_MS,
      );

      // What the emulator delivered (its own record), what its chaos doubled, against what the app counted.
      const attempts = (await (
        await fetch(`${emulatorUrl}/v1/webhooks/${webhook.id}/deliveries?limit=100`, {
          headers: { authorization: `Bearer ${emulator.adminKey}` },
        })
      ).json()) as { data: { delivery_id: string; status_code: number | null }[] };
      const delivered = new Set(attempts.data.filter((a) => a.status_code === 200).map((a) => a.delivery_id));
      expect(delivered.size).toBeGreaterThanOrEqual(6);
      const { stats } = await post<{ stats: { duplicates_sent: number } }>('/_emulator/chaos/clear', {});
      const count = (name: string, labels: Record<string, string> = {}) => total(samples, name, labels);
      expect(count('convo_kit_receiver_deliveries_total', { outcome: 'acked' })).toBe(delivered.size + 1);
      expect(count('convo_kit_receiver_deliveries_total', { outcome: 'duplicate' })).toBe(stats.duplicates_sent);
      expect(stats.duplicates_sent).toBe(delivered.size);
      expect(count('convo_kit_receiver_deliveries_total', { outcome: 'refused', reason: 'SIGNATURE_MISMATCH' })).toBe(
        1,
      );
      expect(count('convo_kit_receiver_handler_runs_total', { outcome: 'done' })).toBe(delivered.size);
      expect(count('convo_kit_receiver_handler_runs_total', { outcome: 'dead', event: 'contact.updated' })).toBe(1);
      expect(count('convo_kit_receiver_handler_runs_total', { outcome: 'failed' })).toBe(0);
      expect(count('convo_kit_receiver_handler_duration_count')).toBe(count('convo_kit_receiver_handler_runs_total'));
      expect(count('convo_kit_receiver_oldest_pending_age')).toBe(0);
      expect(count('convo_kit_receiver_lease_recoveries_total')).toBe(0);
      // The auto-replies went out through the client: one send each, answered 2xx.
      const sends = samples.filter(
        (s) => s.name === 'convo_kit_client_requests_total' && s.labels.url_template === SEND_TEMPLATE,
      );
      expect(sends.reduce((sum, s) => sum + s.value, 0)).toBe(2);
      expect(sends.every((s) => /^2\d\d$/.test(s.labels.http_response_status_code ?? ''))).toBe(true);

      const health = await get(`${app.url}/healthz`);
      expect(health.status).toBe(200);
      // The dead letter makes it degraded (any dead letter, by default), not unready.
      expect(JSON.parse(health.text)).toMatchObject({ status: 'degraded', dead: 1, store: { ok: true } });
      expect((await get(`${app.url}/readyz`)).status).toBe(200);

      // SIGTERM: a graceful close, which sends the spans still buffered before the process ends.
      expect(await app.stop()).toBe(0);
      const spans = sink.spans();
      const receives = spans.filter((s) => s.name.startsWith('receive'));
      const received = new Set(receives.map((s) => attribute(s.attributes, 'messaging.message.id')));
      expect([...delivered, broken.deliveryId].filter((id) => !received.has(id))).toEqual([]);
      const brokenSpan = receives.find((s) => attribute(s.attributes, 'messaging.message.id') === broken.deliveryId);
      expect(brokenSpan?.name).toBe('receive contact.updated');
      expect(attribute(brokenSpan?.resource?.attributes, 'service.name')).toBe('crm-sync');
      // A send and the delivery that caused it are one trace.
      const sendSpans = spans.filter((s) => s.name === `POST ${SEND_TEMPLATE}`);
      expect(sendSpans).toHaveLength(2);
      for (const send of sendSpans)
        expect(receives.find((s) => s.traceId === send.traceId)?.name).toBe('receive conversation.created');
    },
    APP_TEST_TIMEOUT_MS,
  );
});
