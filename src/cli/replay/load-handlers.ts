import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { pino } from 'pino';
import { isEventPattern, type EventPattern } from '../../events/index.js';
import { createReceiver, type EventHandler, type Receiver } from '../../receiver/index.js';
import { type DeliveryStore } from '../../store/index.js';
import { CliError } from '../cli-error.js';
import { shorten } from '../deliveries/format.js';
import { reportError } from '../report-error.js';

export interface LoadedHandlers {
  receiver: Receiver;
  /** True when the module brought its own configured receiver (and so its own store). */
  ownStore: boolean;
  close(): Promise<void>;
}

type HandlerMap = Record<string, EventHandler>;

/**
 * Replay never verifies a request (the rows were verified when they arrived), but createReceiver wants a
 * secret; given one (--secret), the receiver made here also hides it in the handler errors it keeps and prints.
 */
const UNUSED_SECRET = 'whsec_replay_runs_stored_deliveries_only';

function isReceiver(value: unknown): value is Receiver {
  const r = value as Partial<Receiver> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.on === 'function' &&
    typeof r.close === 'function' &&
    typeof r.store === 'object'
  );
}

/** Why `value` is not a handlers object, or undefined when it is one. */
function handlerMapProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not an object';
  const entries = Object.entries(value);
  if (entries.length === 0) return 'is empty';
  for (const [key, fn] of entries) {
    if (!isEventPattern(key)) return `has the key '${shorten(key, 60)}', which is not an event name or pattern`;
    if (typeof fn !== 'function') return `has a ${typeof fn} under '${key}', not a function`;
  }
  return undefined;
}

function isHandlerMap(value: unknown): value is HandlerMap {
  return handlerMapProblem(value) === undefined;
}

/** Names what the module does export, so a user sees which export went wrong. */
function exportsDetail(mod: Record<string, unknown>): string {
  if (mod.handlers !== undefined) return `: its \`handlers\` export ${handlerMapProblem(mod.handlers)}`;
  const names = Object.keys(mod);
  return names.length === 0 ? ' (it exports nothing)' : ` (it exports ${shorten(names.join(', '), 200)})`;
}

const SHAPE_HELP =
  'Export a configured receiver (`export default createReceiver({ … })` or `export const receiver = …`, with its handlers registered and without calling start()), ' +
  "or a handlers object (`export const handlers = { 'ticket.created': async ({ data }) => { … } }`).";

const DEBUG_HINT = 'Set DEBUG=1 to print its stack trace.';

/** What the module threw, on one line: esbuild's messages span lines, and a module may throw a non-Error. */
function reasonOf(thrown: unknown): string {
  const text =
    thrown instanceof Error
      ? thrown.message || thrown.name
      : `it threw ${inspect(thrown, { depth: 1, breakLength: Infinity })}`;
  return shorten(text, 400);
}

function importHint(thrown: unknown, absolute: string): string {
  const unknownExtension = (thrown as NodeJS.ErrnoException | null)?.code === 'ERR_UNKNOWN_FILE_EXTENSION';
  return unknownExtension && /\.[cm]?tsx?$/.test(absolute)
    ? 'A .ts module needs the tsx loader (`npx tsx node_modules/.bin/convo-kit …`) or compile it to .js first.'
    : DEBUG_HINT;
}

/**
 * The module's code stays in this process once imported: an error it raises later, outside any handler (a timer,
 * a promise nobody awaits), ends the run reported like any CLI error, not as Node's stack trace.
 */
function reportUncaughtErrors(absolute: string): void {
  const fail = (thrown: unknown) => {
    process.exitCode = reportError(
      new CliError(
        'FAILED',
        `Uncaught error while running the handlers module ${absolute} (outside any handler): ${reasonOf(thrown)}`,
        { cause: thrown, hint: DEBUG_HINT },
      ),
    );
    process.exit();
  };
  process.on('uncaughtException', fail).on('unhandledRejection', fail);
}

/**
 * Imports the user's handlers module. A receiver keeps its own store (the deliveries it received); a handlers
 * object runs over the --db store through a receiver made here.
 */
export async function loadHandlers(
  modulePath: string,
  openDbStore: () => Promise<DeliveryStore>,
  secret?: string,
): Promise<LoadedHandlers> {
  const absolute = resolve(modulePath);
  if (!existsSync(absolute))
    throw new CliError('NOT_FOUND', `No handlers module at ${absolute}.`, { hint: SHAPE_HELP });
  if (statSync(absolute).isDirectory())
    throw new CliError('USAGE', `${absolute} is a directory; --handlers takes the module file itself.`, {
      hint: SHAPE_HELP,
    });
  let mod: Record<string, unknown>;
  reportUncaughtErrors(absolute);
  try {
    mod = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (cause) {
    throw new CliError('FAILED', `Cannot load the handlers module ${absolute}: ${reasonOf(cause)}`, {
      cause,
      hint: importHint(cause, absolute),
    });
  }
  const candidates = [mod.default, mod.receiver, mod.handlers];
  const receiver = candidates.find(isReceiver);
  if (receiver) {
    if (typeof receiver.replay !== 'function') {
      throw new CliError(
        'FAILED',
        `The receiver exported by ${absolute} has no replay(); it comes from an older convo-kit. Update convo-kit in that project.`,
      );
    }
    return { receiver, ownStore: true, close: () => receiver.close() };
  }
  const map = candidates.find(isHandlerMap);
  if (!map)
    throw new CliError('USAGE', `${absolute} exports neither a receiver nor a handlers object${exportsDetail(mod)}.`, {
      hint: SHAPE_HELP,
    });
  const store = await openDbStore();
  const built = createReceiver({
    secret: secret ?? UNUSED_SECRET,
    store,
    // Silent unless LOG_LEVEL asks, as in `convo-kit listen`: replay prints each failure on its own line.
    logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }, pino.destination(2)),
  });
  for (const [pattern, handler] of Object.entries(map))
    built.on(pattern as EventPattern, handler as EventHandler<EventPattern>);
  return {
    receiver: built,
    ownStore: false,
    async close() {
      await built.close();
      await store.close();
    },
  };
}
