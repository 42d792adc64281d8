import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { isEventPattern, type EventPattern } from '../../events/index.js';
import { createReceiver, type EventHandler, type Receiver } from '../../receiver/index.js';
import { type DeliveryStore } from '../../store/index.js';
import { CliError } from '../cli-error.js';

export interface LoadedHandlers {
  receiver: Receiver;
  /** True when the module brought its own configured receiver (and so its own store). */
  ownStore: boolean;
  close(): Promise<void>;
}

type HandlerMap = Record<string, EventHandler>;

/** Replay never verifies a request (the rows were verified when they arrived), but createReceiver wants a secret. */
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

function isHandlerMap(value: unknown): value is HandlerMap {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length > 0 && entries.every(([key, fn]) => isEventPattern(key) && typeof fn === 'function');
}

const SHAPE_HELP =
  'Export a configured receiver (`export default createReceiver({ … })` or `export const receiver = …`, with its handlers registered and without calling start()), ' +
  "or a handlers object (`export const handlers = { 'ticket.created': async ({ data }) => { … } }`).";

/**
 * Imports the user's handlers module. A receiver keeps its own store (the deliveries it received); a handlers
 * object runs over the --db store through a receiver made here.
 */
export async function loadHandlers(
  modulePath: string,
  openDbStore: () => Promise<DeliveryStore>,
): Promise<LoadedHandlers> {
  const absolute = resolve(modulePath);
  if (!existsSync(absolute))
    throw new CliError('NOT_FOUND', `No handlers module at ${absolute}.`, { hint: SHAPE_HELP });
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (cause) {
    throw new CliError('FAILED', `Cannot load the handlers module ${absolute}: ${(cause as Error).message}`, {
      cause,
      hint: 'A .ts module needs the tsx loader (`npx tsx node_modules/.bin/convo-kit …`) or compile it to .js first.',
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
    throw new CliError('USAGE', `${absolute} exports neither a receiver nor a handlers object.`, { hint: SHAPE_HELP });
  const store = await openDbStore();
  const built = createReceiver({
    secret: UNUSED_SECRET,
    store,
    logger: pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2)),
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
