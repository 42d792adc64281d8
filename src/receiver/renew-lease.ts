import type { Logger } from 'pino';
import type { DeliveryStore } from '../store/index.js';

export interface RenewLeaseOptions {
  store: DeliveryStore;
  id: string;
  owner: string;
  leaseMs: number;
  now: () => number;
  log: Logger;
  /** The store says another worker holds the row now (our lease lapsed and it was claimed again). */
  onLost: () => void;
}

/** Renewals per lease: a renewal may fail or be late this many times minus one before the lease lapses. */
const RENEWALS_PER_LEASE = 4;

/**
 * Keeps a claimed row's lease alive while its handlers run. Leases stay short, so the rows of a process
 * that died come back within one lease (README "Crash recovery"); a live, slow handler keeps its row.
 * Answers a function that stops renewing.
 */
export function renewLease(options: RenewLeaseOptions): () => void {
  const { store, id, owner, leaseMs, now, log } = options;
  let stopped = false;
  let renewing = false;
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  const timer = setInterval(
    () => {
      // A store that is slow to answer gets no pile of renewals behind the first.
      if (renewing) return;
      renewing = true;
      store
        .renew(id, owner, { leaseMs, now: now() })
        .then(
          (held) => {
            if (held || stopped) return;
            stop();
            options.onLost();
          },
          (error: unknown) => {
            if (!stopped) log.warn({ err: error }, 'could not renew the lease; trying again');
          },
        )
        .finally(() => (renewing = false));
    },
    Math.max(1, Math.floor(leaseMs / RENEWALS_PER_LEASE)),
  );
  return stop;
}
