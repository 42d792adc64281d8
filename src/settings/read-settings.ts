import { z } from 'zod';
import { ConvoKitError } from '../errors.js';
import { MissingPackageError } from '../internal/optional-package.js';
import { issuesText } from '../internal/issue-text.js';

/** One setting of an app: the environment variable it is read from, and the zod schema its text must pass. */
export interface EnvSetting<T> {
  readonly variable: string;
  readonly schema: z.ZodType<T>;
}

/** An app's settings by the names its code uses, e.g. `{ port: portSetting(3000), … }`. */
export type SettingsShape = Readonly<Record<string, EnvSetting<unknown>>>;

type ValueOf<S> = S extends EnvSetting<infer T> ? T : never;
type OptionalKeys<Shape extends SettingsShape> = {
  [K in keyof Shape]: undefined extends ValueOf<Shape[K]> ? K : never;
}[keyof Shape];

/** What readSettings answers for a shape: each setting's parsed value; one that may be unset is optional. */
export type SettingsOf<Shape extends SettingsShape> = {
  [K in Exclude<keyof Shape, OptionalKeys<Shape>>]: ValueOf<Shape[K]>;
} & { [K in OptionalKeys<Shape>]?: ValueOf<Shape[K]> };

/**
 * The variables `convo-kit dev` gives the app it runs (the service it set up and, for a reply endpoint, the
 * provider's secret): when one of these is missing, `npm run dev` is the fix.
 */
export const DEV_VARIABLES = [
  'CONVO_KIT_BASE_URL',
  'CONVO_KIT_API_KEY',
  'CONVO_KIT_WEBHOOK_SECRET',
  'REPLY_SECRET',
] as const;

/** One of DEV_VARIABLES: `convo-kit dev` sets exactly these (src/cli/dev/run-dev.ts, typed by it). */
export type DevVariable = (typeof DEV_VARIABLES)[number];

export type SettingsErrorCode = 'SETTINGS_MISSING' | 'SETTINGS_INVALID';

/** Settings an app cannot start with. The message names every variable at fault, never a value that is a secret. */
export class SettingsError extends ConvoKitError<SettingsErrorCode> {
  /** The environment variables at fault, e.g. `['CONVO_KIT_API_KEY']`. */
  readonly variables: readonly string[];

  constructor(code: SettingsErrorCode, variables: readonly string[], message: string) {
    super(code, message);
    this.variables = variables;
  }
}

/** `env[name]` as a setting reads it: empty or blank is unset, as a line `NAME=` in `.env` means. */
const valueOf = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
};

/** Declares one setting: the variable and the schema of its text (`.default()`, `.optional()` as zod has them). */
export function fromEnv<S extends z.ZodType>(variable: string, schema: S): EnvSetting<z.output<S>> {
  return { variable, schema: schema as z.ZodType<z.output<S>> };
}

export interface ReadSettingsOptions {
  /**
   * Whether `convo-kit dev` starts this program (an app's entry point), so that for a missing variable it sets
   * (DEV_VARIABLES) `npm run dev` is the fix to name. A script run by hand beside the app (a backfill, say)
   * passes false: dev gives those variables to the app it runs, not to it. @default true
   */
  startedByDev?: boolean;
}

/**
 * Reads an app's settings from the environment, each checked by its schema. Without `env`, `.env` in the
 * working directory is loaded first when there is one (Node's `process.loadEnvFile`: a variable already set
 * wins), so an app's other readers of `process.env` (OpenTelemetry's exporters, say) see it too.
 *
 * Every missing variable is named at once, in a SettingsError (`SETTINGS_MISSING`); otherwise every bad one,
 * as `VARIABLE: what is wrong` (`SETTINGS_INVALID`).
 * @example
 * const settings = readSettings({
 *   ...RECEIVER_APP_SETTINGS,
 *   port: portSetting(3000),
 *   rulesPath: fromEnv('RULES_PATH', z.string().default('./rules.json')),
 * });
 */
export function readSettings<const Shape extends SettingsShape>(
  shape: Shape,
  env: NodeJS.ProcessEnv = loadDotEnv(),
  options: ReadSettingsOptions = {},
): SettingsOf<Shape> {
  const settings = Object.entries(shape);
  const input = Object.fromEntries(settings.map(([, { variable }]) => [variable, valueOf(env, variable)]));
  const parsed = z
    .object(Object.fromEntries(settings.map(([, { variable, schema }]) => [variable, schema])))
    .safeParse(input);
  if (parsed.success)
    return Object.fromEntries(settings.map(([key, { variable }]) => [key, parsed.data[variable]])) as SettingsOf<Shape>;
  const variables = (issues: readonly z.core.$ZodIssue[]) => [...new Set(issues.map((issue) => String(issue.path[0])))];
  const missing = variables(parsed.error.issues.filter((issue) => input[String(issue.path[0])] === undefined));
  if (missing.length > 0)
    throw new SettingsError('SETTINGS_MISSING', missing, missingMessage(missing, options.startedByDev ?? true));
  const issues = parsed.error.issues;
  throw new SettingsError('SETTINGS_INVALID', variables(issues), issuesText(issues, 'settings', issues.length));
}

function missingMessage(names: readonly string[], startedByDev: boolean): string {
  const them = names.length === 1 ? 'it' : 'them';
  const fix =
    startedByDev && names.every((name) => (DEV_VARIABLES as readonly string[]).includes(name))
      ? `run \`npm run dev\` (a local emulator sets ${them} for you), or set ${them} in .env (see .env.example)`
      : `set ${them} in .env (see .env.example) or the environment`;
  return `Missing ${names.join(', ')}: ${fix}.`;
}

/**
 * For an app's entry point: runs `start` (reading settings, starting telemetry…) and answers what it answers.
 * Settings it cannot start with (SettingsError), or a package a setting needs that is not installed
 * (MissingPackageError), are their message alone on stderr and exit code 1, with no stack trace; any other
 * error is thrown on.
 * @example
 * const settings = settingsOrExit(() => readSettings(SETTINGS));
 * const telemetry = await settingsOrExit(() => startTelemetry('my-app'));
 */
export function settingsOrExit<T>(start: () => Promise<T>): Promise<T>;
export function settingsOrExit<T>(start: () => T): T;
export function settingsOrExit<T>(start: () => T | Promise<T>): T | Promise<T> {
  try {
    const result = start();
    return result instanceof Promise ? result.catch(exitOnSettingsError) : result;
  } catch (error) {
    return exitOnSettingsError(error);
  }
}

function exitOnSettingsError(error: unknown): never {
  if (!(error instanceof SettingsError || error instanceof MissingPackageError)) throw error;
  console.error(error.message);
  process.exit(1);
}

function loadDotEnv(): NodeJS.ProcessEnv {
  try {
    process.loadEnvFile('.env');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return process.env;
}
