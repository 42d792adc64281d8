import PQueue from 'p-queue';
import { type DeliveryStore, type DeliverySummary } from '../../store/index.js';
import { CliError } from '../cli-error.js';
import { deliveriesTable, shorten, summaryJson } from '../deliveries/format.js';
import { openExistingStore } from '../deliveries/open-store.js';
import { err, isInteractive, out } from '../output.js';
import { chooseDeliveries, type ChoiceOptions } from './choose-deliveries.js';
import { loadHandlers } from './load-handlers.js';
import { startProgress } from './progress.js';
import { handlersTarget, urlTarget, type ReplayResult, type ReplayTarget } from './replay-target.js';

export interface ReplayOptions extends ChoiceOptions {
  db: string;
  /** Whether --db was given (not the default): with a receiver module it is ignored, so say so. */
  dbGiven: boolean;
  handlers?: string;
  to?: string;
  secret?: string;
  newIds?: boolean;
  /** With --handlers: clear each replayed delivery's step journal first. */
  rerunSteps?: boolean;
  dryRun?: boolean;
  concurrency: number;
  rate?: number;
  timeout: number;
  json?: boolean;
}

interface Setup {
  store: DeliveryStore;
  target: ReplayTarget | undefined;
  destination: string;
  close(): Promise<void>;
}

async function setUp(options: ReplayOptions): Promise<Setup> {
  if (options.handlers) {
    const loaded = await loadHandlers(options.handlers, () => openExistingStore(options.db), options.secret);
    if (loaded.ownStore && options.dbGiven)
      err.warn(`--db is ignored: the receiver exported by ${options.handlers} replays from its own store.`);
    return {
      store: loaded.receiver.store,
      target: handlersTarget(loaded.receiver, { rerunSteps: options.rerunSteps === true }),
      destination: `the handlers in ${options.handlers}`,
      close: loaded.close,
    };
  }
  const store = await openExistingStore(options.db);
  // A dry run signs nothing, so it needs no secret (README: `replay … --to <url> --dry-run`).
  const target =
    options.to && !options.dryRun
      ? urlTarget({
          store,
          url: options.to,
          secret: options.secret!,
          newIds: Boolean(options.newIds),
          timeoutMs: options.timeout,
        })
      : undefined;
  return { store, target, destination: options.to ?? '', close: () => store.close() };
}

function checkCombination(options: ReplayOptions): void {
  if (options.handlers && options.to) throw new CliError('USAGE', 'Give either --handlers or --to, not both.');
  if (!options.handlers && !options.to && !options.dryRun) {
    throw new CliError('USAGE', 'Nowhere to replay to.', {
      hint: 'Pass --handlers ./path/to/module (your handlers) or --to <url> (fresh signed POSTs), or --dry-run to list what would run.',
    });
  }
  if (options.to && !options.secret && !options.dryRun)
    throw new CliError(
      'USAGE',
      'Replaying to a URL signs each delivery: pass --secret whsec_… (or set CONVO_KIT_WEBHOOK_SECRET).',
    );
  if (options.newIds && !options.to) throw new CliError('USAGE', '--new-ids only applies with --to.');
  if (options.rerunSteps && !options.handlers)
    throw new CliError(
      'USAGE',
      '--rerun-steps only applies with --handlers: steps are journaled by the handlers that run them.',
    );
}

async function runAll(
  rows: readonly DeliverySummary[],
  target: ReplayTarget,
  options: ReplayOptions,
): Promise<ReplayResult[]> {
  const queue = new PQueue({
    concurrency: options.concurrency,
    ...(options.rate && { intervalCap: options.rate, interval: 1000, strict: true }),
  });
  const progress = isInteractive() && !options.json ? startProgress(rows.length) : undefined;
  try {
    return await Promise.all(
      rows.map((row) =>
        queue.add(async () => {
          const result = await target(row).catch(
            (error: unknown): ReplayResult => ({
              id: row.id,
              event: row.event,
              outcome: 'dead',
              error: (error as Error).message,
            }),
          );
          progress?.increment();
          return result;
        }),
      ),
    );
  } finally {
    progress?.stop();
  }
}

function report(results: readonly ReplayResult[], destination: string, json: boolean): void {
  const succeeded = results.filter((r) => r.outcome === 'done').length;
  const skipped = results.filter((r) => r.outcome === 'busy' || r.outcome === 'missing').length;
  const failed = results.length - succeeded - skipped;
  if (json) {
    out.json({
      ran: results.length - skipped,
      succeeded,
      failed,
      skipped,
      results: results.map(({ sentAs, ...r }) => ({ ...r, ...(sentAs && { sent_as: sentAs }) })),
    });
  } else {
    for (const r of results.filter((x) => x.outcome !== 'done')) {
      const label = r.outcome === 'dead' ? out.c.red('failed') : out.c.yellow('skipped');
      out.line(`${label}  ${r.event}  ${r.id}  ${shorten(r.error ?? '', 160)}`);
    }
    const summary = `replayed ${results.length - skipped} to ${destination}: ${succeeded} succeeded, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    out.line(failed || skipped ? out.c.yellow(summary) : out.c.green(summary));
  }
  if (failed || skipped) process.exitCode = 1;
}

export async function runReplay(options: ReplayOptions): Promise<void> {
  checkCombination(options);
  const setup = await setUp(options);
  try {
    const { rows, more } = await chooseDeliveries(setup.store, options);
    if (more)
      err.warn(
        `more deliveries match than --limit ${options.limit}; this run takes the newest ${options.limit} of them (oldest first). For the older ones, raise --limit or set --until.`,
      );
    if (options.dryRun) {
      if (options.json) out.json(rows.map(summaryJson));
      else if (rows.length === 0) out.line('Nothing matches: nothing would be replayed.');
      else {
        for (const line of deliveriesTable(rows)) out.line(line);
        out.line(
          `dry run: ${rows.length === 1 ? '1 delivery' : `${rows.length} deliveries`} would be replayed${setup.destination ? ` to ${setup.destination}` : ''}; nothing was sent or changed.`,
        );
      }
      return;
    }
    if (rows.length === 0) {
      if (options.json) out.json({ ran: 0, succeeded: 0, failed: 0, skipped: 0, results: [] });
      else out.line('Nothing matches: nothing to replay.');
      return;
    }
    report(await runAll(rows, setup.target!, options), setup.destination, Boolean(options.json));
  } finally {
    await setup.close();
  }
}
