import type { EmulatorControl } from '../platform/controls-router.js';
import { handoffControl } from './handoff.js';
import { inboundControl } from './inbound.js';
import { templateReviewControl } from './template-review.js';

export { receiveInbound, InboundBody, STOP_WORDS, START_WORDS, type InboundResult } from './inbound.js';
export { handOff, HandoffBody } from './handoff.js';
export { reviewTemplate, TemplateReviewBody } from './template-review.js';

/** The `/_emulator/*` controls that play the customer and the provider (the platform adds clock and reset). */
export const resourceControls: readonly EmulatorControl[] = [inboundControl, handoffControl, templateReviewControl];
