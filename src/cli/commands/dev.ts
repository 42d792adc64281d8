import { InvalidArgumentError, Option, type Command } from 'commander';
import { WebhookUrl } from '../../api/schemas/webhook-endpoint.js';
import { type DevFlags } from '../dev/run-dev.js';
import { parsePort } from '../parse-options.js';
import { parseEmulatorKey } from './emulator.js';

/** What the service registers (a public https:// URL), checked before anything starts rather than at registration. */
function parsePublicUrl(value: string): string {
  const checked = WebhookUrl.safeParse(value.trim());
  if (!checked.success)
    throw new InvalidArgumentError(
      `Expected a public https:// URL of a tunnel to the app (${checked.error.issues[0]!.message}), got \`${value}\`.`,
    );
  return value.trim();
}

export function registerDev(program: Command): void {
  program
    .command('dev')
    .summary('run your app against the emulator: webhook registered, secret handed over, watch mode')
    .description(
      'Starts the emulator (or uses the service named by CONVO_KIT_BASE_URL and CONVO_KIT_API_KEY in .env or the environment), ' +
        "registers the app's webhook, starts the app with tsx in watch mode with its key and secret in its environment (never printed), " +
        'writes in once as a sample customer, and prints what to try next. The project\'s package.json may say, under "convo-kit": ' +
        'entry (default src/main.ts), webhookPath (/webhooks), events (["*"]; [] for no webhook), replyPath (a custom reply ' +
        "endpoint: on the emulator, the sample account's provider points at it and the app gets REPLY_SECRET) and " +
        'defaultPort (3000); PORT in .env wins.',
    )
    .option('-C, --dir <dir>', 'the project folder', '.')
    .option('--emulator', 'use a local emulator even when the settings name a service')
    .addOption(
      new Option('--emulator-port <port>', 'port of the emulator (a free one when taken)')
        .argParser(parsePort)
        .default(4010),
    )
    .addOption(
      new Option('--admin-key <svc_live_…>', "the emulator's admin key (default: generated)")
        .argParser(parseEmulatorKey('--admin-key', 'live'))
        .env('CONVO_KIT_EMULATOR_ADMIN_KEY'),
    )
    .addOption(
      new Option('--public-url <url>', 'public https URL of the app (a tunnel), to register with a real service')
        .argParser(parsePublicUrl)
        .env('CONVO_KIT_PUBLIC_URL'),
    )
    .option('--no-watch', 'run the app once, without restarting it on changes')
    .option('--no-sample', 'do not write in as a sample customer once the app is up')
    .addHelpText(
      'after',
      '\nExamples:\n  npm run dev            # in a project made by create-starter\n  convo-kit dev --no-sample --emulator-port 0',
    )
    .action(async (flags: DevFlags) => (await import('../dev/run-dev.js')).runDev(flags));
}
