import type { z } from 'zod';
import type { JourneyCreate, JourneyStepInput } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { JourneyRecord } from '../../state/records.js';
import { stores, type Stores } from '../../state/stores.js';
import { PLAN_QUOTAS } from '../usage/plan-quotas.js';
import { requireApproved } from '../templates/send-template.js';
import { resolveTemplateSender } from '../templates/template-sender.js';

type StepInput = z.output<typeof JourneyStepInput>;

/**
 * The step map of a journey: every step names an existing, `approved` template of the workspace that a
 * number can send (404, else 422 TEMPLATE_NOT_APPROVED or 409 AMBIGUOUS_INTEGRATION naming the step). The required variables are every position
 * the mapped templates use.
 */
export function mapSteps(s: Stores, steps: readonly StepInput[]): Pick<JourneyRecord, 'steps' | 'required_variables'> {
  const variables = new Set<string>();
  const mapped = steps.map((step, position) => {
    const template = s.templates.get(step.template_id);
    if (!template)
      throw new ApiFailure('NOT_FOUND', `steps.${position}.template_id: no template with id ${step.template_id}`, {
        details: [{ path: `steps.${position}.template_id` }],
      });
    try {
      requireApproved(template, step.template_id);
      // A step goes out from the template's pinned number or the single active one (docs/outbound.md):
      // one no number can send is refused here, like an unapproved one, not failed at every enrollment.
      resolveTemplateSender(s, template);
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      const hint =
        error.code === 'AMBIGUOUS_INTEGRATION' ? ' (a journey names no number: map a template pinned to one)' : '';
      throw new ApiFailure(error.code, `steps.${position}: ${error.message}${hint}`, {
        details: [{ path: `steps.${position}.template_id`, template_id: template.id, status: template.status }],
      });
    }
    for (const v of template.variables) variables.add(v);
    return { position, template_id: template.id, template_name: template.name, delay_seconds: step.delay_seconds };
  });
  return { steps: mapped, required_variables: [...variables].sort((a, b) => Number(a) - Number(b)) };
}

/** POST /v1/journeys: a `draft` journey; `trigger_name` is unique, and the plan bounds how many journeys exist. */
export function createJourney(ctx: EmulatorContext, body: z.output<typeof JourneyCreate>): JourneyRecord {
  const s = stores(ctx.db);
  const quota = PLAN_QUOTAS[ctx.plan].journeys;
  if (quota !== null && s.journeys.count() >= quota) {
    throw new ApiFailure(
      'INVALID_STATE',
      `The ${ctx.plan} plan allows ${quota} journeys; reuse one by replacing its steps (PUT /v1/journeys/:id/steps)`,
      {
        details: [{ quota }],
      },
    );
  }
  if (s.journeys.count({ trigger_name: body.trigger_name }) > 0) {
    throw new ApiFailure('VALIDATION_FAILED', `Another journey answers trigger_name ${body.trigger_name}`, {
      details: [{ path: 'trigger_name', in: 'body', message: 'already used by another journey' }],
    });
  }
  const now = ctx.clock.iso();
  return s.journeys.insert({
    id: ctx.newId('jrn'),
    name: body.name,
    trigger_name: body.trigger_name,
    events: body.events ?? [],
    status: 'draft',
    ...mapSteps(s, body.steps),
    created_at: now,
    updated_at: now,
  });
}

/** PUT/PATCH …/steps: a new step map; running enrollments continue with it from their current position. */
export function replaceJourneySteps(ctx: EmulatorContext, id: string, steps: readonly StepInput[]): JourneyRecord {
  const s = stores(ctx.db);
  return s.journeys.update(id, (j) => ({ ...j, ...mapSteps(s, steps), updated_at: ctx.clock.iso() }));
}

/**
 * POST/PATCH …/status: `active` (its templates must still be approved) or `paused`. Pausing holds the
 * steps of running enrollments (the scheduler runs only an active journey's); activating records the
 * instant the held steps are due at (releasedDueAt) and wakes the scheduler, which sends them in its
 * bounded runs: the request touches no enrollment, however many the journey holds.
 */
export function setJourneyStatus(ctx: EmulatorContext, id: string, status: 'active' | 'paused'): JourneyRecord {
  const s = stores(ctx.db);
  const journey = s.journeys.require(id, 'journey');
  if (status === 'paused' && journey.status === 'draft') {
    throw new ApiFailure('INVALID_STATE', `Journey ${id} is a draft; activate it before pausing it`, {
      details: [{ status: journey.status }],
    });
  }
  if (status === 'active') mapSteps(s, journey.steps);
  const now = ctx.clock.iso();
  const updated = ctx.db.transaction(() => {
    const changed = s.journeys.put({ ...journey, status, updated_at: now });
    if (status === 'active') s.journeyReleases.put({ id, released_at: now });
    return changed;
  })();
  if (status === 'active') ctx.outbound.wake();
  return updated;
}
