import type { Column, ConsoleDetailPanel } from './console-panel.js';
import { KNOWLEDGE_UPLOAD_FORM } from './panel-forms.js';

const PROVIDER_COLUMNS: readonly Column[] = [
  ['Provider', 'provider'],
  ['Enabled', 'enabled'],
  ['Config', 'config'],
  // The secret exactly as the API reads it back, masked (docs/ai-and-knowledge.md); the console never asks for more.
  ['Secret', 'secret|=none'],
  ['Updated', 'updated_at'],
];

/** The panels over one row of another (a conversation's messages, a group's knowledge), each opened by its row's button. */
export const DETAIL_PANELS: readonly ConsoleDetailPanel[] = [
  {
    id: 'conversation-messages',
    of: 'conversations',
    button: 'Messages',
    title: 'Messages with',
    list: { route: 'conversations.listMessages', query: { limit: 20 } },
    empty: 'Nothing yet: POST /v1/conversations/{id}/messages sends one.',
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
    list: { route: 'channels.listProviders', query: { limit: 20 } },
    empty: 'None: PUT /v1/channels/{id}/providers/{provider} sets one.',
    key: 'provider',
    columns: PROVIDER_COLUMNS,
  },
  {
    id: 'group-knowledge',
    of: 'groups',
    button: 'Knowledge',
    title: 'Knowledge of',
    list: { route: 'groups.listKnowledge', query: { limit: 20 } },
    empty: 'Nothing yet: upload a file above, or POST /v1/channels/groups/{id}/knowledge.',
    key: 'entry_id',
    columns: [
      ['Title', 'title'],
      ['Type', 'type'],
      ['Source', 'source'],
      ['File', 'filename'],
      ['Added', 'created_at'],
      ['Content', 'content'],
    ],
    form: KNOWLEDGE_UPLOAD_FORM,
    submit: {
      label: 'Upload a file',
      call: { route: 'groups.uploadKnowledge' },
      body: {
        type: { input: 'knowledge-type' },
        title: { input: 'knowledge-title' },
        file: { file: 'knowledge-file' },
      },
      done: 'Added {answer.filename} as knowledge entry {answer.entry_id} ({answer.content.length} characters of text)',
    },
    actions: [{ label: 'Delete', call: { route: 'groups.deleteKnowledge', params: { entry_id: '{key}' } } }],
  },
  {
    id: 'group-providers',
    of: 'groups',
    button: 'Providers',
    title: 'Providers of',
    list: { route: 'groups.listProviders', query: { limit: 20 } },
    empty: 'None: PUT /v1/channels/groups/{id}/providers/{provider} sets one.',
    key: 'provider',
    columns: PROVIDER_COLUMNS,
  },
];
