import { type Command } from 'commander';
import { dbOption, jsonOption } from '../common-options.js';
import { type ListOptions } from '../deliveries/list-deliveries.js';
import { addSelectionOptions } from '../deliveries/select.js';
import { type ShowOptions } from '../deliveries/show-delivery.js';

export function registerDeliveries(program: Command): void {
  const deliveries = program
    .command('deliveries')
    .summary('list and inspect the deliveries a receiver stored')
    .description(
      'Reads the delivery database written by `convo-kit listen` (or by your own receiver with dbPath, or a PostgreSQL store given as --db postgres://…): what arrived, what failed and why.',
    );

  addSelectionOptions(
    deliveries
      .command('list')
      .summary('list stored deliveries, newest first')
      .description('Lists stored deliveries, newest first, filtered by status, event pattern and time range.'),
    { limit: 50 },
  )
    .addOption(dbOption())
    .addOption(jsonOption())
    .addHelpText(
      'after',
      "\nExamples:\n  convo-kit deliveries list --status dead --since 1h\n  convo-kit deliveries list --event 'ticket.*' --json",
    )
    .action(async (options: ListOptions) => (await import('../deliveries/list-deliveries.js')).listDeliveries(options));

  deliveries
    .command('show')
    .summary('print one delivery: headers, payload and attempt history')
    .argument('<id>', 'the delivery id (X-Service-Delivery), dlv_…')
    .addOption(dbOption())
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nExamples:\n  convo-kit deliveries show dlv_…\n  convo-kit deliveries show dlv_… --db postgres://user@db.internal:5432/app --json',
    )
    .action(async (id: string, options: ShowOptions) =>
      (await import('../deliveries/show-delivery.js')).showDelivery(id, options),
    );
}
