import type { AutomationSchedule } from '../../../api/schemas/automation.js';

/**
 * The first time of `schedule` at or after `fromMs` (strictly after when `after` is set), as ISO text; null
 * when none is left (a one-off whose time passed). Slots a clock jump or a pause passed are not made up: a
 * schedule runs once, then waits for its next slot (docs/automations.md, "Schedules").
 */
export function nextSlot(schedule: AutomationSchedule, fromMs: number, after = false): string | null {
  const first = Date.parse(schedule.first_run_at);
  if (first > fromMs || (!after && first === fromMs)) return new Date(first).toISOString();
  const every = schedule.repeat_every_seconds;
  if (every === null || every === undefined) return null;
  const periodMs = every * 1000;
  const passed = Math.floor((fromMs - first) / periodMs);
  let slot = first + passed * periodMs;
  if (slot < fromMs || (after && slot === fromMs)) slot += periodMs;
  return new Date(slot).toISOString();
}
