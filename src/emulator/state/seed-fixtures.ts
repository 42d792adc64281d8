import type { Stage } from '../../resources/index.js';
import { templateVariables } from '../domain/templates/template-variables.js';
import { validateTemplateCopy } from '../domain/templates/template-validation.js';
import type { Account, Group, TemplateRecord } from './records.js';

/** The seeded workspace's fixed ids, for tests, demos and docs. */
export const SEED_IDS = {
  phoneMain: 'int_phone_main',
  phoneSupport: 'int_phone_support',
  photo: 'int_photo_main',
  page: 'int_page_main',
  group: 'grp_support',
  /** Recipient ends 0001: the provider rejects at once (422 SEND_FAILED, 131026). */
  sendFailed: { contact: 'ct_send_failed', conversation: 'conv_send_failed' },
  /** Recipient ends 0002: 201, then message.delivery_failed (131049, throttled). */
  throttled: { contact: 'ct_throttled', conversation: 'conv_throttled' },
  /** Recipient ends 0003 and has opted out: 422 CONTACT_OPTED_OUT. */
  optedOut: { contact: 'ct_opted_out', conversation: 'conv_opted_out' },
  /** Chats on both phone numbers: POST /v1/messages by contact needs integration_id (ACCOUNT_REQUIRED). */
  twoAccounts: { contact: 'ct_two_accounts', conversations: ['conv_two_accounts_main', 'conv_two_accounts_support'] },
  /** Last customer message 30 h ago: free text is OUTSIDE_SERVICE_WINDOW. */
  windowClosed: { contact: 'ct_window_closed', conversation: 'conv_window_closed' },
  /** Open phone window, ordinary number: delivered. */
  delivered: { contact: 'ct_delivered', conversation: 'conv_delivered' },
  photoChat: { contact: 'ct_photo', conversation: 'conv_photo' },
  pageChat: { contact: 'ct_page', conversation: 'conv_page' },
  templates: {
    approved: 'tpl_order_update',
    pending: 'tpl_spring_sale',
    rejected: 'tpl_winback',
    draft: 'tpl_feedback',
    /** Approved and not pinned: with two active numbers, a send without integration_id is AMBIGUOUS_INTEGRATION. */
    approvedUnpinned: 'tpl_appointment_reminder',
    /** Approved MARKETING template (campaigns; 131049 throttling counts against it). */
    approvedMarketing: 'tpl_weekend_offer',
  },
  comments: {
    /** On the photo-social account, answered by the seeded keyword rule. */
    answered: 'cmt_seed_price',
    /** On the social page, not answered yet. */
    open: 'cmt_seed_question',
    /** The seeded rule: keywords "price" and "how much", every account. */
    rule: 'crl_seed_price',
  },
  /** One per trigger kind; `aut_welcome` and `aut_review_request` are paused (docs/automations.md). */
  automations: {
    keyword: 'aut_price_keyword',
    newConversation: 'aut_welcome',
    schedule: 'aut_review_request',
    api: 'aut_order_followup',
  },
} as const;

/** The default pipeline (docs/resources.md). */
export const DEFAULT_STAGES = ['new', 'contacted', 'qualified', 'proposal', 'won', 'lost'] as const;

export function seedStages(): Stage[] {
  return DEFAULT_STAGES.map((id, position) => ({
    id,
    name: id[0]!.toUpperCase() + id.slice(1),
    position,
    terminal: id === 'won' || id === 'lost',
  }));
}

export function seedAccounts(createdAt: string): Account[] {
  const base = { group_id: null, ai_comment_replies_enabled: false, status: 'active' as const, created_at: createdAt };
  return [
    {
      ...base,
      integration_id: SEED_IDS.phoneMain,
      channel: 'phone',
      display_name: 'Main line',
      phone: '+14155550100',
      ai_enabled: true,
    },
    {
      ...base,
      integration_id: SEED_IDS.phoneSupport,
      channel: 'phone',
      display_name: 'Support line',
      phone: '+14155550199',
      ai_enabled: false,
      group_id: SEED_IDS.group,
    },
    {
      ...base,
      integration_id: SEED_IDS.photo,
      channel: 'photo_social',
      display_name: '@convokit.shop',
      phone: null,
      ai_enabled: true,
      ai_comment_replies_enabled: true,
    },
    {
      ...base,
      integration_id: SEED_IDS.page,
      channel: 'social_page',
      display_name: 'Convo Kit Shop',
      phone: null,
      ai_enabled: false,
      group_id: SEED_IDS.group,
    },
  ];
}

export function seedGroups(createdAt: string): Group[] {
  return [
    {
      group_id: SEED_IDS.group,
      name: 'Support team',
      ai_enabled: true,
      brain_config: {
        business_name: 'Convo Kit Shop',
        tone: 'friendly',
        language: 'en',
        enabled_platforms: { phone: true, social_page: true },
      },
      created_at: createdAt,
      updated_at: createdAt,
    },
  ];
}

export function seedTemplates(createdAt: string): TemplateRecord[] {
  const ids = SEED_IDS.templates;
  const template = (
    fields: Pick<TemplateRecord, 'id' | 'name' | 'category' | 'status' | 'body'> & Partial<TemplateRecord>,
  ): TemplateRecord => ({
    language: 'en',
    quality: 'unknown',
    pinned_integration_id: null,
    rejection_reason: null,
    variables: templateVariables(fields.body),
    validation: validateTemplateCopy(fields.body, fields.category),
    created_at: createdAt,
    updated_at: createdAt,
    ...fields,
  });
  return [
    template({
      id: ids.approved,
      name: 'order_update',
      category: 'UTILITY',
      status: 'approved',
      quality: 'high',
      pinned_integration_id: SEED_IDS.phoneMain,
      body: 'Your order {{1}} has shipped and arrives {{2}}.',
    }),
    template({
      id: ids.pending,
      name: 'spring_sale',
      category: 'MARKETING',
      status: 'pending_review',
      body: 'Spring sale: {{1}} off everything until Sunday.',
    }),
    template({
      id: ids.rejected,
      name: 'winback',
      category: 'MARKETING',
      status: 'rejected',
      quality: 'low',
      rejection_reason: 'The copy reads as promotional but was submitted without an opt-out line',
      body: 'We miss you! Come back for a surprise.',
    }),
    template({
      id: ids.draft,
      name: 'feedback_request',
      category: 'UTILITY',
      status: 'draft',
      body: 'How was your visit on {{1}}? Reply 1-5.',
    }),
    template({
      id: ids.approvedUnpinned,
      name: 'appointment_reminder',
      category: 'UTILITY',
      status: 'approved',
      quality: 'high',
      body: 'Reminder: your appointment is on {{1}}.',
    }),
    template({
      id: ids.approvedMarketing,
      name: 'weekend_offer',
      category: 'MARKETING',
      status: 'approved',
      quality: 'medium',
      pinned_integration_id: SEED_IDS.phoneMain,
      body: 'Hi {{1}}, this weekend only: a special offer for you in store.',
    }),
  ];
}
