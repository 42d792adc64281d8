import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { EnrollmentRecord, JourneyRecord } from '../../state/records.js';
import { stores } from '../../state/stores.js';
import { monthlyQuotaRefusal } from '../usage/monthly-quota.js';
import { PLAN_QUOTAS } from '../usage/plan-quotas.js';
import { requireVariableValues } from '../templates/template-variables.js';
import { currentPeriod } from '../usage/usage.js';
import { runStep } from '../journeys/journey-runner.js';

export interface EnrollInput {
  phone: string;
  metadata: Record<string, string>;
  /** Skip the first step's delay (POST /v1/webhooks/send `send_now`). */
  sendNow?: boolean;
}

/** The journey a trigger names: 404 for an unknown `trigger_name`, 422 INVALID_STATE unless `active`. */
export function journeyForTrigger(ctx: EmulatorContext, triggerName: string): JourneyRecord {
  const journey = stores(ctx.db).journeys.all({ trigger_name: triggerName })[0];
  if (!journey) throw new ApiFailure('NOT_FOUND', `No journey answers trigger_name ${JSON.stringify(triggerName)}`);
  requireActive(journey);
  return journey;
}

export function requireActive(journey: JourneyRecord): void {
  if (journey.status !== 'active') {
    throw new ApiFailure(
      'INVALID_STATE',
      `Journey ${journey.id} is ${journey.status}; only an active journey enrolls`,
      {
        details: [{ journey_id: journey.id, status: journey.status }],
      },
    );
  }
}

/** The metadata positions the journey's templates need that `metadata` lacks (400 naming `metadata.<n>`). */
export function requireVariables(journey: JourneyRecord, metadata: Record<string, string>): void {
  requireVariableValues(journey.required_variables, metadata, 'metadata', 'the journey');
}

/** Enrollments started this month, and the plan's monthly quota (null: unlimited). */
export function enrollmentUsage(ctx: EmulatorContext): { used: number; quota: number | null; resetsAt: string } {
  const period = currentPeriod(ctx.clock.now());
  const used = (
    ctx.db
      .prepare("SELECT count(*) AS n FROM docs WHERE kind = 'enrollments' AND json_extract(data, '$.created_at') >= ?")
      .get(period.start) as { n: number }
  ).n;
  return { used, quota: PLAN_QUOTAS[ctx.plan].enrollments_per_month, resetsAt: period.end };
}

/** Why the plan's monthly enrollment quota refuses `wanted` more enrollments now, or null when it has room. */
export function quotaRefusal(ctx: EmulatorContext, wanted = 1): ApiFailure | null {
  const { used, quota } = enrollmentUsage(ctx);
  return monthlyQuotaRefusal(ctx, 'enrollments', quota, used, wanted);
}

function requireQuota(ctx: EmulatorContext): void {
  const refusal = quotaRefusal(ctx);
  if (refusal) throw refusal;
}

/**
 * Enrolls a phone into an active journey: the enrollment and its first action (`scheduled` at the
 * first step's delay, or now). A step due now is sent before this returns; later ones are sent by the
 * outbound scheduler on the emulator clock.
 */
export function enroll(ctx: EmulatorContext, journey: JourneyRecord, input: EnrollInput): EnrollmentRecord {
  requireActive(journey);
  requireVariables(journey, input.metadata);
  requireQuota(ctx);
  const s = stores(ctx.db);
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs).toISOString();
  const first = journey.steps[0]!;
  const dueAt = new Date(nowMs + (input.sendNow ? 0 : first.delay_seconds * 1000)).toISOString();
  const enrollment = ctx.db.transaction(() => {
    const action = s.journeyActions.insert({
      id: ctx.newId('act'),
      enrollment_id: '',
      journey_id: journey.id,
      position: 0,
      template_id: first.template_id,
      status: 'scheduled',
      due_at: dueAt,
      message_id: null,
      error_code: null,
      updated_at: now,
    });
    const created = s.enrollments.insert({
      id: ctx.newId('enr'),
      journey_id: journey.id,
      trigger_name: journey.trigger_name,
      phone: input.phone,
      metadata: input.metadata,
      status: 'active',
      current_step: 0,
      action_ids: [action.id],
      next_step_at: dueAt,
      created_at: now,
      updated_at: now,
    });
    s.journeyActions.put({ ...action, enrollment_id: created.id });
    return created;
  })();
  if (dueAt <= now) runStep(ctx, enrollment);
  else ctx.outbound.wake();
  return s.enrollments.require(enrollment.id, 'enrollment');
}

/** DELETE /v1/trigger/enrollments: active enrollments of a phone and/or journey end; their pending step is skipped. */
export function stopEnrollments(ctx: EmulatorContext, filter: { phone?: string; journey_id?: string }): number {
  const s = stores(ctx.db);
  const now = ctx.clock.iso();
  return ctx.db.transaction(() => {
    const active = s.enrollments.all({ status: 'active', phone: filter.phone, journey_id: filter.journey_id });
    for (const enrollment of active) {
      const actionId = enrollment.action_ids[enrollment.current_step];
      const action = actionId === undefined ? undefined : s.journeyActions.get(actionId);
      if (action?.status === 'scheduled') s.journeyActions.put({ ...action, status: 'skipped', updated_at: now });
      s.enrollments.put({ ...enrollment, status: 'stopped', next_step_at: null, updated_at: now });
    }
    return active.length;
  })();
}
