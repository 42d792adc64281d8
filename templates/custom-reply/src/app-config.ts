/** The settings of the endpoint, from the environment (a `.env` file is read when present). */
export interface AppConfig {
  /** The provider's signing secret. */
  replySecret: string;
  /** @default 3300 */
  port: number;
  /** @default './faq.json' */
  faqPath: string;
  /** @default 4000 */
  timeoutMs: number;
}

/** Settings the app cannot start without; `npm start` prints its message as one line. */
export class MissingSettingsError extends Error {
  constructor(readonly names: readonly string[]) {
    super(
      `Missing ${names.join(', ')}: run \`npm run dev\` (a local emulator sets it for you), or set it in .env (see .env.example).`,
    );
    this.name = 'MissingSettingsError';
  }
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${env[name]}"`);
  return value;
}

/** Reads `.env` when it exists (Node's own parser), then the environment. */
export function readConfig(env: NodeJS.ProcessEnv = loadDotEnv()): AppConfig {
  if (!env.REPLY_SECRET) throw new MissingSettingsError(['REPLY_SECRET']);
  return {
    replySecret: env.REPLY_SECRET,
    port: integer(env, 'PORT', 3300, 0, 65_535),
    faqPath: env.FAQ_PATH ?? './faq.json',
    timeoutMs: integer(env, 'REPLY_TIMEOUT_MS', 4000, 100, 10_000),
  };
}

function loadDotEnv(): NodeJS.ProcessEnv {
  try {
    process.loadEnvFile('.env');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return process.env;
}
