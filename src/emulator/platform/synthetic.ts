import { randomBytes } from 'node:crypto';
import type { Channel, MessageInput } from '../../resources/index.js';
import { queuedMessage } from '../domain/queued-message.js';
import type { Clock } from '../route-handler.js';

type Input = { params: Record<string, unknown>; body: Record<string, unknown> };

const testId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('base64url')}`;

/** A send that reached no provider: the message as it would be queued, marked `test: true`. */
function syntheticMessage({ params, body }: Input, clock: Clock): Record<string, unknown> {
  // The input was validated against the route's schema before any builder runs.
  const input = body as MessageInput & { conversation_id?: string; channel?: Channel };
  const address = {
    id: testId('msg'),
    conversation_id: (params.id as string | undefined) ?? input.conversation_id ?? testId('conv'),
    integration_id: input.integration_id ?? testId('int'),
    channel: input.channel ?? 'phone',
    created_at: clock.iso(),
  };
  return { ...queuedMessage(address, input), test: true };
}

/** A campaign send: the test key may not read the campaign, so only its id is real. */
function syntheticCampaign({ params }: Input, clock: Clock): Record<string, unknown> {
  const now = clock.iso();
  return {
    id: params.id,
    name: 'Synthetic test send',
    template_id: testId('tpl'),
    integration_id: null,
    status: 'sending',
    audience: {},
    variables: {},
    scheduled_at: null,
    sent_at: now,
    stats: { recipients: 0, sent: 0, delivered: 0, failed: 0 },
    created_at: now,
    updated_at: now,
    test: true,
  };
}

/**
 * The synthetic 201 of each test-key route (decisions §5), keyed by route id: built from the validated
 * input only, because a test key may read no tenant data; nothing is stored, sent or announced.
 * A route the table marks `testKeySynthetic` without a builder here stops the app from starting.
 */
export const SYNTHETIC_BUILDERS: Record<string, (input: Input, clock: Clock) => Record<string, unknown>> = {
  'messages.send': syntheticMessage,
  'conversations.sendMessage': syntheticMessage,
  'campaigns.send': syntheticCampaign,
  'automations.trigger': ({ params, body }, clock) => ({
    id: testId('run'),
    automation_id: params.id,
    status: 'queued',
    conversation_id: body.conversation_id ?? null,
    contact_id: body.contact_id ?? null,
    created_at: clock.iso(),
    test: true,
  }),
  'comments.reply': ({ params, body }, clock) => ({
    id: testId('crp'),
    comment_id: params.id,
    content: body.content,
    source: 'api',
    created_at: clock.iso(),
    test: true,
  }),
};

/** The builder of a synthetic route; throws at start-up for a route that has none. */
export function syntheticBuilder(id: string): (input: Input, clock: Clock) => Record<string, unknown> {
  const build = SYNTHETIC_BUILDERS[id];
  if (!build)
    throw new TypeError(`${id} is marked testKeySynthetic but has no synthetic answer; add one to SYNTHETIC_BUILDERS`);
  return build;
}
