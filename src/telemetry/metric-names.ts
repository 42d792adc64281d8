/**
 * Every instrument of the `convo_kit` meter, with its unit. Prometheus (`@opentelemetry/exporter-prometheus`)
 * shows a name with `_` for `.` and `_total` after a counter (the unit goes in a `# UNIT` line, not the
 * name): `convo_kit.receiver.deliveries` is `convo_kit_receiver_deliveries_total` (docs/operations.md).
 */
export const METRICS = {
  receiverDeliveries: {
    name: 'convo_kit.receiver.deliveries',
    unit: '{delivery}',
    description: "Deliveries answered, by `outcome` (acked, duplicate, refused) and `reason` (the refusal's code).",
  },
  handlerRuns: {
    name: 'convo_kit.receiver.handler.runs',
    unit: '{run}',
    description: 'Handler runs (attempts), by `outcome` (done, failed, dead, lost, released) and `event`.',
  },
  handlerDuration: {
    name: 'convo_kit.receiver.handler.duration',
    unit: 's',
    description: "How long one attempt's handlers took, by `outcome` and `event`.",
  },
  backlog: {
    name: 'convo_kit.receiver.backlog',
    unit: '{delivery}',
    description: 'Rows waiting, by `status` (pending, retrying, processing).',
  },
  oldestPendingAge: {
    name: 'convo_kit.receiver.oldest_pending_age',
    unit: 's',
    description: 'Age of the oldest delivery not yet done or dead.',
  },
  dead: {
    name: 'convo_kit.receiver.dead',
    unit: '{delivery}',
    description: 'Dead rows in the store (replay or prune them).',
  },
  leaseRecoveries: {
    name: 'convo_kit.receiver.lease_recoveries',
    unit: '{delivery}',
    description: 'Rows taken over from a worker whose lease lapsed (a process died, or a handler overran its lease).',
  },
  clientRequests: {
    name: 'convo_kit.client.requests',
    unit: '{request}',
    description: 'Client calls, by `url.template`, `http.request.method`, `http.response.status_code` or `error.type`.',
  },
  clientRetries: {
    name: 'convo_kit.client.retries',
    unit: '{request}',
    description: "Client attempts past each call's first, by `url.template`.",
  },
  clientDuration: {
    name: 'convo_kit.client.duration',
    unit: 's',
    description: "A client call's whole time, retries and waits included, by `url.template` and `http.request.method`.",
  },
  emulatorWebhookDeliveries: {
    name: 'convo_kit.emulator.webhook_deliveries',
    unit: '{attempt}',
    description: "The emulator's webhook delivery attempts, by `endpoint` (the webhook id) and `outcome`.",
  },
} as const;

export type MetricSpec = (typeof METRICS)[keyof typeof METRICS];

/** An instrument's options from its line of the table. */
export const instrumentOptions = (m: MetricSpec) => ({ unit: m.unit, description: m.description });

/** Seconds: finer at the bottom, where an ack and a quick handler are; a handler may run for 30 s by default. */
export const DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
