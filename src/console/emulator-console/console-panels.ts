/**
 * What the console lists: one panel per resource of the service, each filled by its script from one
 * list route of the contract (src/api/endpoints). A new resource of the emulator gets its panel here.
 */

/** `label` heads the column; `path` is a dotted path into each item (`a|b` falls back to b, `=text` is literal text). */
export type Column = readonly [label: string, path: string];

export interface ConsolePanel {
  id: string;
  title: string;
  /** The list route, relative to the emulator: `/v1/tickets?limit=20`. A detail panel's has `:id`. */
  list: string;
  columns: readonly Column[];
  /** The field naming each item. @default 'id' */
  key?: string;
  /** Where the items are in the answer. @default 'data' (a page) */
  items?: string;
}

/** A panel over what belongs to one row of another panel (a group's knowledge), shown once its button is clicked. */
export interface ConsoleDetailPanel extends ConsolePanel {
  /** The panel whose rows get the button. */
  of: string;
  /** The row's button that opens it. */
  button: string;
}

const PROVIDER_COLUMNS: readonly Column[] = [
  ['Provider', 'provider'],
  ['Enabled', 'enabled'],
  ['Config', 'config'],
  // The secret exactly as the API reads it back, masked (docs/ai-and-knowledge.md); the console never asks for more.
  ['Secret', 'secret|=none'],
  ['Updated', 'updated_at'],
];

