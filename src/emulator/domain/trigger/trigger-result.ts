import type { z } from 'zod';
import type { TriggerResult } from '../../../resources/index.js';
import type { EnrollmentRecord } from '../../state/records.js';

/** The answer to a trigger: the enrollment and where to follow its first step. */
export function triggerResult(enrollment: EnrollmentRecord): z.input<typeof TriggerResult> {
  const actionId = enrollment.action_ids[0]!;
  return {
    enrollment_id: enrollment.id,
    journey_id: enrollment.journey_id,
    action_id: actionId,
    status_url: `/v1/trigger/status/${actionId}`,
    created_at: enrollment.created_at,
  };
}
