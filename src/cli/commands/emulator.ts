import { InvalidArgumentError, Option, type Command } from 'commander';
import { allEndpoints } from '../../api/all-endpoints.js';
import { PLAN_RATE_LIMITS } from '../../api/plans.js';
import { CHAOS_PRESETS } from '../../emulator/chaos/chaos-rule.js';
import { KEY_FORMAT } from '../../emulator/state/key-store.js';
import { STATE_KEY_ENV } from '../../emulator/saved-state/state-key-env.js';
import { CliError } from '../cli-error.js';
import { parseInteger, parsePort } from '../parse-options.js';
import type { EmulatorFlags } from '../emulator/emulator-flags.js';

/** `60,600`: seconds between webhook attempts after a failure (docs/emulator.md). */
function parseDelays(value: string): number[] {
  const delays = value.split(',').map((part) => part.trim());
  if (delays.length > 10 || delays.some((d) => !/^\d{1,6}$/.test(d))) {
    throw new InvalidArgumentError(
      `Expected up to 10 comma-separated whole seconds such as 60,600 (or 1,2 in tests), got \`${value}\`.`,
    );
  }
  return delays.map(Number);
}

/**
 * `--admin-key`/`--test-key`: checked before anything starts, and never echoed (commander's own message
 * would quote the value, and a key is a secret), so the error says its length only.
 */
export function parseEmulatorKey(option: string, kind: 'live' | 'test'): (value: string) => string {
  return (value) => {
    if (KEY_FORMAT.test(value) && value.startsWith(`svc_${kind}_`)) return value;
    throw new CliError(
      'USAGE',
      `${option} must be svc_${kind}_ followed by 32 url-safe characters (a value of ${value.length} characters arrived).`,
      { hint: `Leave out ${option} (and its variable) to have a valid one generated.` },
    );
  };
}

export function registerEmulator(program: Command): void {
  const summary = `every /v1 route of the contract (${allEndpoints().length})`;
  program
    .command('emulator')
    .summary(`run the service locally: ${summary}, signed webhooks, /_emulator controls`)
    .description(
      `Runs a local emulator of the messaging service, built from the same contract table as the client. Prints its base URL, and the keys it generated (never ones it was given). It answers ${summary}. GET /v1/developer/capabilities lists what it leaves out under automations.not_emulated (automations only send: no closing, assigning or tagging, no other triggers or cooldowns; docs/automations.md).`,
    )
    .addOption(
      new Option('-p, --port <port>', 'port to listen on (0 picks a free one)').argParser(parsePort).default(4010),
    )
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .addOption(new Option('--db <file>', 'SQLite file that survives restarts (default: in memory)'))
    .addOption(
      new Option('--admin-key <svc_live_…>', 'the admin key (default: generated)')
        .argParser(parseEmulatorKey('--admin-key', 'live'))
        .env('CONVO_KIT_EMULATOR_ADMIN_KEY'),
    )
    .addOption(
      new Option('--test-key <svc_test_…>', 'the test key (default: generated)')
        .argParser(parseEmulatorKey('--test-key', 'test'))
        .env('CONVO_KIT_EMULATOR_TEST_KEY'),
    )
    .addOption(
      new Option('--plan <tier>', 'plan tier: rate limit and read-only rules')
        .choices(Object.keys(PLAN_RATE_LIMITS))
        .default('dev_pro'),
    )
    .option('--retry-delays <s,s>', 'seconds between webhook attempts after a failure (default: 60,600)', parseDelays)
    .option('--seed <chats>', 'size of the seeded workspace (generated chats)', parseInteger(0, 1_000_000))
    .option(
      '--allow-public-webhooks',
      'also deliver webhooks to public hosts (default: loopback receivers only; private addresses never)',
    )
    .addOption(
      new Option(
        '--chaos <preset>',
        'start with delivery hazards for every endpoint (docs/emulator.md, Chaos)',
      ).choices(Object.keys(CHAOS_PRESETS)),
    )
    .option(
      '--import <file-or-dir>',
      `start from a state document or directory (GET /_emulator/state, --export-on-exit) instead of the seed; secrets open with ${STATE_KEY_ENV}`,
    )
    .option(
      '--export-on-exit [file-or-dir]',
      `on Ctrl-C, SIGTERM or SIGHUP write the whole state there (default: the --import one), atomically; a path with no .json extension, ending in /, or an existing directory is a directory of one JSON file per collection; secrets sealed with ${STATE_KEY_ENV}, left out without it`,
    )
    .option('--json', 'print the URL and the generated keys as one JSON line on stdout')
    .addHelpText(
      'after',
      '\nExamples:\n  convo-kit emulator\n  convo-kit emulator --port 4010 --db ./emulator.db --retry-delays 1,2\n  convo-kit emulator --chaos bad-day --retry-delays 1,2\n  CONVO_KIT_STATE_KEY=… convo-kit emulator --import ./fixture.json --export-on-exit\n  CONVO_KIT_STATE_KEY=… convo-kit emulator --import ./fixture/ --export-on-exit',
    )
    .action(async (flags: EmulatorFlags) => (await import('../emulator/run-emulator.js')).runEmulator(flags));
}
