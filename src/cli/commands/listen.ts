import { Option, type Command } from 'commander';
import { dbOption, jsonOption, requireSecret, secretOption } from '../common-options.js';
import { type ListenOptions } from '../listen/run-listen.js';
import { parseHttpUrl, parseInteger, parsePort, parseUrlPath } from '../parse-options.js';
import { DELIVERY_DEADLINE_MS } from '../../signature/index.js';

type ListenFlags = Omit<ListenOptions, 'secret'> & { secret?: string };

export function registerListen(program: Command): void {
  program
    .command('listen')
    .summary('run a standalone receiver: verify, store and print each delivery')
    .description(
      'Runs a verified, durable receiver: each delivery is checked, stored in --db and printed on one line (time, event, delivery id, outcome). ' +
        'With --forward-to it relays each stored delivery to your app, re-signed with the same secret (same delivery id, fresh timestamp), retrying while the app is down.',
    )
    .addOption(
      new Option('-p, --port <port>', 'port to listen on (0 picks a free one)').argParser(parsePort).default(3000),
    )
    .option('--host <host>', 'interface to listen on (0.0.0.0 for every one)', '127.0.0.1')
    .option('--path <path>', 'URL path deliveries are POSTed to', parseUrlPath, '/webhooks')
    .addOption(secretOption('that signs the deliveries'))
    .addOption(dbOption())
    .option('--forward-to <url>', 'relay each delivery to your app at this URL', parseHttpUrl)
    .option('--max-attempts <n>', 'forward attempts before a delivery is dead (replayable)', parseInteger(1, 1000), 20)
    .option(
      '--retry-delay <ms>',
      'first retry after this long, doubling up to a minute',
      parseInteger(1, 3_600_000),
      1000,
    )
    .option(
      '--forward-timeout <ms>',
      "how long to wait for the app's answer",
      parseInteger(1, 600_000),
      DELIVERY_DEADLINE_MS,
    )
    .option(
      '--tolerance <seconds>',
      'accepted distance of X-Service-Timestamp from our clock',
      parseInteger(0, 86_400),
      300,
    )
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nExamples:\n  convo-kit listen --port 3000 --secret whsec_…\n  convo-kit listen --forward-to http://localhost:4000/webhooks --db ./deliveries.db\n  convo-kit listen --db postgres://user@db.internal:5432/app   (several listeners share one inbox)',
    )
    .action(async (flags: ListenFlags) => {
      const secret = requireSecret(flags.secret);
      await (await import('../listen/run-listen.js')).runListen({ ...flags, secret });
    });
}
