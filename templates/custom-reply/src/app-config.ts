import { fromEnv, portSetting, readSettings, type SettingsOf, wholeNumber } from 'convo-kit/settings';
import { z } from 'zod';

/** The settings of the endpoint, from the environment (a `.env` file is read when present). */
const SETTINGS = {
  /** The provider's signing secret (`convo-kit dev` sets it when it points the provider here). */
  replySecret: fromEnv('REPLY_SECRET', z.string()),
  port: portSetting(3300),
  faqPath: fromEnv('FAQ_PATH', z.string().default('./faq.json')),
  /** How long a reply may take before the endpoint hands off. */
  timeoutMs: fromEnv('REPLY_TIMEOUT_MS', wholeNumber({ min: 100, max: 10_000 }).default(4000)),
};

export type AppConfig = SettingsOf<typeof SETTINGS>;

/** Reads `.env` when it exists, then the environment; a missing or bad setting throws a SettingsError naming it. */
export const readConfig = (env?: NodeJS.ProcessEnv): AppConfig => readSettings(SETTINGS, env);
