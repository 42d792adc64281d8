import type { LookupFunction } from 'node:net';
import { assertInstalled } from '../internal/optional-package.js';
import { prefixedId } from '../internal/prefixed-id.js';
import { createServer, type Server } from 'node:http';
import { closeServer, listenServer } from '../internal/listen-server.js';
import type { Express } from 'express';
import type Database from 'better-sqlite3';
import { pino, type Logger } from 'pino';
import { Plan } from '../api/plans.js';
import { SCOPES } from '../api/scopes.js';
import { AiReplyQueue } from './ai-reply/ai-reply-queue.js';
import { createClock, type EmulatorClock } from './clock.js';
import { EMULATOR_PACKAGE } from './emulator-package.js';
import { EMULATOR_CONTROLS } from './controls/index.js';
import { Dispatcher } from './dispatch/dispatcher.js';
import { OutboundScheduler } from './domain/scheduler/outbound-scheduler.js';
import type { EmulatorContext, RouteHandlerTable } from './route-handler.js';
import { handlers as defaultHandlers } from './handlers/index.js';
import { EMULATOR_KEY_IDS } from './handlers/keys.js';
import { answerClientErrors } from './platform/client-errors.js';
import { createApp } from './platform/create-app.js';
import { IdempotencyGuard } from './platform/idempotency.js';
import { RateLimiter } from './platform/rate-limiter.js';
import { isSeeded, seed } from './seed.js';
import { openEmulatorDatabase, readMeta, writeMeta } from './state/database.js';
import { generateKey, KEY_FORMAT, KeyStore } from './state/key-store.js';
import { InvalidOptionError } from '../errors.js';
import { CHAOS_PRESETS, type ChaosPreset } from './chaos/chaos-rule.js';
import { clearRequestStats, flushRequestCounts } from './state/request-stats.js';
import { WebhookStore } from './state/webhook-store.js';
import { forgetSendingCampaign } from './domain/campaigns/campaign-sender.js';
import type { EmulatorServices } from './platform/emulator-services.js';
import { exportState } from './saved-state/export-state.js';
import { importState } from './saved-state/import-state.js';
import { resumeAiReplies } from './ai-reply/resume-replies.js';

export interface EmulatorOptions {
  /** SQLite file that keeps keys, webhooks, pending deliveries and every record across restarts. @default ':memory:' */
  dbPath?: string;
  /** The admin key (`svc_live_…`): every scope and `/_emulator/*`. @default generated */
  adminKey?: string;
  /** The test key (`svc_test_…`). @default generated */
  testKey?: string;
  /** @default 'dev_pro' */
  plan?: Plan;
  /** Seconds between webhook attempts after a failure. @default [60, 600] */
  retryDelaysSeconds?: number[];
  /** Generated chats in the seeded workspace (benchmarks use thousands). @default the seed's default */
  seed?: number;
  /** @default pino at level `warn`, with keys and secrets redacted */
  logger?: Logger;
  /** The real clock the emulator clock runs ahead of. @default Date.now */
  now?: () => number;
  /** Check every handler's answer against its response schema (a mismatch answers 500). @default false */
  checkResponses?: boolean;
  /** The route handlers. @default the emulator's own (tests may wrap one, e.g. to hold a request in flight) */
  handlers?: RouteHandlerTable;
  /**
   * Start with a chaos preset for every endpoint (docs/emulator.md, "Chaos"): `duplicates`, `timeouts`,
   * `out-of-order`, `slow`, `burst` or `bad-day`. A reset applies it again. @default none
   */
  chaos?: ChaosPreset;
  /**
   * Start from a state document (`GET /_emulator/state`, `--import`) instead of the seed, its secrets opened with
   * `stateKey`; a document refused throws the ApiFailure `PUT /_emulator/state` answers. @default the seed
   */
  state?: { document: unknown; stateKey?: string };
  /**
   * Deliver webhooks to public hosts too. Off, the emulator delivers only to loopback receivers; either
   * way it never connects to a private, link-local or other special-purpose address. @default false
   */
  allowPublicWebhookHosts?: boolean;
  /**
   * The resolver under the address check of every outbound connection: webhook deliveries and custom reply
   * endpoint calls (tests pass a stub: nothing leaves the machine). @default dns.lookup
   */
  resolveHost?: LookupFunction;
}

