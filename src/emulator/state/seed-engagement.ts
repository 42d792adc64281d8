import { nextSlot } from '../domain/automations/automation-schedule.js';
import { SEED_IDS } from './seed-fixtures.js';
import {
  COMMENT_SETTINGS_ID,
  type AutomationRecord,
  type CommentRecord,
  type CommentSettingsRecord,
} from './records.js';

const HOUR_MS = 3_600_000;
const WEEK_SECONDS = 7 * 24 * 3600;

/** The seeded keyword rule's answer. */
const PRICE_REPLY = 'Thanks for asking! Every price is on the product page at convokit.shop.';

/** Org-wide AI comment replies off (a test or demo turns them on), and one keyword rule for every account. */
export function seedCommentSettings(updatedAt: string): CommentSettingsRecord {
  return {
    id: COMMENT_SETTINGS_ID,
    ai_replies_enabled: false,
    rules: [
      {
        id: SEED_IDS.comments.rule,
        keywords: ['price', 'how much'],
        reply: PRICE_REPLY,
        integration_id: null,
        enabled: true,
      },
    ],
    updated_at: updatedAt,
  };
}

/** Two comments of the last hours, oldest first: one the rule answered, one still open. */
export function seedComments(nowMs: number): CommentRecord[] {
  const at = (hoursAgo: number) => new Date(nowMs - hoursAgo * HOUR_MS).toISOString();
  const ids = SEED_IDS.comments;
  return [
    {
      id: ids.answered,
      integration_id: SEED_IDS.photo,
      channel: 'photo_social',
      post_id: 'post_spring_lookbook',
      author: { handle: '@lena.styles', name: 'Lena' },
      content: 'How much is the green jacket?',
      replies: [
        { id: 'crp_seed_price', comment_id: ids.answered, content: PRICE_REPLY, source: 'rule', created_at: at(5) },
      ],
      created_at: at(5),
    },
    {
      id: ids.open,
      integration_id: SEED_IDS.page,
      channel: 'social_page',
      post_id: 'post_store_opening',
      author: { handle: 'psid_4410', name: 'Omar Haddad' },
      content: 'Is the Berlin store open on Sundays?',
      replies: [],
      created_at: at(2),
    },
  ];
}

/**
 * One automation per trigger kind, oldest first (docs/automations.md): the price keyword runs on customer
 * messages, the welcome and the weekly review request are paused, the api one runs only when triggered.
 */
export function seedAutomations(createdAt: string, nowMs: number): AutomationRecord[] {
  const ids = SEED_IDS.automations;
  const automation = (
    fields: Pick<AutomationRecord, 'id' | 'name' | 'trigger' | 'content'> & Partial<AutomationRecord>,
  ): AutomationRecord => ({
    status: 'active',
    integration_id: null,
    keywords: [],
    conditions: {},
    schedule: null,
    next_run_at: null,
    last_run_at: null,
    created_at: createdAt,
    updated_at: createdAt,
    ...fields,
  });
  const weekly = { first_run_at: createdAt, repeat_every_seconds: WEEK_SECONDS };
  return [
    automation({
      id: ids.newConversation,
      name: 'Welcome message',
      trigger: 'new_conversation',
      // Paused: active, it would answer every customer's first message, and every count of messages after a
      // first inbound message (users' tests, the starters') would change (docs/automations.md, "The seed").
      status: 'paused',
      content: 'Hi! Thanks for writing to Convo Kit Shop. A person will be with you shortly.',
    }),
    automation({
      id: ids.keyword,
      name: 'Price list on "price"',
      trigger: 'keyword',
      keywords: ['price', 'prices'],
      content: 'Our price list: convokit.shop/prices. Anything else we can help with?',
    }),
    automation({
      id: ids.schedule,
      name: 'Weekly review request',
      trigger: 'schedule',
      status: 'paused',
      integration_id: SEED_IDS.phoneMain,
      conditions: { channels: ['phone'] },
      schedule: weekly,
      next_run_at: nextSlot(weekly, nowMs),
      content: 'How was your last order with us? Reply 1-5.',
    }),
    automation({
      id: ids.api,
      name: 'Order ready follow-up',
      trigger: 'api',
      integration_id: SEED_IDS.phoneMain,
      content: 'Hi {{1}}, your order {{2}} is ready for pickup.',
    }),
  ];
}
