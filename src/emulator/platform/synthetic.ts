import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { EndpointGroupName, EndpointOf } from '../../api/all-endpoints.js';
import type { EndpointDef } from '../../api/endpoint.js';
import type { Endpoints } from '../../api/endpoints/index.js';
import type { Channel, Message, MessageInput } from '../../resources/index.js';
import { queuedMessage } from '../domain/messages/queued-message.js';
import type { Clock, RouteRequest } from '../route-handler.js';

/** `group.name` of every route the table marks `testKeySynthetic: true`. */
export type SyntheticRouteId = {
  [G in EndpointGroupName]: {
    [N in keyof Endpoints[G]]: Endpoints[G][N] extends { testKeySynthetic: true } ? `${G}.${N & string}` : never;
  }[keyof Endpoints[G]];
}[EndpointGroupName];

/** Builds the synthetic answer of route E from its validated input. */
type SyntheticBuilder<E extends EndpointDef> = (
  input: Pick<RouteRequest<E>, 'params' | 'body'>,
  clock: Clock,
) => z.input<E['response']>;

const testId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('base64url')}`;

/** A send that reached no provider: the message as it would be queued, marked `test: true`. */
function syntheticMessage(
  to: { conversation_id?: string; channel?: Channel },
  input: MessageInput,
  clock: Clock,
): Message & { test: true } {
  const address = {
    id: testId('msg'),
    conversation_id: to.conversation_id ?? testId('conv'),
    integration_id: input.integration_id ?? testId('int'),
    channel: to.channel ?? 'phone',
    created_at: clock.iso(),
  };
  return { ...queuedMessage(address, input), test: true };
}

/** A campaign send: the test key may not read the campaign, so only its id is real. */
const syntheticCampaign: SyntheticBuilder<EndpointOf<'campaigns.send'>> = ({ params }, clock) => {
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
    cancel_reason: null,
    stats: { recipients: 0, sent: 0, delivered: 0, failed: 0, skipped: 0 },
    created_at: now,
    updated_at: now,
    test: true as const,
  };
};

/**
 * The synthetic 201 of each test-key route (docs/keys-and-limits.md), keyed by route id: built from the validated
 * input only, because a test key may read no tenant data; nothing is stored, sent or announced.
 * Typed by the table's `testKeySynthetic` flags: a missing or extra builder fails to compile.
 */
export const SYNTHETIC_BUILDERS: { [Id in SyntheticRouteId]: SyntheticBuilder<EndpointOf<Id>> } = {
  'messages.send': ({ body }, clock) => syntheticMessage(body, body, clock),
  'conversations.sendMessage': ({ params, body }, clock) =>
    syntheticMessage({ conversation_id: params.id }, body, clock),
  'campaigns.send': syntheticCampaign,
  'automations.trigger': ({ params, body }, clock) => ({
    id: testId('run'),
    automation_id: params.id,
    status: 'queued',
    conversation_id: body.conversation_id ?? null,
    contact_id: body.contact_id ?? null,
    message_id: null,
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

/** The builder of a synthetic route; throws at start-up for a route that has none (a JavaScript caller). */
export function syntheticBuilder(id: string): SyntheticBuilder<EndpointDef> {
  const build = (SYNTHETIC_BUILDERS as Record<string, SyntheticBuilder<EndpointDef> | undefined>)[id];
  if (!build)
    throw new TypeError(`${id} is marked testKeySynthetic but has no synthetic answer; add one to SYNTHETIC_BUILDERS`);
  return build;
}
