import { type Client } from 'convo-kit/client';
import { type CrmContext, sendToConversation } from '../../templates/crm-sync/src/index.js';
import { say } from './live-log.js';
import { DAY_SECONDS, ORDER_SHIPPED_EVENT, WEEKEND_OFFER_TEMPLATE } from './outbound-setup.js';
import { type Control, settleUntil } from './control.js';

/** The tag the CRM puts on the conversations the weekend campaign goes to. */
export const CAMPAIGN_TAG = 'weekend-offer';

export interface OutboundCustomers {
  /** Maya's phone number and her conversation (she wrote in by phone earlier in the traffic). */
  maya: { phone: string; conversationId: string };
  /** The conversations the CRM tags for the campaign. */
  campaignAudience: string[];
}

/**
 * The shop reaching out: a shipped order enrolls Maya in the order follow-up journey (a business event),
 * the CRM sends a campaign to the conversations it tagged, a day passes on the emulator clock (the
 * journey's next step goes out), and the CRM's reply to Maya, whose 24-hour window has closed by then,
 * goes as the approved template instead.
 */
export async function playOutbound(
  client: Client,
  control: Control,
  crm: CrmContext,
  settle: () => Promise<void>,
  customers: OutboundCustomers,
): Promise<void> {
  const { maya } = customers;
  const sentToMaya = (text: string) => () =>
    crm.db
      .prepare("SELECT 1 FROM activity WHERE kind = 'message.sent' AND conversation_id = ? AND summary LIKE ?")
      .get(maya.conversationId, `%${text}%`) !== undefined;

  say('traffic', 'shop', `Maya's order ships: the shop fires ${ORDER_SHIPPED_EVENT}, which starts her order follow-up`);
  const fired = await client.events.fire({
    event: ORDER_SHIPPED_EVENT,
    phone: maya.phone,
    metadata: { '1': 'A-1042', '2': 'on Friday' },
  });
  say('traffic', 'journey', `enrollment ${fired.enrollment_ids.join(', ')}: step 1 (order_update) sent now`);
  await settleUntil(settle, sentToMaya('A-1042 has shipped'));

  say(
    'traffic',
    'crm',
    `The CRM tags ${customers.campaignAudience.length} conversations "${CAMPAIGN_TAG}" and sends the weekend campaign`,
  );
  for (const id of customers.campaignAudience) await client.conversations.update({ id, tags: [CAMPAIGN_TAG] });
  const draft = await client.campaigns.create({
    name: 'Weekend offer',
    template_id: WEEKEND_OFFER_TEMPLATE,
    audience: { tags: [CAMPAIGN_TAG] },
    variables: { '1': 'there' },
  });
  await client.campaigns.send({ id: draft.id });
  let campaign = await client.campaigns.get({ id: draft.id });
  // Finished once every recipient has its final outcome: delivered, failed or skipped.
  const finished = () =>
    campaign.status === 'sent' &&
    campaign.stats.delivered + campaign.stats.failed + campaign.stats.skipped === campaign.stats.recipients;
  await settleUntil(async () => {
    await settle();
    campaign = await client.campaigns.get({ id: draft.id });
  }, finished);
  const { recipients, sent, delivered, failed, skipped } = campaign.stats;
  say(
    'traffic',
    'campaign',
    `"${campaign.name}" ${campaign.status}: ${recipients} recipients, ${sent} sent, ${delivered} delivered, ${failed} failed, ${skipped} skipped (opted out or no phone)`,
  );

  say(
    'traffic',
    'clock',
    'A day passes on the emulator clock (POST /_emulator/clock): the journey sends its next step',
  );
  await control('clock', { advance_seconds: DAY_SECONDS });
  await settleUntil(settle, sentToMaya('A-1042 should have arrived'));
  say('traffic', 'journey', 'step 2 (delivery_check) sent; step 3 (order_feedback) is due in 7 days');

  say('traffic', 'crm', 'The CRM replies to Maya, whose 24-hour window has closed by now');
  const reply = await sendToConversation(crm, maya.conversationId, 'Your refund of 49.00 has been processed.');
  say(
    'crm',
    reply.via === 'text' ? 'sent' : 'fallback',
    reply.via === 'text'
      ? 'sent as text'
      : `OUTSIDE_SERVICE_WINDOW: sent the approved template ${String(reply.message.template_name ?? reply.templateId)} instead (the text waits on the timeline)`,
  );
  await settleUntil(settle, sentToMaya('there is an update on your order'));
}
