import { z } from 'zod';
import { text, Timestamp } from './common.js';
import { Scope } from '../scopes.js';
import { PageQuery } from './page.js';

export const KeyKind = z.enum(['live', 'test']);

/** An API key as listed: the value itself is shown only on creation and rotation (docs/keys-and-limits.md). */
export const ApiKey = z.looseObject({
  id: z.string(),
  label: z.string(),
  scopes: z.array(Scope),
  kind: KeyKind,
  /** The last 4 characters of the value, to tell keys apart. */
  last4: z.string(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
});
export type ApiKey = z.output<typeof ApiKey>;

/** `svc_live_` or `svc_test_` + 32 url-safe characters. */
export const KeyValue = z
  .string()
  .regex(/^svc_(live|test)_[A-Za-z0-9_-]{32}$/)
  .meta({ examples: ['svc_live_Q3v8Lm2Xr7Tn4Wk9Pz6Bd1Hc5Fy0Gj2A'] });

export const ApiKeyCreate = z.strictObject({
  label: text(100),
  scopes: z.array(Scope).min(1).max(Scope.options.length),
  kind: KeyKind,
});

export const ApiKeyCreated = ApiKey.extend({ key: KeyValue });

/** The old value keeps working until `previous_key_expires_at` (24 hours), then 401. */
export const ApiKeyRotated = ApiKey.extend({ key: KeyValue, previous_key_expires_at: Timestamp });

/** Filters of GET /v1/keys. */
export const ApiKeyListQuery = PageQuery.extend({ kind: KeyKind.optional() });
