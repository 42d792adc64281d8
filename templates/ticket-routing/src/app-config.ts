/** The settings of the app, from the environment (a `.env` file is read when present). */
export interface AppConfig {
  baseUrl: string;
  apiKey: string;
  webhookSecret: string;
  /** @default 3200 */
  port: number;
  /** @default './routing-rules.json' */
  rulesPath: string;
  /** The receiver's delivery inbox. @default './data/deliveries.db' */
  deliveriesDbPath: string;
  /**
   * Opens the delivery inspector to requests that present it (`Authorization: Bearer …` or `?token=…`); set it
   * wherever the app runs behind a proxy (README). @default none: the inspector answers this machine only
   */
  inspectorToken?: string;
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

/** Reads `.env` when it exists (Node's own parser), then the environment; names every missing variable at once. */
export function readConfig(env: NodeJS.ProcessEnv = loadDotEnv()): AppConfig {
  const missing = ['CONVO_KIT_BASE_URL', 'CONVO_KIT_API_KEY', 'CONVO_KIT_WEBHOOK_SECRET'].filter((name) => !env[name]);
  if (missing.length > 0) throw new MissingSettingsError(missing);
  const port = Number(env.PORT ?? 3200);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    baseUrl: env.CONVO_KIT_BASE_URL as string,
    apiKey: env.CONVO_KIT_API_KEY as string,
    webhookSecret: env.CONVO_KIT_WEBHOOK_SECRET as string,
    port,
    rulesPath: env.ROUTING_RULES ?? './routing-rules.json',
    deliveriesDbPath: env.DELIVERIES_DB_PATH ?? './data/deliveries.db',
    inspectorToken: inspectorTokenFrom(env),
  };
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
