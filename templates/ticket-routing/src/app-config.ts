import { fromEnv, portSetting, readSettings, RECEIVER_APP_SETTINGS, type SettingsOf } from 'convo-kit/settings';
import { z } from 'zod';

/**
 * The settings of the app, from the environment (a `.env` file is read when present): the service, the
 * webhook secret, the delivery inbox and INSPECTOR_TOKEN as every receiver app reads them (convo-kit/settings),
 * and this app's own.
 */
const SETTINGS = {
  ...RECEIVER_APP_SETTINGS,
  port: portSetting(3200),
  rulesPath: fromEnv('ROUTING_RULES', z.string().default('./routing-rules.json')),
};

export type AppConfig = SettingsOf<typeof SETTINGS>;

/** Reads `.env` when it exists, then the environment; a missing or bad setting throws a SettingsError naming it. */
export const readConfig = (env?: NodeJS.ProcessEnv): AppConfig => readSettings(SETTINGS, env);
