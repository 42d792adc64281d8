import { randomBytes } from 'node:crypto';
import type { EndpointDef } from '../../api/endpoint.js';
import type { Clock } from '../handler.js';

type Input = { params: Record<string, unknown>; body: Record<string, unknown> };

const testId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('base64url')}`;

/** A send that reached no provider: the message as it would be queued, marked `test: true`. */
function syntheticMessage({ params, body }: Input, clock: Clock): Record<string, unknown> {
  return {
    id: testId('msg'),
    conversation_id: params.id ?? body.conversation_id ?? testId('conv'),
    integration_id: body.integration_id ?? testId('int'),
    channel: body.channel ?? 'phone',
    direction: 'sent',
    content: body.content,
    media: body.media ?? null,
    buttons: body.buttons ?? null,
    cta_url: body.cta_url ?? null,
    delivery_status: 'queued',
    source: 'api',
    error: null,
    created_at: clock.iso(),
    test: true,
  };
}

/**
 * The synthetic 201 of each test-key route (decisions §5): built from the validated input only, because a
 * test key may read no tenant data; nothing is stored, sent or announced. A route of the table marked
 * `testKeySynthetic` without its own builder answers its input back with a test id.
 */
export const SYNTHETIC_BUILDERS: Record<string, (input: Input, clock: Clock) => Record<string, unknown>> = {
  'messages.send': syntheticMessage,
  'conversations.sendMessage': syntheticMessage,
};

export function syntheticReply(id: string, _def: EndpointDef, input: Input, clock: Clock): Record<string, unknown> {
  const build = SYNTHETIC_BUILDERS[id];
  if (build) return build(input, clock);
  return { id: testId(id.split('.')[0]!.replace(/s$/, '')), ...input.params, ...input.body, status: 'queued', created_at: clock.iso(), test: true };
}
