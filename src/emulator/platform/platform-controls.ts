import { z } from 'zod';
import { Timestamp } from '../../api/schemas/common.js';
import { ApiFailure } from '../api-failure.js';
import { control } from './controls-router.js';

/** Ten years: the same bound the clock enforces, stated where the body is checked. */
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

/** The id of one delivery, as the attempt log shows it. */
export const ResendParams = z.strictObject({ delivery_id: z.string().regex(/^[A-Za-z0-9._:-]{1,200}$/) });

export const ClockBody = z.strictObject({ advance_seconds: z.number().positive().max(MAX_ADVANCE_SECONDS) });

export const ClockState = z.object({
  now: Timestamp,
  /** How far the emulator's clock is ahead of real time, in total (behind it, negative, after an import of an earlier state). */
  offset_seconds: z.number(),
});

/** `/_emulator/clock`: moves the clock that every time-based rule reads. */
export const clockControl = control({
  path: '/clock',
  summary:
    "Move the emulator's clock forward: service windows, retries, key grace periods, journey delays and schedules follow",
  body: ClockBody,
  response: ClockState,
  run: ({ clock }, { body }) => {
    clock.advance(body.advance_seconds);
    return { now: clock.iso(), offset_seconds: clock.offsetMs / 1000 };
  },
});

/** `/_emulator/webhooks/deliveries/:delivery_id/resend`: one delivery again, now. */
export const resendControl = control({
  path: '/webhooks/deliveries/:delivery_id/resend',
  summary: "Send a webhook delivery again now, as long as it is in an endpoint's attempt log",
  params: ResendParams,
  response: z.object({ resent: z.literal(true), delivery_id: z.string() }),
  errors: ['INVALID_STATE'],
  run: ({ dispatcher }, { params }) => {
    const outcome = dispatcher.resend(params.delivery_id);
    if (outcome === 'gone') {
      throw new ApiFailure('NOT_FOUND', `Delivery ${params.delivery_id} is no longer in any endpoint's attempt log`);
    }
    if (outcome === 'in_flight') {
      throw new ApiFailure(
        'INVALID_STATE',
        `Delivery ${params.delivery_id} is still being attempted; wait for it to finish`,
      );
    }
    return { resent: true, delivery_id: params.delivery_id };
  },
});

/** `/_emulator/reset`: back to the seed. */
export const resetControl = control({
  path: '/reset',
  summary:
    'Back to the seeded state: resources, and no key made through the API, no webhook endpoint, delivery, ' +
    'idempotency record or request count (the clock stays)',
  response: z.object({ reset: z.literal(true), now: Timestamp }),
  run: ({ clock, reset }) => {
    reset();
    return { reset: true, now: clock.iso() };
  },
});
