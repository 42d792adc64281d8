import type { SignedDelivery } from '../../src/testing/index.js';

/**
 * What a scenario prints and asserts, counted by event (the signed `evt_…` id), since a duplicate or a
 * replay under a new delivery id is the same event:
 * - acked: events with at least one 200 answer;
 * - handled: acked events whose handler returned;
 * - lost: acked events whose handler never returned;
 * - run twice: events whose handler started again after the store had recorded them done (the receiver
 *   promises this never happens);
 * - re-run after a kill: events whose handler returned more than once because a process was killed
 *   before it recorded the outcome (at-least-once delivery allows this; reported, not asserted).
 */
export interface Figures {
  acked: number;
  handled: number;
  lost: number;
  runTwice: number;
  rerunAfterKill: number;
}

export const eventIdOf = (delivery: Pick<SignedDelivery, 'envelope'>) => (delivery.envelope as { id: string }).id;

export function figures(acked: ReadonlySet<string>, journal: readonly string[]): Figures {
  const eventOf = new Map<string, string>();
  const ends = new Map<string, number>();
  const done = new Set<string>();
  let runTwice = 0;
  for (const line of journal) {
    const [word, deliveryId, eventId] = line.split(' ') as [string, string, string?];
    if (word === 'start') {
      eventOf.set(deliveryId, eventId!);
      if (done.has(eventId!)) runTwice++;
    }
    const event = eventOf.get(deliveryId);
    if (word === 'end' && event) ends.set(event, (ends.get(event) ?? 0) + 1);
    if (word === 'done' && event) done.add(event);
  }
  const handled = [...acked].filter((event) => ends.has(event)).length;
  const rerunAfterKill = [...ends.values()].filter((n) => n > 1).length;
  return { acked: acked.size, handled, lost: acked.size - handled, runTwice, rerunAfterKill };
}

/** One line per scenario in the suite's output. */
export function report(scenario: string, f: Figures, extra: Record<string, string | number> = {}): void {
  printFigures(scenario, {
    acked: f.acked,
    handled: f.handled,
    lost: f.lost,
    'run twice': f.runTwice,
    're-run after a kill': f.rerunAfterKill,
    ...extra,
  });
}

/** The line of a scenario that measures something other than a receiver's handling (the emulator's cases). */
export function printFigures(scenario: string, measures: Record<string, string | number>): void {
  const line = Object.entries(measures).map(([k, v]) => `${k} ${v}`);
  process.stdout.write(`[reliability] ${scenario}: ${line.join(', ')}\n`);
}

/** Waits (bounded) until every acked event was handled; the figures then say what was not. */
export async function settle(acked: ReadonlySet<string>, journal: readonly string[], timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (figures(acked, journal).lost > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return figures(acked, journal);
}

/** Handlers a process started and never saw return, because it was killed: the next process runs them again. */
export function cutByKill(journal: readonly string[]): number {
  let cut = 0;
  let running = new Set<string>();
  for (const line of [...journal, 'process end']) {
    const [word, deliveryId] = line.split(' ') as [string, string];
    if (word === 'process') {
      cut += running.size;
      running = new Set();
    }
    if (word === 'start') running.add(deliveryId);
    if (word === 'end') running.delete(deliveryId);
  }
  return cut;
}
