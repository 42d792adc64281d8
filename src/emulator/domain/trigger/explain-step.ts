import type { z } from 'zod';
import type { TriggerStatus } from '../../../resources/index.js';
import { explainErrorCode } from '../../error-explanations.js';
import type { EmulatorContext } from '../../route-handler.js';
import { stores } from '../../state/stores.js';
import { catchUpDeliveries } from '../messages/delivery-progress.js';
import { releasedDueAt } from '../journeys/journey-runner.js';

type StepStatus = z.input<typeof TriggerStatus>;

/**
 * GET /v1/trigger/status/:id: one journey step (automation action) in plain language. Failures are
 * explained from the same table as GET /v1/developer/troubleshooting/errors/:code; a step still on
 * its way says when it goes out or what it is waiting for.
 */
export function explainStep(ctx: EmulatorContext, actionId: string): StepStatus {
  catchUpDeliveries(ctx);
  const s = stores(ctx.db);
  const action = s.journeyActions.require(actionId, 'automation action');
  const enrollment = s.enrollments.get(action.enrollment_id);
  const journey = s.journeys.get(action.journey_id);
  const base = { action_id: action.id, enrollment_id: action.enrollment_id, updated_at: action.updated_at };
  const step = `Step ${action.position + 1} of journey ${journey?.name ?? action.journey_id}`;
  const failed = (code: string, status: 'failed' | 'skipped'): StepStatus => {
    const explanation = explainErrorCode(code);
    return {
      ...base,
      status,
      what_happened: `${step}: ${explanation?.what_happened ?? `the send was refused with ${code}.`}`,
      fault: explanation?.fault ?? 'platform',
      next_step: explanation?.next_step ?? `Look up ${code} at GET /v1/developer/troubleshooting/errors/${code}.`,
      error_code: code,
    };
  };
  if (action.status === 'failed' || (action.status === 'skipped' && action.error_code !== null))
    return failed(action.error_code ?? 'INVALID_STATE', action.status);
  if (action.status === 'skipped') {
    // Stopped (DELETE /v1/trigger/enrollments), or completed when the steps were replaced without this one.
    const removed = enrollment?.status === 'completed';
    return {
      ...base,
      status: 'skipped',
      what_happened: removed
        ? `${step} was not sent: the journey's steps were replaced and no longer include it.`
        : `${step} was not sent: the enrollment was stopped before it was due.`,
      fault: null,
      next_step: removed ? null : 'Trigger the journey again to enroll the phone anew.',
      error_code: null,
    };
  }
  if (action.status === 'scheduled') {
    const held = journey?.status === 'paused' || enrollment?.status !== 'active';
    return {
      ...base,
      status: 'scheduled',
      what_happened: held
        ? `${step} is held: the journey is ${journey?.status ?? 'gone'}.`
        : `${step} is scheduled for ${releasedDueAt(s, action)}.`,
      fault: null,
      next_step: held ? 'Activate the journey (POST /v1/journeys/:id/status) to resume it.' : null,
      error_code: null,
    };
  }
  const message = action.message_id === null ? undefined : s.messages.get(action.message_id);
  if (message?.delivery_status === 'failed') return failed(message.error?.code ?? '131000', 'failed');
  const delivered = message?.delivery_status === 'delivered' || message?.delivery_status === 'read';
  return {
    ...base,
    status: delivered ? 'delivered' : 'sent',
    what_happened: delivered
      ? `${step} was delivered to ${enrollment?.phone ?? 'the recipient'}.`
      : `${step} was accepted by the provider and is on its way.`,
    fault: null,
    next_step: null,
    error_code: null,
  };
}
