import { isApiError } from 'convo-kit/client';
import {
  type CrmContext,
  OptedOutError,
  recordActivity,
  sendToConversation,
} from '../../templates/crm-sync/src/index.js';
import { type Control, settleUntil } from './control.js';
import { say } from './live-log.js';
import { type OutboundCustomers } from './outbound-traffic.js';

interface Inbound {
  conversation: { id: string; contact_id: string };
}

const MAYA = { channel: 'phone', from: { handle: '+447700900123', name: 'Maya Lopez' } } as const;
const SAM = { channel: 'phone', from: { handle: '+447700900188', name: 'Sam Okafor' } } as const;
/** Seeded: a phone chat whose number ends 0001, which the provider rejects (docs/emulator.md). */
const SEND_FAILS_CONVERSATION = 'conv_send_failed';
/** Seeded: a phone chat whose number ends 0002: accepted, then `message.delivery_failed` (131049, throttled). */
const THROTTLED_CONVERSATION = 'conv_throttled';
/** Seeded: a phone chat with an ordinary number: delivered. */
const DELIVERED_CONVERSATION = 'conv_delivered';

/**
 * A few minutes of a real inbox, compressed: customers on all three channels, a refund request
 * handed to a person (a ticket the router assigns), a stop word, a reply, and a send the provider rejects.
 * @param settle waits until every event so far has been delivered and handled
 * @returns who the outbound part of the traffic (outbound-traffic.ts) reaches
 */
export async function playTraffic(
  control: Control,
  crm: CrmContext,
  settle: () => Promise<void>,
): Promise<OutboundCustomers> {
  const step = async (text: string, run: () => Promise<unknown>) => {
    say('traffic', 'customer', text);
    await run();
    await settle();
  };
  let maya: Inbound | undefined;
  await step(
    'Maya writes in by phone',
    async () =>
      (maya = await control<Inbound>('inbound', {
        ...MAYA,
        content: 'Hi! Is the blue jacket still available in medium?',
      })),
  );
  let leo: Inbound | undefined;
  await step(
    'Leo writes on the photo-sharing channel',
    async () =>
      (leo = await control<Inbound>('inbound', {
        channel: 'photo_social',
        from: { handle: '@leo.snaps', name: 'Leo Park' },
        content: 'Do you ship to Canada?',
      })),
  );
  await step('Ana writes on the social page chat', () =>
    control('inbound', {
      channel: 'social_page',
      from: { handle: 'page-user-42', name: 'Ana Silva' },
      content: 'What are your opening hours on Sunday?',
    }),
  );
  await step('Maya asks for a refund', () =>
    control('inbound', { ...MAYA, content: 'Actually, I would like a refund for my last order.' }),
  );
  await step("The AI hands Maya's conversation to a person (a ticket)", () =>
    control('handoff', { conversation_id: maya!.conversation.id, kind: 'handoff', priority: 'normal' }),
  );
  await step('Sam replies with a stop word', async () => {
    await control('inbound', { ...SAM, content: 'Who is this?' });
    await control('inbound', { ...SAM, content: 'STOP' });
  });

  say('traffic', 'crm', 'The CRM replies to Maya');
  await sendToConversation(
    crm,
    maya!.conversation.id,
    'Hi Maya! Yes, medium is in stock. A colleague is looking at your refund now.',
  );
  await settle();

  say('traffic', 'crm', 'The CRM tries to send Sam a promotion');
  const sam = crm.db.prepare('SELECT id FROM conversations WHERE customer_handle = ?').get(SAM.from.handle) as
    | { id: string }
    | undefined;
  await refused(crm, sam?.id ?? '', 'Spring sale: 20% off everything!');

  say('traffic', 'crm', 'The CRM messages a number ending 0001');
  await refused(crm, SEND_FAILS_CONVERSATION, 'Your order has shipped.');

  say('traffic', 'crm', 'The CRM messages a number ending 0002 (accepted, then throttled by the provider)');
  await sendToConversation(crm, THROTTLED_CONVERSATION, 'Spring sale: 20% off everything!');
  await settleUntil(
    settle,
    () =>
      crm.db
        .prepare("SELECT 1 FROM activity WHERE kind = 'message.delivery_failed' AND conversation_id = ?")
        .get(THROTTLED_CONVERSATION) !== undefined,
  );
  return {
    maya: { phone: MAYA.from.handle, conversationId: maya!.conversation.id },
    // Reached, sent and delivered; opted out (skipped); no phone (skipped); throttled (failed); an ordinary number.
    campaignAudience: [
      maya!.conversation.id,
      sam?.id ?? '',
      leo!.conversation.id,
      THROTTLED_CONVERSATION,
      DELIVERED_CONVERSATION,
    ].filter(Boolean),
  };
}

/** A send the sample expects to be refused (opted out, or rejected by the provider): shown, and noted on the timeline. */
async function refused(crm: CrmContext, conversationId: string, content: string): Promise<void> {
  try {
    await sendToConversation(crm, conversationId, content);
    say('warn', 'unexpected', `the send to ${conversationId} went through`);
  } catch (error) {
    const reason =
      error instanceof OptedOutError
        ? `${error.code} (per the ${error.source})`
        : isApiError(error)
          ? error.message
          : String(error);
    say('warn', 'refused', `send to ${conversationId} refused: ${reason}`);
    const contact = crm.db.prepare('SELECT contact_id FROM conversations WHERE id = ?').get(conversationId) as
      | { contact_id: string }
      | undefined;
    recordActivity(crm.db, {
      key: `crm.send_refused:${conversationId}:${content}`,
      kind: 'crm.send_refused',
      contactId: contact?.contact_id ?? null,
      conversationId,
      summary: `send refused: ${reason}`,
      occurredAt: new Date().toISOString(),
    });
  }
}
