import { z } from 'zod';
import type { EmulatorClock } from '../clock.js';
import { ApiFailure } from '../api-failure.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import { control, type EmulatorControl } from './controls-router.js';

/** Ten years: the same bound the clock enforces, stated where the body is checked. */
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

/** The id of one delivery, as the attempt log shows it. */
export const ResendParams = z.strictObject({ delivery_id: z.string().regex(/^[A-Za-z0-9._:-]{1,200}$/) });

export const ClockBody = z.strictObject({ advance_seconds: z.number().positive().max(MAX_ADVANCE_SECONDS) });

/** `/_emulator/clock`, `/_emulator/reset` and a webhook delivery's resend: the controls that belong to the platform rather than the resources. */
export function platformControls(deps: {
  clock: EmulatorClock;
  reset: () => void;
  dispatcher: Pick<Dispatcher, 'resend'>;
}): EmulatorControl[] {
  return [
    control({
      path: '/clock',
      body: ClockBody,
      run: (_ctx, { body }) => {
        deps.clock.advance(body.advance_seconds);
        return { now: deps.clock.iso(), offset_seconds: deps.clock.offsetMs / 1000 };
      },
    }),
    control({
      path: '/webhooks/deliveries/:delivery_id/resend',
      params: ResendParams,
      run: (_ctx, { params }) => {
        const outcome = deps.dispatcher.resend(params.delivery_id);
        if (outcome === 'gone') {
          throw new ApiFailure(
            'NOT_FOUND',
            `Delivery ${params.delivery_id} is no longer in any endpoint's attempt log`,
          );
        }
        if (outcome === 'in_flight') {
          throw new ApiFailure(
            'INVALID_STATE',
            `Delivery ${params.delivery_id} is still being attempted; wait for it to finish`,
          );
        }
        return { resent: true, delivery_id: params.delivery_id };
      },
    }),
    control({
      path: '/reset',
      run: () => {
        deps.reset();
        return { reset: true, now: deps.clock.iso() };
      },
    }),
  ];
}
