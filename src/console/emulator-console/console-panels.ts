import type { ConsolePanel } from './console-panel.js';
import { AUTOMATION_RUN_FORM, ENROLL_FORM } from './panel-forms.js';
import type { RowAction, RowConditions } from './row-action.js';

/** The button that switches an account's AI setting to the other state: `AI off` on a row where it is on. */
function aiSwitch(
  name: string,
  field: 'ai_enabled' | 'ai_comment_replies_enabled',
  on: boolean,
  when: RowConditions = {},
): RowAction {
  return {
    label: `${name} ${on ? 'off' : 'on'}`,
    when: { ...when, [field]: on },
    call: { route: 'channels.update', params: { integration_id: '{key}' } },
    body: { [field]: !on },
  };
}

/**
 * What the console lists: one panel per resource of the service, with the buttons of its rows. A new
 * resource of the emulator gets its panel here.
 */
export const PANELS: readonly ConsolePanel[] = [
  {
    id: 'conversations',
    title: 'Conversations',
    // By latest activity, as its first column says: the contract's list is by creation (conversations.list).
    list: { control: '/console/conversations', method: 'GET', query: { limit: 20 } },
    empty: 'Nothing yet: write in as the customer above (or POST /_emulator/inbound) to start one.',
    columns: [
      ['Latest activity', 'latest_activity_at'],
      ['Customer', 'customer.name|customer.handle'],
      ['Channel', 'channel'],
      ['Status', 'status'],
      ['Last message', 'last_message_preview'],
      ['Id', 'id'],
    ],
    choices: {
      select: 'automation-conversation',
      value: 'id',
      label: '{customer.name|customer.handle} · {channel}',
      none: 'write in first',
    },
    actions: [
      {
        label: 'Hand off',
        when: { status: { not: 'closed' } },
        call: { control: '/handoff' },
        body: { conversation_id: { row: 'id' } },
      },
      // Through the API's own route (PATCH /v1/conversations/:id), so the console changes a conversation as a
      // client does: conversation.closed is announced to the webhooks.
      {
        label: 'Close',
        when: { status: { not: 'closed' } },
        call: { route: 'conversations.update', params: { id: '{key}' } },
        body: { status: 'closed' },
        done: 'Closed the conversation with {row.customer.name|row.customer.handle}',
      },
      {
        label: 'Reopen',
        when: { status: 'closed' },
        call: { route: 'conversations.update', params: { id: '{key}' } },
        body: { status: 'active' },
        done: 'Reopened the conversation with {row.customer.name|row.customer.handle}',
      },
    ],
  },
  {
    id: 'contacts',
    title: 'Contacts',
    list: { route: 'contacts.list', query: { limit: 20 } },
    empty: 'Nothing yet: a customer who writes in (above, or POST /_emulator/inbound) becomes one.',
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
    list: { route: 'tickets.list', query: { limit: 20 } },
    empty: "Nothing yet: a conversation's Hand off button (or POST /_emulator/handoff) opens one.",
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
    list: { route: 'comments.list', query: { limit: 20 } },
    empty: 'Nothing yet: comment as the customer above (or POST /_emulator/comment).',
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
    list: { route: 'comments.getSettings' },
    empty: 'Nothing yet: PATCH /v1/comments/settings with rules sets them.',
    items: 'rules',
    columns: [
      ['Keywords', 'keywords'],
      ['Reply', 'reply'],
      ['Account', 'integration_id|=every account'],
      ['Enabled', 'enabled'],
    ],
    toggle: {
      label: 'AI replies to comments (workspace-wide)',
      field: 'ai_replies_enabled',
      call: { route: 'comments.updateSettings' },
      note: 'each account has its own switch too (Connected accounts)',
    },
  },
  {
    id: 'automations',
    title: 'Automations',
    list: { route: 'automations.list', query: { limit: 20 } },
    empty: 'Nothing yet: the seed has one per trigger kind; POST /_emulator/reset brings them back.',
    columns: [
      ['Name', 'name'],
      ['Trigger', 'trigger'],
      ['Status', 'status'],
      ['Sends', 'content'],
      ['Account', 'integration_id|=the conversation’s'],
      ['Last run', 'last_run_at'],
      ['Next run', 'next_run_at'],
      ['Keywords', 'keywords'],
      ['Id', 'id'],
    ],
    form: AUTOMATION_RUN_FORM,
    actions: [
      {
        label: 'Trigger',
        when: { status: 'active' },
        call: { route: 'automations.trigger', params: { id: '{key}' } },
        body: {
          conversation_id: {
            input: 'automation-conversation',
            missing: 'An automation runs on a conversation: write in as a customer first.',
          },
          variables: { variables: 'automation-variables' },
        },
        done: 'Ran "{row.name}" on {answer.conversation_id}: run {answer.id} {answer.status}, message {answer.message_id}',
      },
      // The business pauses and resumes automations (docs/automations.md); a paused one does not run.
      {
        label: 'Pause',
        when: { status: 'active' },
        call: { control: '/automations/:id/status', params: { id: '{key}' } },
        body: { status: 'paused' },
      },
      {
        label: 'Resume',
        when: { status: 'paused' },
        call: { control: '/automations/:id/status', params: { id: '{key}' } },
        body: { status: 'active' },
      },
    ],
  },
  {
    id: 'accounts',
    title: 'Connected accounts',
    list: { route: 'channels.list', query: { limit: 20 } },
    empty: 'Nothing yet: the seed has the connected accounts; POST /_emulator/reset brings them back.',
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
    // The accounts a customer can comment on.
    choices: {
      select: 'comment-account',
      when: { channel: { not: 'phone' }, status: 'active' },
      value: 'integration_id',
      label: '{display_name} ({channel})',
      none: 'no photo or page account',
    },
    actions: [
      aiSwitch('AI', 'ai_enabled', true),
      aiSwitch('AI', 'ai_enabled', false),
      // A phone number gets no comments to reply to.
      aiSwitch('Comment AI', 'ai_comment_replies_enabled', true, { channel: { not: 'phone' } }),
      aiSwitch('Comment AI', 'ai_comment_replies_enabled', false, { channel: { not: 'phone' } }),
    ],
  },
  {
    id: 'groups',
    title: 'AI groups',
    list: { route: 'groups.list', query: { limit: 20 } },
    empty: 'Nothing yet: POST /v1/channels/groups adds one.',
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
    list: { route: 'templates.list', query: { limit: 20 } },
    empty: 'Nothing yet: POST /v1/templates adds one.',
    columns: [
      ['Name', 'name'],
      ['Category', 'category'],
      ['Status', 'status'],
      ['Id', 'id'],
    ],
    actions: [
      {
        label: 'Approve',
        when: { status: 'pending_review' },
        call: { control: '/templates/:id/review', params: { id: '{key}' } },
        body: { status: 'approved' },
      },
      {
        label: 'Reject',
        when: { status: 'pending_review' },
        call: { control: '/templates/:id/review', params: { id: '{key}' } },
        body: { status: 'rejected', reason: 'Rejected in the console' },
      },
    ],
  },
  {
    id: 'journeys',
    title: 'Journeys',
    list: { route: 'journeys.list', query: { limit: 20 } },
    empty: 'Nothing yet: POST /v1/journeys adds one.',
    columns: [
      ['Name', 'name'],
      ['Status', 'status'],
      ['Trigger', 'trigger_name'],
      ['Business events', 'events'],
      ['Steps', 'steps.template_id'],
      ['Id', 'id'],
    ],
    form: ENROLL_FORM,
    actions: [
      {
        label: 'Enroll',
        when: { status: 'active' },
        call: { route: 'trigger.enroll' },
        body: {
          trigger_name: { row: 'trigger_name' },
          phone: { input: 'enroll-phone' },
          metadata: { variables: 'enroll-variables' },
        },
        follow: { route: 'trigger.status', params: { id: '{answer.action_id}' } },
        done: 'Enrolled {body.phone} in "{row.name}": enrollment {answer.enrollment_id}; first step {followed.status}: {followed.what_happened}',
      },
    ],
  },
  {
    id: 'enrollments',
    title: 'Journey enrollments',
    list: { route: 'trigger.history', query: { limit: 20 } },
    empty: "Nothing yet: a journey's Enroll button (or POST /v1/trigger) enrolls a phone.",
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
    list: { route: 'campaigns.list', query: { limit: 20 } },
    empty: 'Nothing yet: POST /v1/campaigns adds one.',
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
    list: { route: 'webhooks.list', query: { limit: 20 } },
    empty: 'Nothing yet: POST /v1/webhooks registers one (convo-kit dev does it for your app).',
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
    list: { route: 'keys.list', query: { limit: 20 } },
    empty: 'Nothing yet: POST /v1/keys adds one.',
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
  {
    id: 'attempts',
    title: 'Webhook delivery attempts',
    list: { route: 'webhooks.listDeliveries', query: { limit: 10 } },
    empty: 'Nothing yet: they appear once a webhook endpoint is registered and an event happens.',
    // The first 5 endpoints only: each is one request against the admin key's rate limit (docs/emulator.md).
    across: { panel: 'webhooks', first: 5 },
    columns: [
      ['When', 'created_at'],
      ['Endpoint', 'of.url'],
      ['Event', 'event'],
      ['Attempt', 'attempt'],
      ['Status code', 'status_code|=no answer', 'delivered_at'],
      ['Next retry', 'next_retry_at'],
      ['Delivery id', 'delivery_id'],
    ],
    actions: [
      {
        label: 'Resend',
        call: { control: '/webhooks/deliveries/:delivery_id/resend', params: { delivery_id: '{row.delivery_id}' } },
        body: {},
        done: 'Resent {row.delivery_id}',
      },
    ],
  },
];
