import type { Plan } from '../../api/plans.js';
import type { ChaosPreset } from '../../emulator/chaos/chaos-rule.js';

/** `convo-kit emulator`'s flags as commander parses them (src/cli/commands/emulator.ts declares them). */
export interface EmulatorFlags {
  port: number;
  host: string;
  db?: string;
  adminKey?: string;
  testKey?: string;
  plan: Plan;
  retryDelays?: number[];
  seed?: number;
  json?: boolean;
  allowPublicWebhooks?: boolean;
  chaos?: ChaosPreset;
  /** A state document to start from (`--import <file>`). */
  import?: string;
  /** Where to write the state on exit; `true` (no value) is the --import file. */
  exportOnExit?: string | true;
}
