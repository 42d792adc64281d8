import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { EventSubscription } from '../../api/schemas/webhook-endpoint.js';
import { CliError } from '../cli-error.js';
import { issueText } from '../../internal/issue-text.js';

/**
 * What a project tells `convo-kit dev` in its package.json, under `"convo-kit"`. Every field is optional:
 * a project with none runs `src/main.ts`, receives every event at `/webhooks` and listens on PORT or 3000.
 */
export const DevManifest = z.strictObject({
  /** The app's entry point, run with tsx in watch mode. @default 'src/main.ts' */
  entry: z.string().min(1).max(500).default('src/main.ts'),
  /** Where the app mounts its receiver. @default '/webhooks' */
  webhookPath: z
    .string()
    .regex(/^\/[\w./-]{0,200}$/, 'expected a path such as /webhooks')
    .default('/webhooks'),
  /** The events the app subscribes to; `[]` for an app that takes no webhooks (nothing is registered). @default ['*'] */
  events: z.array(EventSubscription).max(50).default(['*']),
  /**
   * Where the app answers the service's custom reply calls (convo-kit/reply). On the emulator, dev points
   * the sample customer's account at it (its `custom_reply` provider, AI on) and hands the app the
   * signing secret as REPLY_SECRET. @default none
   */
  replyPath: z
    .string()
    .regex(/^\/[\w./-]{0,200}$/, 'expected a path such as /reply')
    .optional(),
  /** The port the app listens on when the settings name none. @default 3000 */
  defaultPort: z.number().int().min(1).max(65_535).default(3000),
});
export type DevManifest = z.output<typeof DevManifest>;

export interface ProjectSettings {
  dir: string;
  name: string;
  manifest: DevManifest;
  /** `.env` overlaid by the environment (the environment wins, as in the apps' own readConfig). */
  env: Record<string, string | undefined>;
}

/** Reads the project in `dir`: its package.json (`name`, `"convo-kit"`) and its `.env` when there is one. */
export function readProjectSettings(dir: string, environment: NodeJS.ProcessEnv = process.env): ProjectSettings {
  const packagePath = join(dir, 'package.json');
  if (!existsSync(packagePath)) {
    throw new CliError('USAGE', `No package.json in ${dir}.`, {
      hint: 'Run `convo-kit dev` in a project folder (one made by create-starter, for example).',
    });
  }
  let pkg: { name?: unknown; 'convo-kit'?: unknown };
  try {
    pkg = JSON.parse(readFileSync(packagePath, 'utf8')) as typeof pkg;
  } catch (cause) {
    throw new CliError('USAGE', `${packagePath} is not valid JSON.`, { cause });
  }
  const parsed = DevManifest.safeParse(pkg['convo-kit'] ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliError(
      'USAGE',
      `package.json ${issueText({ ...issue, path: ['"convo-kit"', ...issue.path] }, '"convo-kit"')}`,
    );
  }
  // Checked before anything starts: tsx watch on a missing file would wait for it to appear, and dev with it.
  if (!existsSync(join(dir, parsed.data.entry))) {
    throw new CliError('USAGE', `No ${parsed.data.entry} in ${dir}: the app's entry, which dev runs.`, {
      hint: 'Name the entry in package.json ("convo-kit": { "entry": "src/app.ts" }), or run dev in a project made by create-starter.',
    });
  }
  const envPath = join(dir, '.env');
  const fromFile = existsSync(envPath) ? parseEnv(readFileSync(envPath, 'utf8')) : {};
  return {
    dir,
    name: typeof pkg.name === 'string' ? pkg.name : 'app',
    manifest: parsed.data,
    env: { ...fromFile, ...pickDefined(environment) },
  };
}

/** The entries that have a value (an environment's unset ones left out). */
export function pickDefined(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** PORT from the settings, else the manifest's default; 0 is refused, the webhook URL needs a known port. */
export function appPort(settings: ProjectSettings): number {
  const raw = settings.env.PORT;
  if (raw === undefined || raw === '') return settings.manifest.defaultPort;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new CliError('USAGE', `PORT must be a port number from 1 to 65535, got "${raw}".`, {
      hint: 'The webhook URL is registered with this port, so it cannot be 0 under `convo-kit dev`.',
    });
  }
  return port;
}
