import { z } from 'zod';
import type { EmulatorClock } from '../clock.js';
import { control, type EmulatorControl } from './controls-router.js';

/** Ten years: the same bound the clock enforces, stated where the body is checked. */
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

export const ClockBody = z.strictObject({ advance_seconds: z.number().positive().max(MAX_ADVANCE_SECONDS) });

/** `/_emulator/clock` and `/_emulator/reset`: the controls that belong to the platform rather than the resources. */
export function platformControls(deps: { clock: EmulatorClock; reset: () => void }): EmulatorControl[] {
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
      path: '/reset',
      run: () => {
        deps.reset();
        return { reset: true, now: deps.clock.iso() };
      },
    }),
  ];
}
