import { InvalidArgumentError, type Command } from 'commander';
import { EVENT_NAMES, isEventName, type EventName } from '../../events/index.js';
import { CliError } from '../cli-error.js';
import { closestName } from '../../internal/closest-name.js';
import { jsonOption, requireSecret, secretOption } from '../common-options.js';
import { out } from '../output.js';
import { collect, parseHttpUrl, parseInteger } from '../parse-options.js';
import { DELIVERY_DEADLINE_MS } from '../../signature/index.js';
import { answerText, postSigned, PostFailedError } from '../post-signed.js';
import { buildEvent, type BuildOptions } from '../trigger/build-event.js';

interface TriggerOptions extends BuildOptions {
  to?: string;
  secret?: string;
  deliveryId?: string;
  timeout: number;
  json?: boolean;
}

function parseEventName(value: string): EventName {
  if (!isEventName(value)) {
    const meant = closestName(value, EVENT_NAMES);
    throw new InvalidArgumentError(
      `Unknown event \`${value}\`${meant ? ` (did you mean ${meant}?)` : ''}; expected one of:\n  ${EVENT_NAMES.join('\n  ')}`,
    );
  }
  return value;
}

async function runTrigger(event: EventName, options: TriggerOptions): Promise<void> {
  // Checked here, not by commander's requiredOption, which reports a missing --to before an unknown option:
  // `--url http://…` would be told that --to is missing, never that --url is not an option.
  if (options.to === undefined)
    throw new CliError('USAGE', "required option '--to <url>' not specified", {
      hint: 'Name the receiver to send to: --to http://localhost:3000/webhooks',
    });
  const url = options.to;
  const secret = requireSecret(options.secret);
  const envelope = await buildEvent(event, options);
  const body = JSON.stringify(envelope);
  let result;
  try {
    result = await postSigned({
      url,
      body,
      secret,
      deliveryId: options.deliveryId,
      event,
      timeoutMs: options.timeout,
    });
  } catch (error) {
    if (!(error instanceof PostFailedError)) throw error;
    throw new CliError('FAILED', error.message, {
      cause: error,
      hint: 'Is the receiver running, and is --to its full URL (with the path, e.g. /webhooks)?',
    });
  }
  if (options.json) {
    out.json({
      event,
      delivery_id: result.deliveryId,
      url,
      status: result.status,
      ok: result.ok,
      response: result.body,
      payload: envelope,
    });
  } else {
    const status = result.ok ? out.c.green(String(result.status)) : out.c.red(String(result.status));
    out.line(`${status} ${event} ${result.deliveryId} -> ${url}`);
    if (!result.ok && result.body) out.line(out.c.dim(answerText(result.body)));
  }
  if (!result.ok) process.exitCode = 1;
}

const EXAMPLES = [
  '',
  'Examples:',
  '  convo-kit trigger ticket.created --to http://localhost:3000/webhooks --secret whsec_…',
  `  convo-kit trigger message.received --to http://localhost:3000/webhooks --set content='Where is my order?'`,
  `  convo-kit trigger conversation.created --to http://localhost:3000/webhooks --set customer.name=Ana --set tags='["vip"]'`,
  '  convo-kit trigger contact.updated --to http://localhost:3000/webhooks --data ./contact.json',
].join('\n');

export function registerTrigger(program: Command): void {
  program
    .command('trigger')
    .summary('send a realistic signed sample of an event to a receiver')
    .description(
      'Sends a signed sample delivery of one of the 14 events, exactly as the service would, and prints the answer. Exits 1 unless the receiver answers 2xx.',
    )
    .argument('<event>', `one of: ${EVENT_NAMES.join(', ')}`, parseEventName)
    .option('--to <url>', 'the receiver URL, e.g. http://localhost:3000/webhooks', parseHttpUrl)
    .addOption(secretOption('to sign with'))
    .option('--data <file>', "JSON object deep-merged into the sample's `data` (`-` reads stdin)")
    .option(
      '--set <path=value>',
      'set one field inside `data` (repeatable); value is JSON when it parses, else text',
      collect,
    )
    .option('--no-validate', "send even when the overrides break the event's schema")
    .option('--delivery-id <id>', 'X-Service-Delivery (default: a fresh dlv_… id); reuse one to test deduplication')
    .option(
      '--timeout <ms>',
      'give up waiting for the answer after this long',
      parseInteger(1, 600_000),
      DELIVERY_DEADLINE_MS,
    )
    .addOption(jsonOption())
    .addHelpText('after', EXAMPLES)
    .action((event: EventName, options: TriggerOptions) => runTrigger(event, options));
}
