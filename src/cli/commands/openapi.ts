import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Command } from 'commander';
import { CliError } from '../cli-error.js';
import { err } from '../output.js';
import { parseHttpUrl } from '../parse-options.js';

interface OpenApiFlags {
  out?: string;
  serverUrl?: string;
}

async function runOpenapi(flags: OpenApiFlags): Promise<void> {
  const { openapi } = await import('../../api/index.js');
  const document = openapi({ serverUrl: flags.serverUrl });
  const text = JSON.stringify(document, null, 2) + '\n';
  if (!flags.out) {
    process.stdout.write(text);
    return;
  }
  const path = resolve(flags.out);
  await writeFile(path, text).catch((cause: unknown) => {
    throw new CliError('FAILED', `Cannot write ${path}: ${(cause as Error).message}`, { cause });
  });
  const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  err.line(`wrote ${path}: ${operations} operations, ${Object.keys(document.webhooks).length} webhook events`);
}

export function registerOpenapi(program: Command): void {
  program
    .command('openapi')
    .summary('print the OpenAPI 3.1 document of the API (from the contract table)')
    .description(
      'Prints (or writes) the OpenAPI 3.1 document derived from the contract table: every /v1 route and, under `webhooks`, the 14 events.',
    )
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .option('--server-url <url>', 'the server address the document names', parseHttpUrl)
    .addHelpText(
      'after',
      '\nExamples:\n  convo-kit openapi > openapi.json\n  convo-kit openapi --out openapi.json --server-url http://127.0.0.1:4010',
    )
    .action((flags: OpenApiFlags) => runOpenapi(flags));
}
