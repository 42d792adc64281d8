import { z } from 'zod';
import { INSPECTOR_TOKEN_MIN_CHARS } from '../console/inspector/inspector-token.js';
import { normalizeBaseUrl } from '../internal/base-url.js';
import { fromEnv, type EnvSetting } from './read-settings.js';
import { wholeNumberIn } from '../internal/whole-number.js';

/**
 * The service's address, by the client's own rule (normalizeBaseUrl): https, or http to this machine only
 * (the emulator), no query or credentials; refused here by name, not later by `createClient` with a stack.
 */
const serviceUrl = z.string().transform((text, ctx) => {
  try {
    return normalizeBaseUrl(text.trim(), false, { name: 'the URL', insecureHint: '' });
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^Expected/, 'expected') });
    return z.NEVER;
  }
});

/** A whole number from `min` to `max`, written as text (a setting's value); the message quotes what arrived. */
export function wholeNumber({ min, max }: { min: number; max: number }): z.ZodType<number, string> {
  return z.string().transform((text, ctx) => {
    const value = wholeNumberIn(text, min, max);
    if (value !== undefined) return value;
    ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}, got "${text}"` });
    return z.NEVER;
  });
}

/** A port to listen on, PORT unless `variable` names another (an app that listens twice); 0 picks a free one. */
export function portSetting(fallback: number, variable = 'PORT'): EnvSetting<number> {
  return fromEnv(variable, wholeNumber({ min: 0, max: 65_535 }).default(fallback));
}

/**
 * What an app that receives the service's webhooks and calls its API reads, by the names `convo-kit dev`
 * sets and the starters' README and `.env.example` use:
 * - CONVO_KIT_BASE_URL, CONVO_KIT_API_KEY: the service (or the emulator) and its key, for `createClient`;
 * - CONVO_KIT_WEBHOOK_SECRET: the webhook's `whsec_…` secret, for `createReceiver`;
 * - DELIVERIES_DB_PATH: the receiver's delivery inbox. @default './data/deliveries.db'
 * - INSPECTOR_TOKEN: opens the delivery inspector to requests that present it (`serve`'s `inspector`),
 *   by the inspector's own rule of at least 16 characters. @default none: the inspector answers this machine only
 */
export const RECEIVER_APP_SETTINGS = {
  baseUrl: fromEnv('CONVO_KIT_BASE_URL', serviceUrl),
  apiKey: fromEnv('CONVO_KIT_API_KEY', z.string()),
  webhookSecret: fromEnv('CONVO_KIT_WEBHOOK_SECRET', z.string()),
  deliveriesDbPath: fromEnv('DELIVERIES_DB_PATH', z.string().default('./data/deliveries.db')),
  inspectorToken: fromEnv(
    'INSPECTOR_TOKEN',
    z
      .string()
      .min(INSPECTOR_TOKEN_MIN_CHARS, {
        error: (issue) =>
          `must be at least ${INSPECTOR_TOKEN_MIN_CHARS} characters (it has ${String(issue.input).length}), e.g. from: openssl rand -hex 24`,
      })
      .optional(),
  ),
};