export const PANELS: readonly ConsolePanel[] = [
  {
    id: 'conversations',
    title: 'Conversations',
    list: '/v1/conversations?limit=20',
    columns: [
      ['Latest activity', 'latest_activity_at'],
      ['Customer', 'customer.name|customer.handle'],
      ['Channel', 'channel'],
      ['Status', 'status'],
      ['Last message', 'last_message_preview'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'contacts',
    title: 'Contacts',
    list: '/v1/contacts?limit=20',
    columns: [
      ['Updated', 'updated_at'],
      ['Name', 'name|phone|identities.handle'],
      ['Phone', 'phone'],
      ['Channels', 'identities.channel'],
      ['Lead stage', 'lead_stage'],
      ['Opted out', 'opted_out'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'tickets',
    title: 'Tickets',
    list: '/v1/tickets?limit=20',
    columns: [
      ['Created', 'created_at'],
      ['Subject', 'subject'],
      ['Kind', 'kind'],
      ['Priority', 'priority'],
      ['Status', 'status'],
      ['Assignee', 'assignee'],
    ],
  },
  {
    id: 'comments',
    title: 'Comments',
    list: '/v1/comments?limit=20',
    columns: [
      ['Created', 'created_at'],
      ['Account', 'integration_id'],
      ['Post', 'post_id'],
      ['Author', 'author.name|author.handle'],
      ['Comment', 'content'],
      ['Replies', 'replies.content|=none yet'],
      ['Replied by', 'replies.source'],
    ],
  },
  {
    id: 'comment-rules',
    title: 'Comment keyword rules',
    list: '/v1/comments/settings',
    items: 'rules',
    columns: [
      ['Keywords', 'keywords'],
      ['Reply', 'reply'],
      ['Account', 'integration_id|=every account'],
      ['Enabled', 'enabled'],
    ],
  },
  {
    id: 'automations',
    title: 'Automations',
    list: '/v1/automations?limit=20',
    columns: [
      ['Name', 'name'],
      ['Trigger', 'trigger'],
      ['Status', 'status'],
      ['Sends', 'content'],
      ['Account', 'integration_id|=the conversation’s'],
      ['Last run', 'last_run_at'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'accounts',
    title: 'Connected accounts',
    list: '/v1/channels?limit=20',
    key: 'integration_id',
    columns: [
      ['Name', 'display_name'],
      ['Channel', 'channel'],
      ['Status', 'status'],
      ['AI replies', 'ai_enabled'],
      ['Comment AI', 'ai_comment_replies_enabled'],
      ['Group', 'group_id'],
      ['Id', 'integration_id'],
    ],
  },
  {
    id: 'groups',
    title: 'AI groups',
    list: '/v1/channels/groups?limit=20',
    key: 'group_id',
    columns: [
      ['Name', 'name'],
      ['AI', 'ai_enabled'],
      ['Business', 'brain_config.business_name'],
      ['Tone', 'brain_config.tone'],
      ['Accounts', 'integration_ids'],
      ['Id', 'group_id'],
    ],
  },
  {
    id: 'templates',
    title: 'Templates',
    list: '/v1/templates?limit=20',
    columns: [
      ['Name', 'name'],
      ['Category', 'category'],
      ['Status', 'status'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'journeys',
    title: 'Journeys',
    list: '/v1/journeys?limit=20',
    columns: [
      ['Name', 'name'],
      ['Status', 'status'],
      ['Trigger', 'trigger_name'],
      ['Business events', 'events'],
      ['Steps', 'steps.template_id'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'enrollments',
    title: 'Journey enrollments',
    list: '/v1/trigger/history?limit=20',
    columns: [
      ['Created', 'created_at'],
      ['Phone', 'phone'],
      ['Trigger', 'trigger_name'],
      ['Status', 'status'],
      ['Next step at', 'next_step_at'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'campaigns',
    title: 'Campaigns',
    list: '/v1/campaigns?limit=20',
    columns: [
      ['Name', 'name'],
      ['Status', 'status'],
      ['Template', 'template_id'],
      ['Scheduled', 'scheduled_at'],
      ['Sent at', 'sent_at'],
      ['Outcomes', 'stats'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'webhooks',
    title: 'Webhook endpoints',
    list: '/v1/webhooks?limit=20',
    columns: [
      ['URL', 'url'],
      ['Events', 'events'],
      ['Active', 'is_active'],
      ['Id', 'id'],
    ],
  },
  {
    id: 'keys',
    title: 'API keys',
    // The list never carries a key's value (docs/keys-and-limits.md): its last 4 characters tell keys apart.
    list: '/v1/keys?limit=20',
    columns: [
      ['Label', 'label'],
      ['Kind', 'kind'],
      ['Ends in', 'last4'],
      ['Last used', 'last_used_at|=never'],
      ['Created', 'created_at'],
      ['Scopes', 'scopes'],
      ['Id', 'id'],
    ],
  },
];

export const DETAIL_PANELS: readonly ConsoleDetailPanel[] = [
  {
    id: 'conversation-messages',
    of: 'conversations',
    button: 'Messages',
    title: 'Messages with',
    list: '/v1/conversations/:id/messages?limit=20',
    columns: [
      ['When', 'created_at'],
      ['Direction', 'direction'],
      ['Content', 'content|=(media)'],
      ['Sent by', 'source'],
      ['Delivery', 'delivery_status'],
      ['Error', 'error.reason'],
    ],
  },
  {
    id: 'account-providers',
    of: 'accounts',
    button: 'Providers',
    title: 'Provider overrides of',
    list: '/v1/channels/:id/providers?limit=20',
    key: 'provider',
    columns: PROVIDER_COLUMNS,
  },
  {
    id: 'group-knowledge',
    of: 'groups',
    button: 'Knowledge',
    title: 'Knowledge of',
    list: '/v1/channels/groups/:id/knowledge?limit=20',
    key: 'entry_id',
    columns: [
      ['Title', 'title'],
      ['Type', 'type'],
      ['Source', 'source'],
      ['File', 'filename'],
      ['Added', 'created_at'],
      ['Content', 'content'],
    ],
  },
  {
    id: 'group-providers',
    of: 'groups',
    button: 'Providers',
    title: 'Providers of',
    list: '/v1/channels/groups/:id/providers?limit=20',
    key: 'provider',
    columns: PROVIDER_COLUMNS,
  },
];
