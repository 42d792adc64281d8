/**
 * The environment variable the CLI reads the state key from (never a flag: a flag shows in `ps`). A module
 * of its own: `convo-kit --help` names it, and must load none of the emulator's storage (test/cli/usage).
 */
export const STATE_KEY_ENV = 'CONVO_KIT_STATE_KEY';
