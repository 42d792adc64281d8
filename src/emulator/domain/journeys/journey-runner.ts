import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { EnrollmentRecord, JourneyAction } from '../../state/records.js';
import { stores, type Stores } from '../../state/stores.js';
import { runBounded, type BoundedWork } from '../shared/run-bounded.js';
import { sendTemplate } from '../templates/send-template.js';

/** Due enrollments read per query. */
const DUE_BATCH = 32;
/**
 * Steps a read (trigger status, history) runs before answering: what a test or a person just triggered; a
 * backlog (a clock jump over thousands of enrollments) is the outbound scheduler's, which the clock move wakes.
 */
const CATCH_UP_STEPS = 20;

// docs_enrollment_due (src/emulator/state/collection.ts) named: without statistics the planner reads every enrollment.
const DUE_SQL = `SELECT e.data AS data FROM docs e INDEXED BY docs_enrollment_due
  JOIN docs j ON j.kind = 'journeys' AND j.id = json_extract(e.data, '$.journey_id')
  WHERE e.kind = 'enrollments' AND json_extract(e.data, '$.status') = 'active'
    AND json_extract(e.data, '$.next_step_at') <= ? AND json_extract(j.data, '$.status') = 'active'
  ORDER BY json_extract(e.data, '$.next_step_at') LIMIT ?`;

/**
 * When a step goes out: its own due time or, if it fell due before its journey's last activation (held by
 * a pause, or not yet run), that activation, so the later steps follow their delays from then
 * (docs/outbound.md). Activation records one instant instead of rewriting every enrollment in the request.
 */
export function releasedDueAt(s: Stores, action: Pick<JourneyAction, 'journey_id' | 'due_at'>): string {
  const released = s.journeyReleases.get(action.journey_id)?.released_at;
  return released !== undefined && released > action.due_at ? released : action.due_at;
}

/** The provider or platform code a refused step is explained by (a provider rejection names its own code). */
function failureCode(error: ApiFailure): string {
  const provider = error.details?.[0]?.provider_error_code;
  return typeof provider === 'string' ? provider : error.code;
}

/**
 * Sends the current step of one enrollment (its journey is active and the step is due), records the
 * outcome on its action, and schedules the next step `delay_seconds` after this one's due time, so one
 * clock jump runs a whole journey. A refused step ends the enrollment: `stopped` for an opted-out
 * contact (the step is `skipped`), else `failed`.
 */
export function runStep(ctx: EmulatorContext, enrollment: EnrollmentRecord): void {
  const s = stores(ctx.db);
  const journey = s.journeys.get(enrollment.journey_id);
  const actionId = enrollment.action_ids[enrollment.current_step];
  const action = actionId === undefined ? undefined : s.journeyActions.get(actionId);
  const now = ctx.clock.iso();
  const step = journey?.steps[enrollment.current_step];
  if (!journey || !action || !step) {
    // The steps were replaced by a shorter map: the enrollment has run them all, and its pending step,
    // which the journey no longer has, is never sent.
    ctx.db.transaction(() => {
      if (action?.status === 'scheduled') s.journeyActions.put({ ...action, status: 'skipped', updated_at: now });
      s.enrollments.put({ ...enrollment, status: 'completed', next_step_at: null, updated_at: now });
    })();
    return;
  }
  const dueAt = releasedDueAt(s, action);
  let done: Pick<JourneyAction, 'status' | 'message_id' | 'error_code'>;
  try {
    const message = sendTemplate(ctx, {
      template: s.templates.get(step.template_id),
      templateId: step.template_id,
      phone: enrollment.phone,
      variables: enrollment.metadata,
      variablesField: 'metadata',
      source: 'journey',
      origin: { journey_action_id: action.id },
    });
    done = { status: 'sent', message_id: message.id, error_code: null };
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    done = {
      status: error.code === 'CONTACT_OPTED_OUT' ? 'skipped' : 'failed',
      message_id: null,
      error_code: failureCode(error),
    };
  }
  ctx.db.transaction(() => {
    s.journeyActions.put({ ...action, ...done, template_id: step.template_id, due_at: dueAt, updated_at: now });
    const next = journey.steps[enrollment.current_step + 1];
    if (done.status !== 'sent' || !next) {
      s.enrollments.put({
        ...enrollment,
        status: done.status === 'sent' ? 'completed' : done.status === 'skipped' ? 'stopped' : 'failed',
        next_step_at: null,
        updated_at: now,
      });
      return;
    }
    const nextDueAt = new Date(Date.parse(dueAt) + next.delay_seconds * 1000).toISOString();
    const nextAction = s.journeyActions.insert({
      id: ctx.newId('act'),
      enrollment_id: enrollment.id,
      journey_id: journey.id,
      position: enrollment.current_step + 1,
      template_id: next.template_id,
      status: 'scheduled',
      due_at: nextDueAt,
      message_id: null,
      error_code: null,
      updated_at: now,
    });
    s.enrollments.put({
      ...enrollment,
      current_step: enrollment.current_step + 1,
      action_ids: [...enrollment.action_ids, nextAction.id],
      next_step_at: nextDueAt,
      updated_at: now,
    });
  })();
}

/** The journey steps due by the emulator clock, for runBounded: the outbound scheduler's runs and catch-ups. */
export function journeySteps(ctx: EmulatorContext): BoundedWork<EnrollmentRecord> {
  return {
    db: ctx.db,
    dueSql: DUE_SQL,
    dueBy: () => ctx.clock.iso(),
    pageRows: DUE_BATCH,
    step: (enrollment) => runStep(ctx, enrollment),
  };
}

/** Before a read (trigger status, history): runs up to CATCH_UP_STEPS due steps; the scheduler does the rest. */
export function catchUpJourneySteps(ctx: EmulatorContext): void {
  runBounded(journeySteps(ctx), { maxSteps: CATCH_UP_STEPS });
}
