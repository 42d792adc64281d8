import { type Command } from 'commander';
import { signedHeaders, EVENT_HEADER } from '../../signature/index.js';
import { jsonOption, requireSecret, secretOption } from '../common-options.js';
import { err, headerCase, isInteractive, out } from '../output.js';
import { parseUnixSeconds } from '../parse-options.js';
import { readInput } from '../read-input.js';

interface SignOptions {
  secret?: string;
  timestamp?: number;
  deliveryId?: string;
  event?: string;
  json?: boolean;
}

async function runSign(file: string, options: SignOptions): Promise<void> {
  const secret = requireSecret(options.secret);
  const body = await readInput(file, 'body');
  const headers = signedHeaders({
    secret,
    body,
    timestamp: options.timestamp,
    deliveryId: options.deliveryId,
    event: options.event,
  });
  if (!headers[EVENT_HEADER])
    err.warn('the body has no `event` field, so X-Service-Event is empty; pass --event <name>.');
  if (options.json) {
    out.json(headers);
    return;
  }
  for (const [name, value] of Object.entries(headers)) out.line(`${headerCase(name)}: ${value}`);
  if (isInteractive()) {
    const source = file === '-' ? 'body.json' : file;
    err.line(err.c.dim(`# save these lines to headers.txt, then: curl -H @headers.txt --data-binary @${source} <url>`));
  }
}

export function registerSign(program: Command): void {
  program
    .command('sign')
    .summary('print signed delivery headers for a body, ready for curl')
    .description(
      'Signs a body exactly as the service signs a delivery (HMAC-SHA256 over `<timestamp>.<raw body>`) and prints the four X-Service-* headers plus Content-Type, one `Name: value` per line.',
    )
    .argument('[file]', 'the body to sign; `-` reads stdin', '-')
    .addOption(secretOption('to sign with'))
    .option('--timestamp <unix-seconds>', 'X-Service-Timestamp to sign with (default: now)', parseUnixSeconds)
    .option('--delivery-id <id>', 'X-Service-Delivery (default: a fresh dlv_… id)')
    .option('--event <name>', "X-Service-Event (default: the body's `event` field)")
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nExamples:\n  convo-kit sign --secret whsec_… body.json > headers.txt\n  curl -H @headers.txt --data-binary @body.json http://localhost:3000/webhooks\n  cat body.json | convo-kit sign --json -',
    )
    .action((file: string, options: SignOptions) => runSign(file, options));
}
