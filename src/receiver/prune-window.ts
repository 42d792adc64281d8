import type { DeliveryStore } from '../store/index.js';
import { DEFAULT_PRUNE_AFTER_MS } from '../store/store-rules.js';
import { InvalidOptionError } from '../errors.js';

/**
 * How long after it arrived a captured delivery still passes the signature check: its timestamp may be up to
 * `toleranceSeconds` ahead of this clock when it arrives, and passes until it is that far behind. Its done
 * row (and so its dedupe record) must outlive this, or a replay under a new delivery id runs the handlers again.
 */
export function replayWindowMs(toleranceSeconds: number): number {
  return 2 * toleranceSeconds * 1000;
}

/** The done-row age of the store a receiver opens from `dbPath`: the stores' default, or longer for a long tolerance. */
export function pruneAfterForTolerance(toleranceSeconds: number): number {
  return Math.max(DEFAULT_PRUNE_AFTER_MS, replayWindowMs(toleranceSeconds));
}

/** A store of your own whose `pruneDoneAfterMs` is shorter than the replay window is refused, naming both. */
export function checkPruneAfter(store: DeliveryStore, toleranceSeconds: number): void {
  const kept = store.pruneDoneAfterMs;
  const window = replayWindowMs(toleranceSeconds);
  if (typeof kept !== 'number' || kept >= window) return;
  throw new InvalidOptionError(
    `\`toleranceSeconds\` ${toleranceSeconds} lets a captured delivery pass the signature check for up to ${window} ms after it arrives, ` +
      `but the store prunes done rows after \`pruneDoneAfterMs\` ${kept} ms, and a pruned row no longer makes a replay a duplicate. ` +
      `Give the store a pruneDoneAfterMs of at least ${window} (or null), or a smaller toleranceSeconds.`,
  );
}
