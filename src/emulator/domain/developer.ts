import {
  DOCS_BASE_URL,
  PLAN_RATE_LIMITS,
  RATE_LIMIT_WINDOW_SECONDS,
  READ_ONLY_PLANS,
  type Capabilities,
  type DeveloperLimits,
  type Onboarding,
  type Plan,
  type Scope,
} from '../../api/index.js';
import { EMULATOR_KEY_IDS } from '../handlers/keys.js';
import type { AuthenticatedKey, EmulatorContext } from '../route-handler.js';
import { Collection } from '../state/collection.js';
import { KEYS_KIND } from '../state/key-store.js';
import { stores } from '../state/stores.js';
import { WEBHOOKS_KIND } from '../state/webhook-store.js';
import { PLAN_QUOTAS } from './plan-quotas.js';

/** What a key can do, by the scope each feature needs (writes are off on read-only plans). */
export const FEATURE_SCOPES: Readonly<Record<string, Scope>> = {
  free_text_messages: 'messages:send',
  template_sends: 'templates:send',
  conversations: 'conversations:write',
  contacts: 'contacts:write',
  tickets: 'tickets:write',
  pipeline: 'pipeline:write',
  channel_ai_switches: 'automations:write',
  connect_channels: 'channels:write',
  journeys: 'journeys:write',
  campaigns: 'campaigns:write',
  comments: 'comments:write',
  webhooks: 'webhooks:write',
  analytics: 'analytics:read',
  key_management: 'keys:write',
};

export function limitsFor(plan: Plan): DeveloperLimits {
  return {
    plan,
    rate_limit_per_minute: PLAN_RATE_LIMITS[plan],
    window_seconds: RATE_LIMIT_WINDOW_SECONDS,
    read_only: READ_ONLY_PLANS.has(plan),
    quotas: { ...PLAN_QUOTAS[plan] },
  };
}

export function capabilitiesOf(key: AuthenticatedKey, plan: Plan): Capabilities {
  const readOnly = READ_ONLY_PLANS.has(plan);
  const features = Object.fromEntries(
    Object.entries(FEATURE_SCOPES).map(([feature, scope]) => [
      feature,
      key.scopes.includes(scope) && (!readOnly || scope.endsWith(':read')),
    ]),
  );
  return { key: { id: key.id, kind: key.kind, scopes: [...key.scopes] }, plan, features, limits: limitsFor(plan) };
}

/** Where each onboarding step is explained. */
export const GUIDES_BASE_URL = DOCS_BASE_URL.replace(/\/errors$/, '/guides');

/** GET /v1/developer/onboarding: each step is done when the emulator's own records show it happened. */
export function onboardingOf(ctx: EmulatorContext): Onboarding {
  const s = stores(ctx.db);
  const emulatorKeys: readonly string[] = Object.values(EMULATOR_KEY_IDS);
  const count = (sql: string) => (ctx.db.prepare(sql).get() as { n: number }).n;
  const checks: [id: string, title: string, done: boolean][] = [
    [
      'connect_channel',
      'Connect a phone number, photo-social account or social page',
      s.accounts.count({ status: 'active' }) > 0,
    ],
    [
      'create_api_key',
      'Create a scoped API key for your backend',
      new Collection<{ id: string }>(ctx.db, KEYS_KIND).all().some((k) => !emulatorKeys.includes(k.id)),
    ],
    [
      'register_webhook',
      'Register a webhook endpoint',
      new Collection<{ id: string }>(ctx.db, WEBHOOKS_KIND).count() > 0,
    ],
    [
      'receive_delivery',
      'Receive and verify a signed webhook delivery',
      count('SELECT count(*) AS n FROM delivery_attempts WHERE status_code BETWEEN 200 AND 299') > 0,
    ],
    ['send_message', 'Send a message through the API', s.messages.count({ source: 'api' }) > 0],
    ['update_ticket', 'Work a ticket (assign, resolve) through the API', s.tickets.all().some((t) => t.version > 1)],
  ];
  const steps = checks.map(([id, title, done]) => ({ id, title, done, doc_url: `${GUIDES_BASE_URL}#${id}` }));
  return { steps, completed: steps.filter((step) => step.done).length, total: steps.length };
}