export interface Emulator {
  app: Express;
  adminKey: string;
  testKey: string;
  clock: EmulatorClock;
  db: Database.Database;
  ctx: EmulatorContext;
  dispatcher: Dispatcher;
  /** The AI reply calls in flight; `await emulator.aiReplies.idle()` waits for every one to finish. */
  aiReplies: Pick<AiReplyQueue, 'idle'>;
  /** Listens on `port` (0 = any free one) on 127.0.0.1. */
  listen(port?: number, host?: string): Promise<{ url: string; close(): Promise<void> }>;
  /** Back to the seeded workspace: API-made keys, webhook endpoints and deliveries go too (the clock stays). */
  reset(): void;
  /**
   * The workspace as a versioned state document (`GET /_emulator/state`), and its replacement by one (`PUT`):
   * docs/emulator.md, "Saving and loading state". Secrets travel sealed with `stateKey`, or are left out without it.
   */
  state: EmulatorServices['state'];
  /** Stops dispatching, closes every server it started and the database. */
  close(): Promise<void>;
}

/** Keeps key values, webhook secrets and signatures out of logs. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  '*.key',
  '*.secret',
  '*.adminKey',
  '*.testKey',
  '*.signature',
];

const CLOCK_META = 'clock_offset_ms';

function checkKey(name: string, value: string | undefined, kind: 'live' | 'test'): string {
  if (value === undefined) return generateKey(kind);
  if (!KEY_FORMAT.test(value) || !value.startsWith(`svc_${kind}_`)) {
    throw new InvalidOptionError(
      `Expected \`${name}\` to be svc_${kind}_ followed by 32 url-safe characters (a value of ${value.length} characters arrived)`,
    );
  }
  return value;
}

function checkDelays(delays: number[]): number[] {
  if (delays.length > 10 || delays.some((d) => !Number.isFinite(d) || d < 0 || d > 7 * 24 * 3600)) {
    throw new InvalidOptionError(
      `Expected \`retryDelaysSeconds\` to be at most 10 numbers from 0 to 604800, got \`${JSON.stringify(delays)}\``,
    );
  }
  return delays;
}

/**
 * The service, locally: the app derived from the contract, state in SQLite, webhook dispatch.
 * @example const emulator = await createEmulator(); await request(emulator.app).get('/v1/tickets').auth(emulator.adminKey, { type: 'bearer' })
 */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  // Its parsers come with @convo-kit/emulator: without it, say so now rather than at the first upload.
  assertInstalled(EMULATOR_PACKAGE);
  const plan = Plan.safeParse(options.plan ?? 'dev_pro').data;
  if (plan === undefined)
    throw new InvalidOptionError(
      `Expected \`plan\` to be one of ${Plan.options.join(', ')}, got \`${String(options.plan)}\``,
    );
  const adminKey = checkKey('adminKey', options.adminKey, 'live');
  const testKey = checkKey('testKey', options.testKey, 'test');
  const retryDelaysSeconds = checkDelays(options.retryDelaysSeconds ?? [60, 600]);
  const chaos = options.chaos;
  if (chaos !== undefined && !Object.hasOwn(CHAOS_PRESETS, chaos)) {
    throw new InvalidOptionError(
      `Expected \`chaos\` to be one of ${Object.keys(CHAOS_PRESETS).join(', ')}, got \`${String(chaos)}\``,
    );
  }
  const logger = options.logger ?? pino({ level: 'warn', redact: LOG_REDACT_PATHS });
  const db = openEmulatorDatabase(options.dbPath);
  // The clock's advance survives a restart, so retries and grace periods scheduled on it stay due.
  const clock = createClock({ now: options.now, offsetMs: Number(readMeta(db, CLOCK_META) ?? 0) });
  clock.onAdvance(() => writeMeta(db, CLOCK_META, String(clock.offsetMs)));
  const dispatcher = new Dispatcher({
    db,
    clock,
    logger,
    retryDelaysSeconds,
    policy: options.allowPublicWebhookHosts === true ? 'loopback-or-public' : 'loopback',
    resolve: options.resolveHost,
  });
  const startChaos = () => {
    dispatcher.chaos.clear();
    if (chaos !== undefined) dispatcher.chaos.set(CHAOS_PRESETS[chaos]);
  };
  startChaos();
  const aiReplies = new AiReplyQueue({ logger });
  // The scheduler (below) runs with this very context; wake() is only called once both exist.
  const ctx: EmulatorContext = {
    db,
    clock,
    events: dispatcher,
    plan,
    newId: (prefix) => prefixedId(prefix),
    aiReplies,
    outbound: { wake: () => outbound.wake() },
    logger,
    resolveHost: options.resolveHost,
  };
  const outbound = new OutboundScheduler(ctx, clock);
  const keys = new KeyStore(db, clock);
  const registerOwnKeys = () => {
    keys.register(adminKey, {
      id: EMULATOR_KEY_IDS.admin,
      label: 'Emulator admin key',
      scopes: [...SCOPES],
      kind: 'live',
      admin: true,
    });
    keys.register(testKey, {
      id: EMULATOR_KEY_IDS.test,
      label: 'Emulator test key',
      scopes: [...SCOPES],
      kind: 'test',
    });
  };
  registerOwnKeys();
  // A state to import replaces whatever is here: no need to seed first.
  if (!isSeeded(db) && options.state === undefined) seed(ctx, { size: options.seed });
  const limiter = new RateLimiter(clock, plan);
  const idempotency = new IdempotencyGuard(db, clock);
  // Back to what a fresh start holds (docs/emulator.md, Controls): the seed, no key but the emulator's own
  // two (a rotation of them undone), no webhook endpoint, delivery or attempt, no idempotency record, no
  // request counted. The clock stays where it is: it only moves forward.
  const reset = () => {
    db.transaction(() => {
      seed(ctx, { size: options.seed });
      keys.removeAllExcept(Object.values(EMULATOR_KEY_IDS));
      registerOwnKeys();
      new WebhookStore(db).deleteAll();
      clearRequestStats(db);
      idempotency.clear();
    })();
    limiter.clear();
    startChaos();
  };
  const state = {
    export: (stateOptions?: { stateKey?: string }) => exportState(db, clock, stateOptions),
    import: (document: unknown, stateOptions?: { stateKey?: string }) =>
      importState(
        {
          db,
          clock,
          afterImport: () => {
            limiter.clear();
            forgetSendingCampaign(db);
            outbound.wake();
            resumeAiReplies(ctx);
          },
        },
        document,
        stateOptions,
      ),
  };
  const platform = {
    ctx,
    state,
    clock,
    keys,
    limiter,
    idempotency,
    dispatcher,
    logger,
    reset,
    checkResponses: options.checkResponses ?? false,
  };
  const app = createApp(platform, options.handlers ?? defaultHandlers, EMULATOR_CONTROLS);
  const servers = new Set<Server>();

  const listen = async (port = 0, host = '127.0.0.1') => {
    const server = createServer(app);
    answerClientErrors(server);
    const { port: bound } = new URL(await listenServer(server, { port, host }));
    servers.add(server);
    const close = async () => {
      servers.delete(server);
      await closeServer(server);
    };
    return { url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`, close };
  };

  const emulator: Emulator = {
    app,
    adminKey,
    testKey,
    clock,
    db,
    ctx,
    dispatcher,
    aiReplies,
    listen,
    reset,
    state,
    async close() {
      aiReplies.stop();
      dispatcher.stop();
      outbound.stop();
      await Promise.all([...servers].map(closeServer));
      servers.clear();
      if (db.open) {
        flushRequestCounts(db);
        db.close();
      }
    },
  };
  // AI replies a stopped emulator left waiting in its --db file are asked again.
  resumeAiReplies(ctx);
  if (options.state !== undefined) {
    try {
      state.import(options.state.document, { stateKey: options.state.stateKey });
    } catch (error) {
      await emulator.close();
      throw error;
    }
  }
  return emulator;
}
