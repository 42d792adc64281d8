import { fromEnv, portSetting, readSettings, RECEIVER_APP_SETTINGS, type SettingsOf } from 'convo-kit/settings';
import { MESSAGE_CONTENT_MAX_CHARS } from 'convo-kit/resources';
import { z } from 'zod';
import { type WindowClosedTemplate, windowClosedTemplateFromEnv } from './window-closed-template.js';

/**
 * The settings of the app, from the environment (a `.env` file is read when present): the service, the
 * webhook secret, the delivery inbox and INSPECTOR_TOKEN as every receiver app reads them (convo-kit/settings),
 * and this app's own.
 */
const SETTINGS = {
  ...RECEIVER_APP_SETTINGS,
  port: portSetting(3100),
  crmDbPath: fromEnv('CRM_DB_PATH', z.string().default('./data/crm.db')),
  /** Sent once to each customer who opens a conversation; none by default. Checked at start, not at the first customer. */
  autoReply: fromEnv(
    'CRM_AUTO_REPLY',
    z
      .string()
      .trim()
      .max(MESSAGE_CONTENT_MAX_CHARS, {
        error: (issue) =>
          `must be at most ${MESSAGE_CONTENT_MAX_CHARS} characters, as a message is (it has ${String(issue.input).length})`,
      })
      .optional(),
  ),
};

export type AppConfig = SettingsOf<typeof SETTINGS> & {
  /** Sent instead of a reply once the 24-hour window has closed; none by default (the reply then fails). */
  windowClosedTemplate?: WindowClosedTemplate;
};

/** Reads `.env` when it exists, then the environment; a missing or bad setting throws a SettingsError naming it. */
export function readConfig(env?: NodeJS.ProcessEnv): AppConfig {
  const settings = readSettings(SETTINGS, env);
  return { ...settings, windowClosedTemplate: windowClosedTemplateFromEnv(env ?? process.env) };
}

/**
 * What `npm run backfill` reads: the service and the CRM's file; it receives no webhook, so no secret or port.
 * It runs by hand, not under `convo-kit dev`, so a missing setting is for .env, not `npm run dev`.
 */
export function readBackfillConfig(env?: NodeJS.ProcessEnv) {
  const { baseUrl, apiKey, crmDbPath } = SETTINGS;
  return readSettings({ baseUrl, apiKey, crmDbPath }, env, { startedByDev: false });
}
