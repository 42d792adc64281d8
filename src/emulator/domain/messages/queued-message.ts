import type { Message, MessageInput } from '../../../resources/index.js';

/** Where a new outbound message goes and when it was made; the rest comes from the send's input. */
export type MessageAddress = Pick<Message, 'id' | 'conversation_id' | 'integration_id' | 'channel' | 'created_at'>;

/** A send as it is first stored (or, for a test key, as it would be): queued, no error yet; from the API unless said. */
export function queuedMessage(
  address: MessageAddress,
  input: MessageInput,
  source: NonNullable<Message['source']> = 'api',
): Message {
  return {
    ...address,
    direction: 'sent',
    content: input.content,
    media: input.media ?? null,
    buttons: input.buttons ?? null,
    cta_url: input.cta_url ?? null,
    delivery_status: 'queued',
    source,
    error: null,
  };
}
