import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Command } from 'commander';
import type { OpenApiDocument, OpenApiPaths } from '../../api/openapi/openapi.js';
import { openapiText } from '../../api/openapi/openapi-text.js';
import { CliError } from '../cli-error.js';
import { err } from '../output.js';
import { parseHttpUrl } from '../parse-options.js';

interface OpenApiFlags {
  out?: string;
  serverUrl?: string;
  emulator?: boolean;
}

async function runOpenapi(flags: OpenApiFlags): Promise<void> {
  const document: OpenApiPaths & Partial<Pick<OpenApiDocument, 'webhooks'>> = flags.emulator
    ? (await import('../../emulator/controls/controls-openapi.js')).controlsOpenapi({ serverUrl: flags.serverUrl })
    : (await import('../../api/index.js')).openapi({ serverUrl: flags.serverUrl });
  const text = openapiText(document);
  if (!flags.out) {
    process.stdout.write(text);
    return;
  }
  const path = resolve(flags.out);
  await writeFile(path, text).catch((cause: unknown) => {
    throw new CliError('FAILED', `Cannot write ${path}: ${(cause as Error).message}`, { cause });
  });
  const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  const events = document.webhooks ? `, ${Object.keys(document.webhooks).length} webhook events` : '';
  err.line(`wrote ${path}: ${operations} operations${events}`);
}

export function registerOpenapi(program: Command): void {
  program
    .command('openapi')
    .summary('print the OpenAPI 3.1 document of the API (from the contract table)')
    .description(
      'Prints (or writes) the OpenAPI 3.1 document derived from the contract table: every /v1 route and, under `webhooks`, the 14 events. ' +
        "With --emulator, the emulator's own /_emulator controls instead, in a document of their own: they are not routes of the service.",
    )
    .option('--emulator', "document the emulator's /_emulator controls instead of the service")
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .option('--server-url <url>', 'the server address the document names', parseHttpUrl)
    .addHelpText(
      'after',
      '\nExamples:\n  convo-kit openapi > openapi.json\n  convo-kit openapi --out openapi.json --server-url http://127.0.0.1:4010\n  convo-kit openapi --emulator > emulator-controls.json',
    )
    .action((flags: OpenApiFlags) => runOpenapi(flags));
}
