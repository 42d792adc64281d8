import { type Command } from 'commander';
import { registerDeliveries } from './deliveries.js';
import { registerEmulator } from './emulator.js';
import { registerListen } from './listen.js';
import { registerOpenapi } from './openapi.js';
import { registerReplay } from './replay.js';
import { registerSign } from './sign.js';
import { registerTrigger } from './trigger.js';

/** Every command, in the order `convo-kit --help` lists them. */
export const COMMANDS: ReadonlyArray<(program: Command) => void> = [
  registerListen,
  registerDeliveries,
  registerReplay,
  registerTrigger,
  registerSign,
  registerEmulator,
  registerOpenapi,
];
