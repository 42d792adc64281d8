import { MESSAGE_CONTENT_MAX_CHARS } from 'convo-kit/resources';
import { type WindowClosedTemplate, windowClosedTemplateFromEnv } from './window-closed-template.js';

/** The settings of the app, from the environment (a `.env` file is read when present). */
export interface AppConfig {
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  /** @default 3100 */
  port: number;
  /** @default './data/crm.db' */
  crmDbPath: string;
  /** The receiver's delivery inbox. @default './data/deliveries.db' */
  deliveriesDbPath: string;
  /**
   * Opens the delivery inspector to requests that present it (`Authorization: Bearer …` or `?token=…`); set it
   * wherever the app runs behind a proxy (README). @default none: the inspector answers this machine only
   */
  inspectorToken?: string;
  /** Sent instead of a reply once the 24-hour window has closed; none by default (the reply then fails). */
  windowClosedTemplate?: WindowClosedTemplate;
  /** CRM_AUTO_REPLY: sent once to each customer who opens a conversation; none by default. */
  autoReply?: string;
}

/** Settings the app cannot start without; `npm start` prints its message as one line. */
export class MissingSettingsError extends Error {
  constructor(readonly names: readonly string[]) {
    super(
      `Missing ${names.join(', ')}: run \`npm run dev\` (a local emulator sets them for you), or set them in .env (see .env.example).`,
    );
    this.name = 'MissingSettingsError';
  }
}

/** readConfig for the commands (`npm start`, `npm run backfill`): a bad setting is one line on stderr and exit 1. */
export function readConfigOrExit(): AppConfig {
  try {
    return readConfig();
  } catch (error) {
    // Every error readConfig throws is about a setting, and its message names it.
    if (!(error instanceof Error)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/** Reads `.env` when it exists (Node's own parser), then the environment; names every missing variable at once. */
export function readConfig(env: NodeJS.ProcessEnv = loadDotEnv()): AppConfig {
  const missing = ['CONVO_KIT_BASE_URL', 'CONVO_KIT_API_KEY', 'CONVO_KIT_WEBHOOK_SECRET'].filter((name) => !env[name]);
  if (missing.length > 0) throw new MissingSettingsError(missing);
  const port = Number(env.PORT ?? 3100);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    baseUrl: env.CONVO_KIT_BASE_URL as string,
    apiKey: env.CONVO_KIT_API_KEY as string,
    webhookSecret: env.CONVO_KIT_WEBHOOK_SECRET as string,
    port,
    crmDbPath: env.CRM_DB_PATH ?? './data/crm.db',
    deliveriesDbPath: env.DELIVERIES_DB_PATH ?? './data/deliveries.db',
    inspectorToken: inspectorTokenFrom(env),
    windowClosedTemplate: windowClosedTemplateFromEnv(env),
    autoReply: autoReplyFrom(env),
  };
}

/** CRM_AUTO_REPLY when set (empty is unset), checked here so a bad one stops the app at start, not at the first customer. */
function autoReplyFrom(env: NodeJS.ProcessEnv): string | undefined {
  const text = env.CRM_AUTO_REPLY?.trim();
  if (!text) return undefined;
  if (text.length > MESSAGE_CONTENT_MAX_CHARS)
    throw new Error(
      `CRM_AUTO_REPLY must be at most ${MESSAGE_CONTENT_MAX_CHARS} characters, as a message is (it has ${text.length})`,
    );
  return text;
}

/** INSPECTOR_TOKEN when set (empty is unset); the inspector takes no token shorter than 16 characters. */
function inspectorTokenFrom(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.INSPECTOR_TOKEN;
  if (!token) return undefined;
  if (token.length < 16)
    throw new Error(
      `INSPECTOR_TOKEN must be at least 16 characters (it has ${token.length}), e.g. from: openssl rand -hex 24`,
    );
  return token;
}

function loadDotEnv(): NodeJS.ProcessEnv {
  try {
    process.loadEnvFile('.env');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return process.env;
}
