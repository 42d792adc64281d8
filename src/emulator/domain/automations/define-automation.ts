import { z } from 'zod';
import {
  AutomationConditions,
  AutomationSchedule,
  AutomationTriggerKind,
  AUTOMATION_MAX_KEYWORDS,
} from '../../../api/schemas/automation.js';
import { Id, visibleText } from '../../../api/schemas/common.js';
import { MessageContent } from '../../../api/schemas/message.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { AutomationRecord } from '../../state/records.js';
import { stores } from '../../state/stores.js';
import { MAX_AUTOMATIONS } from './automation-bounds.js';
import { nextSlot } from './automation-schedule.js';
import { templateVariables } from '../templates/template-variables.js';

/** The triggers that start a run by themselves, with no caller to give `variables`. */
const AUTOMATIC = new Set(['keyword', 'new_conversation', 'schedule']);

/**
 * An automation as `POST /_emulator/automations` defines it (docs/automations.md, "Defining one"): the
 * fields a trigger kind needs, and only those. Every issue names its field.
 */
export const AutomationDefinition = z
  .strictObject({
    /** Replaces the automation with this id, or creates one with it. @default a new `aut_…` id */
    id: Id.regex(/^aut_[A-Za-z0-9_-]+$/, 'expected an id starting aut_').optional(),
    name: visibleText(200),
    trigger: AutomationTriggerKind,
    /** @default 'active' */
    status: z.enum(['active', 'paused']).optional(),
    /** The account it sends from; null: the conversation's own. @default null */
    integration_id: Id.nullable().optional(),
    content: MessageContent,
    /** Required for a `keyword` automation, refused for the others. */
    keywords: z.array(visibleText(100)).min(1).max(AUTOMATION_MAX_KEYWORDS).optional(),
    /** @default {} (every conversation) */
    conditions: AutomationConditions.optional(),
    /** Required for a `schedule` automation, refused for the others. */
    schedule: AutomationSchedule.optional(),
  })
  .superRefine((d, issues) => {
    const only = (field: 'keywords' | 'schedule', kind: string) => {
      const given = d[field] !== undefined;
      if (given === (d.trigger === kind)) return;
      issues.addIssue({
        code: 'custom',
        path: [field],
        message: given ? `only a ${kind} automation has ${field}` : `required when trigger is ${kind}`,
      });
    };
    only('keywords', 'keyword');
    only('schedule', 'schedule');
    const variables = templateVariables(d.content);
    if (AUTOMATIC.has(d.trigger) && variables.length > 0) {
      issues.addIssue({
        code: 'custom',
        path: ['content'],
        message: `a ${d.trigger} run has no variables to fill {{${variables[0]}}}: only an api automation's content may use them`,
      });
    }
  });
type Definition = z.output<typeof AutomationDefinition>;

/**
 * Creates an automation, or replaces the one with the same `id` (its `created_at`, `last_run_at` and list
 * place kept): `POST /_emulator/automations`, since the spec shows no route that defines one
 * (docs/automations.md). The body's shape was checked by its schema; what needs the workspace is checked
 * here: the account exists, the workspace holds fewer than MAX_AUTOMATIONS, a schedule has a time to come.
 */
export function defineAutomation(ctx: EmulatorContext, body: Definition): AutomationRecord {
  const s = stores(ctx.db);
  const integrationId = body.integration_id ?? null;
  if (integrationId !== null && !s.accounts.get(integrationId)) {
    throw new ApiFailure('NOT_FOUND', `No connected account ${integrationId} to send from`, {
      details: [{ path: 'integration_id', in: 'body', message: 'no connected account has this id' }],
    });
  }
  const existing = body.id === undefined ? undefined : s.automations.get(body.id);
  if (!existing && s.automations.count() >= MAX_AUTOMATIONS) {
    throw new ApiFailure(
      'INVALID_STATE',
      `The workspace holds ${MAX_AUTOMATIONS} automations, the most the emulator keeps; replace one by its id`,
    );
  }
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs).toISOString();
  const schedule = body.schedule
    ? { first_run_at: body.schedule.first_run_at, repeat_every_seconds: body.schedule.repeat_every_seconds ?? null }
    : null;
  const nextRunAt = schedule && nextSlot(schedule, nowMs);
  if (schedule && nextRunAt === null) {
    throw new ApiFailure(
      'VALIDATION_FAILED',
      `schedule.first_run_at ${schedule.first_run_at} has passed on the emulator clock (now ${now}) and the schedule does not repeat`,
      { details: [{ path: 'schedule.first_run_at', in: 'body', message: `expected a time after ${now}` }] },
    );
  }
  const automation: AutomationRecord = {
    id: existing?.id ?? body.id ?? ctx.newId('aut'),
    name: body.name,
    trigger: body.trigger,
    status: body.status ?? 'active',
    integration_id: integrationId,
    content: body.content,
    keywords: body.keywords ?? [],
    conditions: body.conditions ?? {},
    schedule,
    next_run_at: nextRunAt,
    last_run_at: existing?.last_run_at ?? null,
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  const stored = existing ? s.automations.put(automation) : s.automations.insert(automation);
  // A schedule due now runs at the scheduler's next turn, not at its next poll.
  ctx.outbound.wake();
  return stored;
}

/**
 * Pauses or resumes an automation (`POST /_emulator/automations/:id/status`). A paused automation does not
 * run; a schedule resumed waits for its next slot from now (the slots it missed are not made up, a one-off
 * whose time passed will not run: `next_run_at` null).
 */
export function setAutomationStatus(
  ctx: EmulatorContext,
  id: string,
  status: AutomationRecord['status'],
): AutomationRecord {
  const s = stores(ctx.db);
  const automation = s.automations.require(id, 'automation');
  if (automation.status === status) return automation;
  const nowMs = ctx.clock.now();
  const resumed = status === 'active' && automation.schedule !== null;
  const stored = s.automations.put({
    ...automation,
    status,
    next_run_at: resumed ? nextSlot(automation.schedule!, nowMs) : automation.next_run_at,
    updated_at: new Date(nowMs).toISOString(),
  });
  ctx.outbound.wake();
  return stored;
}
