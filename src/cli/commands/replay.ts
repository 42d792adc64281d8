import { type Command } from 'commander';
import { dbOption, jsonOption, secretOption } from '../common-options.js';
import { addSelectionOptions } from '../deliveries/select.js';
import { collect, parseHttpUrl, parseInteger } from '../parse-options.js';
import { DELIVERY_DEADLINE_MS } from '../../signature/index.js';
import { type ReplayOptions } from '../replay/run-replay.js';

const EXAMPLES = [
  '',
  'Examples:',
  '  convo-kit replay --status dead --handlers ./src/webhooks.ts',
  '  convo-kit replay --id dlv_… --handlers ./src/webhooks.ts --rerun-steps',
  '  convo-kit replay --id dlv_… --id dlv_… --to http://localhost:3000/webhooks --secret whsec_…',
  "  convo-kit replay --event 'ticket.*' --since 2h --status all --to https://staging.example.com/webhooks --new-ids --rate 5",
  '  convo-kit replay --status failed,dead --dry-run',
].join('\n');

export function registerReplay(program: Command): void {
  const command = program
    .command('replay')
    .summary('re-run stored deliveries into your handlers or as signed POSTs to a URL')
    .description(
      'Re-runs stored deliveries, oldest first: into your own handlers (--handlers) or as fresh signed POSTs (--to: new timestamp, same delivery id unless --new-ids, which also gives the body a new event id). ' +
        'Each delivery it re-runs becomes done, or dead with the error; nothing else it stored changes. Without --id, it picks dead deliveries unless --status says otherwise.',
    )
    .option('--id <id>', 'a delivery id to replay, any status (repeatable)', collect);
  addSelectionOptions(command, { limit: 1000, status: 'dead, or any status with --id' })
    .addOption(dbOption())
    .option(
      '--handlers <module>',
      'a module exporting a configured receiver (default or `receiver`) or a `handlers` object',
    )
    .option('--to <url>', 'POST each delivery to this URL, re-signed', parseHttpUrl)
    .addOption(
      secretOption(
        'to re-sign with (with --to); with --handlers and a handlers object, hidden from the handler errors kept and printed',
      ),
    )
    .option(
      '--new-ids',
      'with --to: send each under a fresh delivery id and event id, so the receiver does not deduplicate it',
    )
    .option(
      '--rerun-steps',
      "with --handlers: forget each delivery's journaled steps first, so ctx.step, ctx.client and ctx.transaction run them again (by default a replay keeps them: what happened is not done again)",
    )
    .option('--dry-run', 'list what would be replayed; send and change nothing')
    .option('--concurrency <n>', 'deliveries running at once (1 keeps arrival order)', parseInteger(1, 100), 1)
    .option('--rate <per-second>', 'start at most this many per second', parseInteger(1, 10_000))
    .option(
      '--timeout <ms>',
      'with --to: how long to wait for each answer',
      parseInteger(1, 600_000),
      DELIVERY_DEADLINE_MS,
    )
    .addOption(jsonOption())
    .addHelpText('after', EXAMPLES)
    .action(async (flags: Omit<ReplayOptions, 'dbGiven'>) => {
      const dbGiven = command.getOptionValueSource('db') === 'cli' || command.getOptionValueSource('db') === 'env';
      await (await import('../replay/run-replay.js')).runReplay({ ...flags, dbGiven });
    });
}
