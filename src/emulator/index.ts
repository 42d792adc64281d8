// `convo-kit/emulator`: what a user of the emulator needs to run it in a test or a script, and no more.
// The emulator's parts (route handlers, platform, dispatcher, state) are internal; our own tests import
// them by path.
export { createEmulator, LOG_REDACT_PATHS, type Emulator, type EmulatorOptions } from './create-emulator.js';
export { startEmulator, type StartOptions, type StartedEmulator } from './start.js';
export { SEED_IDS, DEFAULT_STAGES } from './seed.js';
export { emulatorPost } from './emulator-post.js';
