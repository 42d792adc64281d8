import type { Conversation } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { AutomationRecord } from '../../state/records.js';
import { ORDER_INDEXES } from '../../state/docs-schema.js';
import { statement } from '../../state/statement.js';
import { stores } from '../../state/stores.js';
import { MAX_SCHEDULE_TARGETS } from './automation-bounds.js';
import { nextSlot } from './automation-schedule.js';
import { runAutomation } from './automations.js';
import { appliesTo } from './inbound-automations.js';

/** Open conversations read per query while looking for a scheduled run's targets. */
const PAGE_ROWS = 200;
/** Open conversations one scheduled run looks at, at most: a 200,000-chat seed is not read whole. */
const MAX_SCANNED = 5_000;

const OPEN_BY_ACTIVITY_SQL = `SELECT data FROM docs INDEXED BY ${ORDER_INDEXES['conversations.latest_activity_at']}
  WHERE kind = 'conversations'
  AND json_extract(data, '$.status') != 'closed'
  ORDER BY json_extract(data, '$.latest_activity_at') DESC, seq DESC LIMIT ? OFFSET ?`;

/** The conversations a scheduled run sends on: open, on its account, meeting its conditions, most recently active first. */
function scheduleTargets(ctx: EmulatorContext, automation: AutomationRecord): Conversation[] {
  const targets: Conversation[] = [];
  for (let offset = 0; offset < MAX_SCANNED && targets.length < MAX_SCHEDULE_TARGETS; offset += PAGE_ROWS) {
    const rows = statement(ctx.db, OPEN_BY_ACTIVITY_SQL).all(PAGE_ROWS, offset) as { data: string }[];
    for (const row of rows) {
      const conversation = JSON.parse(row.data) as Conversation;
      if (appliesTo(automation, conversation)) targets.push(conversation);
      if (targets.length === MAX_SCHEDULE_TARGETS) break;
    }
    if (rows.length < PAGE_ROWS) break;
  }
  return targets;
}

/**
 * One due run of a `schedule` automation (docs/automations.md, "Schedules"): its next slot moves first
 * (so a failure cannot make it due forever), then it sends on each target; a send the rules refuse skips that
 * conversation, a monthly quota refusal ends the run.
 */
function runSchedule(ctx: EmulatorContext, automation: AutomationRecord): void {
  const s = stores(ctx.db);
  const nowMs = ctx.clock.now();
  s.automations.put({ ...automation, next_run_at: automation.schedule && nextSlot(automation.schedule, nowMs, true) });
  let sent = 0;
  for (const conversation of scheduleTargets(ctx, automation)) {
    try {
      runAutomation(ctx, automation, conversation, {});
      sent++;
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      // A quota refusal holds for every target alike (monthly-quota.ts).
      if (error.details?.[0]?.quota !== undefined) break;
    }
  }
  ctx.logger.debug({ automation_id: automation.id, sent }, 'scheduled automation ran');
}

/**
 * Runs the `schedule` automations due on the emulator clock, earliest first, at most `maxRuns`; true when
 * more may be due. The outbound scheduler calls it on every wake-up (a clock advance is one), and reads of
 * automations call it too, so a test that moved the clock sees the run.
 */
export function runDueSchedules(ctx: EmulatorContext, maxRuns: number): boolean {
  const now = ctx.clock.iso();
  const due = stores(ctx.db)
    .automations.all({ status: 'active', trigger: 'schedule' })
    .filter((a) => a.next_run_at !== null && a.next_run_at <= now)
    .sort((a, b) => (a.next_run_at! < b.next_run_at! ? -1 : 1));
  for (const automation of due.slice(0, maxRuns)) runSchedule(ctx, automation);
  return due.length > maxRuns;
}
