import { z } from 'zod';
import { PhoneNumber, TemplateVariables, Timestamp, TimestampInput } from './common.js';

/** POST /v1/events: an external business event (`order.shipped`) for a phone; journeys mapped to it enroll the phone. */
/** A business event's name (`order.shipped`): what POST /v1/events fires and a journey's `events` list. */
export const BusinessEventName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_.:-]{0,99}$/, 'expected a lower-case event name such as order.shipped')
  .meta({ examples: ['order.shipped'] });

export const BusinessEventFire = z.strictObject({
  event: BusinessEventName,
  phone: PhoneNumber,
  /** @default {} */
  metadata: TemplateVariables.optional(),
  /** @default now */
  occurred_at: TimestampInput.optional(),
});

/** Accepted: the journeys it matched and the enrollments it started (none is not an error). */
export const BusinessEventAccepted = z.looseObject({
  id: z.string(),
  event: z.string(),
  matched_journeys: z.array(z.string()),
  enrollment_ids: z.array(z.string()),
  created_at: Timestamp,
});
