import { say } from './live-log.js';

/** Plays the customer, the provider or time through the emulator's `/_emulator/*` controls. */
export type Control = <T>(path: string, body: unknown) => Promise<T>;

// Generous: on a loaded machine the provider's reports and the scheduler's sends take longer; done early when fast.
const WAIT_LIMIT_MS = 15_000;

/**
 * The provider reports some outcomes a moment after accepting, and the outbound scheduler sends on its
 * own timer: settle until `done` holds (bounded; past the bound the sample says so and goes on).
 */
export async function settleUntil(settle: () => Promise<void>, done: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!done() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await settle();
  }
  if (!done()) say('warn', 'waiting', `what the sample waits for did not happen within ${WAIT_LIMIT_MS} ms`);
}
