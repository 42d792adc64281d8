import {
  DOCS_BASE_URL,
  PLAN_RATE_LIMITS,
  RATE_LIMIT_WINDOW_SECONDS,
  READ_ONLY_PLANS,
  type Plan,
  type Scope,
} from '../../../api/index.js';
import { type Capabilities, type DeveloperLimits, type Onboarding } from '../../../resources/index.js';
import type { EndpointId } from '../../../api/all-endpoints.js';
import { EMULATOR_KEY_IDS } from '../../handlers/keys.js';
import type { AuthenticatedKey, EmulatorContext } from '../../route-handler.js';
import { Collection } from '../../state/collection.js';
import { KEYS_KIND } from '../../state/key-store.js';
import { stores } from '../../state/stores.js';
import { STATE_CAPABILITY } from '../../saved-state/state-document.js';
import { WEBHOOKS_KIND } from '../../state/webhook-store.js';
import { AUTOMATION_CAPABILITIES } from '../automations/automation-bounds.js';
import { PLAN_QUOTAS } from '../usage/plan-quotas.js';

/**
 * What a key can do: each feature, the scope it needs, and the routes that make it up. A feature is on
 * when the key has the scope and the plan allows it (writes are off on read-only plans).
 */
export const FEATURES = {
  free_text_messages: { scope: 'messages:send', routes: ['messages.send', 'conversations.sendMessage'] },
  template_sends: { scope: 'templates:send', routes: ['templates.send'] },
  conversations: { scope: 'conversations:write', routes: ['conversations.update'] },
  contacts: { scope: 'contacts:write', routes: ['contacts.update'] },
  tickets: { scope: 'tickets:write', routes: ['tickets.update'] },
  pipeline: { scope: 'pipeline:write', routes: ['pipeline.updateLead', 'pipeline.moveLead'] },
  channel_ai_switches: { scope: 'automations:write', routes: ['channels.update'] },
  connect_channels: { scope: 'channels:write', routes: ['channels.createConnectSession'] },
  ai_groups: { scope: 'channels:write', routes: ['groups.create', 'groups.update', 'groups.delete'] },
  knowledge: {
    scope: 'channels:write',
    routes: ['groups.addKnowledge', 'groups.uploadKnowledge', 'groups.deleteKnowledge'],
  },
  ai_providers: {
    scope: 'channels:write',
    routes: ['groups.putProvider', 'groups.deleteProvider', 'channels.putProvider', 'channels.deleteProvider'],
  },
  journeys: {
    scope: 'journeys:write',
    routes: ['journeys.create', 'journeys.replaceSteps', 'journeys.setStatus', 'trigger.enroll'],
  },
  campaigns: { scope: 'campaigns:write', routes: ['campaigns.create', 'campaigns.update', 'campaigns.send'] },
  comments: { scope: 'comments:write', routes: ['comments.reply'] },
  comment_rules: { scope: 'automations:write', routes: ['comments.updateSettings'] },
  automations: { scope: 'automations:write', routes: ['automations.trigger'] },
  webhooks: { scope: 'webhooks:write', routes: ['webhooks.create', 'webhooks.delete'] },
  analytics: { scope: 'analytics:read', routes: ['analytics.summary'] },
  key_management: { scope: 'keys:write', routes: ['keys.create', 'keys.rotate', 'keys.revoke'] },
} as const satisfies Record<string, { scope: Scope; routes: readonly EndpointId[] }>;

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
    Object.entries(FEATURES).map(([feature, { scope }]) => [
      feature,
      key.scopes.includes(scope) && (!readOnly || scope.endsWith(':read')),
    ]),
  );
  return {
    key: { id: key.id, kind: key.kind, scopes: [...key.scopes] },
    plan,
    features,
    limits: limitsFor(plan),
    automations: AUTOMATION_CAPABILITIES,
    emulator_state: STATE_CAPABILITY,
  };
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
