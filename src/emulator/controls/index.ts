import type { EmulatorControl } from '../platform/controls-router.js';
import { clockControl, resendControl, resetControl } from '../platform/platform-controls.js';
import { automationControl, automationStatusControl } from './automations.js';
import { chaosClearControl, chaosControl, rotateSecretControl } from './chaos.js';
import { commentControl } from './comment.js';
import { handoffControl } from './handoff.js';
import { inboundControl } from './inbound.js';
import { templateReviewControl } from './template-review.js';

/**
 * Every `/_emulator/*` control: the emulator mounts this list and `convo-kit openapi --emulator` documents
 * it, so a control added here is served and documented alike.
 */
export const EMULATOR_CONTROLS: readonly EmulatorControl[] = [
  clockControl,
  resetControl,
  resendControl,
  inboundControl,
  handoffControl,
  commentControl,
  templateReviewControl,
  automationControl,
  automationStatusControl,
  chaosControl,
  chaosClearControl,
  rotateSecretControl,
];
