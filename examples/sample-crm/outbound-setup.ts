import { type Client } from 'convo-kit/client';
import { SEED_IDS } from 'convo-kit/emulator';
import { type WindowClosedTemplate } from '../../templates/crm-sync/src/index.js';
import { type Control } from './control.js';

/** The seeded approved templates the sample uses: "Your order {{1}} has shipped and arrives {{2}}." and "Hi {{1}}, this weekend only: …". */
export const ORDER_UPDATE_TEMPLATE = SEED_IDS.templates.approved;
export const WEEKEND_OFFER_TEMPLATE = SEED_IDS.templates.approvedMarketing;
/** The phone number every template of the sample is pinned to (the seed's main line). */
const MAIN_LINE = SEED_IDS.phoneMain;

/** The business event the shop fires when an order ships; the journey below answers it. */
export const ORDER_SHIPPED_EVENT = 'order.shipped';
export const DAY_SECONDS = 24 * 60 * 60;

/** What the CRM's outbound side uses: the journey's id and the template a reply falls back to. */
export interface OutboundSetup {
  journeyId: string;
  windowClosedTemplate: WindowClosedTemplate;
}

/**
 * The shop's outbound set-up, as an integration does it once: its own templates created through the API
 * and approved by the provider (the emulator's review control plays the provider), and a journey that
 * follows an order up, started by the business event `order.shipped`.
 */
export async function setUpOutbound(client: Client, control: Control): Promise<OutboundSetup> {
  const approved = async (name: string, body: string): Promise<string> => {
    const template = await client.templates.create({
      name,
      category: 'UTILITY',
      body,
      pinned_integration_id: MAIN_LINE,
    });
    await control(`templates/${template.id}/review`, { status: 'approved' });
    return template.id;
  };
  const deliveryCheck = await approved(
    'delivery_check',
    'Your order {{1}} should have arrived by now. Reply here if anything is wrong with the delivery.',
  );
  const orderFeedback = await approved('order_feedback', 'How was your order {{1}}? Reply with a score from 1 to 5.');
  const replyWaiting = await approved(
    'reply_waiting',
    'Hi {{1}}, there is an update on your order. Reply to this message to continue the chat.',
  );
  const journey = await client.journeys.create({
    name: 'Order follow-up',
    trigger_name: 'order-follow-up',
    events: [ORDER_SHIPPED_EVENT],
    steps: [
      { template_id: ORDER_UPDATE_TEMPLATE, delay_seconds: 0 },
      { template_id: deliveryCheck, delay_seconds: DAY_SECONDS },
      { template_id: orderFeedback, delay_seconds: 7 * DAY_SECONDS },
    ],
  });
  await client.journeys.setStatus({ id: journey.id, status: 'active' });
  return {
    journeyId: journey.id,
    // The CRM's reply helper sends this once a customer's 24-hour window has closed, greeting them by name.
    windowClosedTemplate: {
      templateId: replyWaiting,
      variables: (contact) => ({ '1': contact.name ?? 'there' }),
    },
  };
}
