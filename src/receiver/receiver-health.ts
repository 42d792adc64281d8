import type { Logger } from 'pino';
import type { Backlog, DeliveryStore } from '../store/index.js';
import { InvalidOptionError } from '../errors.js';
import { integerOption } from '../internal/integer-option.js';

/** When `receiver.health()` says `degraded` or `failing`; each bound is passed when the value is above it. */
export interface HealthThresholds {
  /** The oldest delivery not yet done or dead is older than this. @default 60 */
  degradedOldestPendingSeconds?: number;
  /** @default 900 (the service gives up retrying about 11 minutes after the first attempt) */
  failingOldestPendingSeconds?: number;
  /** Deliveries waiting (pending, retrying and processing). @default 1000 */
  degradedBacklog?: number;
  /** @default 100000 */
  failingBacklog?: number;
  /** Dead deliveries in the store (replay or prune them). @default 0: any dead letter degrades */
  degradedDead?: number;
  /** @default never: dead letters wait for a person, not a restart */
  failingDead?: number;
}

export type HealthStatus = 'ok' | 'degraded' | 'failing';

export interface ReceiverHealth {
  /** `failing` when the store does not answer, or a failing threshold is passed; `degraded` for a degraded one. */
  status: HealthStatus;
  /** Each threshold passed, or the store's silence, in words. */
  reasons: string[];
  /** The store answered the backlog query (or, for a store without `backlog()`, a read) in time. */
  store: { ok: boolean };
  /** The worker claims deliveries (started, or processBeforeResponse), and close() has not begun. */
  worker: { running: boolean; closing: boolean };
  /** Null when the store did not answer or cannot count. */
  backlog: { pending: number; retrying: number; processing: number } | null;
  oldestPendingAgeSeconds: number | null;
  dead: number | null;
  checkedAt: string;
}

type Resolved = Required<HealthThresholds>;

/** A store that takes longer than this to count its rows is reported as not answering. */
export const STORE_PROBE_TIMEOUT_MS = 2000;
/** Health checks and metric collections within this long share one backlog query. */
const BACKLOG_CACHE_MS = 1000;

export function resolveThresholds(options: HealthThresholds | undefined): Resolved {
  if (options !== undefined && (options === null || typeof options !== 'object'))
    throw new InvalidOptionError(`Expected \`health\` to be an object of thresholds, got ${String(options)}`);
  const bound = (name: keyof HealthThresholds, fallback: number) =>
    options?.[name] === Infinity ? Infinity : integerOption(`health.${name}`, options?.[name], fallback, { min: 0 });
  return {
    degradedOldestPendingSeconds: bound('degradedOldestPendingSeconds', 60),
    failingOldestPendingSeconds: bound('failingOldestPendingSeconds', 900),
    degradedBacklog: bound('degradedBacklog', 1000),
    failingBacklog: bound('failingBacklog', 100_000),
    degradedDead: bound('degradedDead', 0),
    failingDead: bound('failingDead', Infinity),
  };
}

/**
 * Reads the store's backlog at most once per BACKLOG_CACHE_MS (callers in between share the answer or the
 * query in flight) and within STORE_PROBE_TIMEOUT_MS. Undefined when the store cannot count; throws when
 * it does not answer.
 */
export function backlogReader(store: DeliveryStore, now: () => number): () => Promise<Backlog | undefined> {
  let last: { at: number; value: Promise<Backlog | undefined> } | undefined;
  const probe = async (): Promise<Backlog | undefined> => {
    if (store.backlog) return store.backlog();
    await store.get('health-probe');
    return undefined;
  };
  return () => {
    const at = now();
    if (last && at - last.at < BACKLOG_CACHE_MS) return last.value;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the store did not answer within ${STORE_PROBE_TIMEOUT_MS} ms`)),
        STORE_PROBE_TIMEOUT_MS,
      );
      timer.unref();
    });
    const value = Promise.race([probe(), timeout]).finally(() => clearTimeout(timer));
    // A failure is not kept: the next check asks the store again.
    value.catch(() => (last = undefined));
    last = { at, value };
    return value;
  };
}

/** One health check: the backlog against the thresholds, and whether the store answered. */
export async function checkHealth(
  read: () => Promise<Backlog | undefined>,
  thresholds: Resolved,
  worker: ReceiverHealth['worker'],
  now: () => number,
  log: Logger,
): Promise<ReceiverHealth> {
  const at = now();
  const health: ReceiverHealth = {
    status: 'ok',
    reasons: [],
    store: { ok: true },
    worker,
    backlog: null,
    oldestPendingAgeSeconds: null,
    dead: null,
    checkedAt: new Date(at).toISOString(),
  };
  const raise = (status: HealthStatus, reason: string) => {
    if (status === 'failing' || health.status === 'ok') health.status = status;
    health.reasons.push(reason);
  };
  let backlog: Backlog | undefined;
  try {
    backlog = await read();
  } catch (error) {
    log.warn({ err: error }, 'health check: the delivery store did not answer');
    health.store.ok = false;
    raise('failing', 'the delivery store did not answer');
    return health;
  }
  if (!backlog) return health;
  const waiting = backlog.pending + backlog.retrying + backlog.processing;
  const age = backlog.oldestReceivedAt === null ? 0 : Math.max(0, Math.round((at - backlog.oldestReceivedAt) / 1000));
  Object.assign(health, {
    backlog: { pending: backlog.pending, retrying: backlog.retrying, processing: backlog.processing },
    oldestPendingAgeSeconds: age,
    dead: backlog.dead,
  });
  const check = (value: number, what: string, degraded: number, failing: number, names: [string, string]) => {
    if (value > failing) raise('failing', `${what} is ${value} (${names[1]} ${failing})`);
    else if (value > degraded) raise('degraded', `${what} is ${value} (${names[0]} ${degraded})`);
  };
  const t = thresholds;
  check(
    age,
    'the oldest pending delivery’s age in seconds',
    t.degradedOldestPendingSeconds,
    t.failingOldestPendingSeconds,
    ['degradedOldestPendingSeconds', 'failingOldestPendingSeconds'],
  );
  check(waiting, 'the backlog', t.degradedBacklog, t.failingBacklog, ['degradedBacklog', 'failingBacklog']);
  check(backlog.dead, 'the dead deliveries', t.degradedDead, t.failingDead, ['degradedDead', 'failingDead']);
  return health;
}
