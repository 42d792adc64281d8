import type { z } from 'zod';
import { AutomationTrigger } from '../schemas/automation.js';
import { CampaignCreate, CampaignUpdate } from '../schemas/campaign.js';
import { ContactUpdate } from '../schemas/contact.js';
import { ConversationUpdate } from '../schemas/conversation.js';
import { LeadMove, LeadUpdate } from '../schemas/lead.js';
import { ConversationMessageSend, MessageSend } from '../schemas/message.js';
import { CustomReplyProviderPut, VoiceProviderPut } from '../schemas/provider-config.js';
import { TemplateCreate, TemplateDraftValidate, TemplateSend } from '../schemas/template.js';
import { TicketUpdate } from '../schemas/ticket.js';
import { TriggerBatchRequest, TriggerRequest, WebhookSendRequest } from '../schemas/trigger.js';
import { SignPayloadRequest, WebhookCreate } from '../schemas/webhook-endpoint.js';

/** A request body as a caller writes it, checked by the compiler against its schema's input type. */
const body = <S extends z.ZodType>(_schema: S, value: z.input<S>) => value;

/** The journey trigger the examples fire (the `trigger_name` of the JourneyCreate example). */
const TRIGGER = 'order_followup';

/** The variables of the JourneyCreate example's template (`tpl_order_update`: a name and an order number). */
const VARIABLES = { '1': 'Ada', '2': '#1042' };

/**
 * The request bodies whose required fields alone would not make a request the service accepts (one of
 * two ids, a secret with an enabled provider, a template's variables), or show nothing (an update of no
 * field), by component name. Ids are the emulator's seeded ones (see SEEDED_IDS in examples.ts).
 */
export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  MessageSend: body(MessageSend, { conversation_id: 'conv_delivered', content: 'Your order shipped today' }),
  ConversationMessageSend: body(ConversationMessageSend, { content: 'Your order shipped today' }),
  VoiceProviderPut: body(VoiceProviderPut, {
    enabled: true,
    config: { voice_id: 'voice_warm_en', output_format: 'mp3_44100_128' },
    secret: 'sk_voice_example_key',
  }),
  CustomReplyProviderPut: body(CustomReplyProviderPut, {
    enabled: true,
    config: { url: 'https://shop.example.com/replies', timeout_ms: 5000 },
    secret: 'reply-signing-secret',
  }),
  WebhookCreate: body(WebhookCreate, {
    url: 'https://shop.example.com/hooks',
    events: ['message.*', 'ticket.created'],
    description: 'CRM sync',
  }),
  SignPayloadRequest: body(SignPayloadRequest, {
    webhook_id: 'wh_7Kd2Qw9Zx4',
    payload: { event: 'ticket.created' },
    timestamp: 1768469400,
  }),
  TriggerRequest: body(TriggerRequest, { trigger_name: TRIGGER, phone: '+14155550123', metadata: VARIABLES }),
  WebhookSendRequest: body(WebhookSendRequest, {
    trigger_name: TRIGGER,
    phone: '+14155550123',
    metadata: VARIABLES,
    send_now: true,
  }),
  TriggerBatchRequest: body(TriggerBatchRequest, {
    trigger_name: TRIGGER,
    recipients: [
      { phone: '+14155550123', metadata: VARIABLES },
      { phone: '+14155550124', metadata: { '1': 'Grace', '2': '#1043' } },
    ],
  }),
  CampaignCreate: body(CampaignCreate, {
    name: 'Weekend offer',
    template_id: 'tpl_weekend_offer',
    audience: { contact_ids: ['ct_delivered'] },
    variables: { '1': 'Ada' },
  }),
  CampaignUpdate: body(CampaignUpdate, { name: 'Weekend offer (second wave)' }),
  TemplateCreate: body(TemplateCreate, {
    name: 'order_delayed',
    language: 'en',
    category: 'UTILITY',
    body: 'Hi {{1}}, your order {{2}} is delayed by a day.',
  }),
  TemplateDraftValidate: body(TemplateDraftValidate, {
    body: 'Hi {{1}}, your order {{2}} has shipped.',
    category: 'UTILITY',
  }),
  TemplateSend: body(TemplateSend, { to: '14155550123', variables: VARIABLES }),
  AutomationTrigger: body(AutomationTrigger, { conversation_id: 'conv_delivered', variables: VARIABLES }),
  TicketUpdate: body(TicketUpdate, { status: 'pending', priority: 'high' }),
  ConversationUpdate: body(ConversationUpdate, { tags: ['jackets'], assignee: 'agent_grace' }),
  ContactUpdate: body(ContactUpdate, { name: 'Ada Lovelace', email: 'ada@example.com' }),
  LeadUpdate: body(LeadUpdate, { owner: 'agent_grace', value: 1200 }),
  // One of the default pipeline's stages (docs/resources.md).
  LeadMove: body(LeadMove, { stage: 'contacted' }),
};
