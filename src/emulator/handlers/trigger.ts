import { ApiFailure } from '../api-failure.js';
import { enroll, enrollmentUsage, journeyForTrigger, quotaRefusal, stopEnrollments } from '../domain/trigger/enroll.js';
import { explainStep } from '../domain/trigger/explain-step.js';
import { catchUpJourneySteps } from '../domain/journeys/journey-runner.js';
import { PLAN_QUOTAS } from '../domain/usage/plan-quotas.js';
import { missingVariables } from '../domain/templates/template-variables.js';
import { triggerResult } from '../domain/trigger/trigger-result.js';
import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { stores } from '../state/stores.js';

/** A quota (null: unlimited), what is used of it, and what remains. */
function headroom(quota: number | null, used: number) {
  return { quota, used, remaining: quota === null ? null : Math.max(0, quota - used) };
}

export const triggerHandlers = {
  enroll: ({ body }, ctx) =>
    triggerResult(
      enroll(ctx, journeyForTrigger(ctx, body.trigger_name), { phone: body.phone, metadata: body.metadata ?? {} }),
    ),

  limits: (_req, ctx) => {
    const { used, quota, resetsAt } = enrollmentUsage(ctx);
    const journeys = { quota: PLAN_QUOTAS[ctx.plan].journeys, used: stores(ctx.db).journeys.count() };
    return {
      ...headroom(quota, used),
      period_resets_at: resetsAt,
      journeys: headroom(journeys.quota, journeys.used),
    };
  },

  status: ({ params }, ctx) => {
    catchUpJourneySteps(ctx);
    return explainStep(ctx, params.id);
  },

  history: ({ query }, ctx) => {
    catchUpJourneySteps(ctx);
    return stores(ctx.db).enrollments.listJson({
      limit: query.limit,
      cursor: query.cursor,
      where: { phone: query.phone, journey_id: query.journey_id, status: query.status },
    });
  },

  /** A true dry run: the same checks as a trigger, and nothing stored. */
  validate: ({ body }, ctx) => {
    const s = stores(ctx.db);
    const journey = s.journeys.all({ trigger_name: body.trigger_name })[0];
    if (!journey) {
      return {
        valid: false,
        journey_id: null,
        missing_variables: [],
        issues: [{ path: 'trigger_name', message: `no journey answers ${body.trigger_name}` }],
      };
    }
    const missing = missingVariables(journey.required_variables, body.metadata ?? {});
    const issues = missing.map((p) => ({ path: `metadata.${p}`, message: 'required by the journey' }));
    if (journey.status !== 'active')
      issues.unshift({ path: 'trigger_name', message: `journey ${journey.id} is ${journey.status}, not active` });
    const quota = quotaRefusal(ctx);
    if (quota) issues.push({ path: '', message: quota.message });
    journey.steps.forEach((step, i) => {
      const status = s.templates.get(step.template_id)?.status ?? 'deleted';
      if (status !== 'approved')
        issues.push({ path: `steps.${i}.template_id`, message: `template ${step.template_id} is ${status}` });
    });
    return { valid: issues.length === 0, journey_id: journey.id, missing_variables: missing, issues };
  },

  batch: ({ body }, ctx) => {
    const journey = journeyForTrigger(ctx, body.trigger_name);
    return {
      results: body.recipients.map((row, index) => {
        try {
          const enrollment = enroll(ctx, journey, { phone: row.phone, metadata: row.metadata ?? {} });
          return { index, phone: row.phone, ok: true, enrollment_id: enrollment.id, error: null };
        } catch (error) {
          if (!(error instanceof ApiFailure)) throw error;
          return {
            index,
            phone: row.phone,
            ok: false,
            enrollment_id: null,
            error: { code: error.code, message: error.message },
          };
        }
      }),
    };
  },

  stopEnrollments: ({ query }, ctx) => ({ stopped: stopEnrollments(ctx, query) }),
} satisfies RouteHandlers<typeof endpoints.trigger>;
