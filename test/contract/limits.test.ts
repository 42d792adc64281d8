import { File } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints } from '../../src/api/index.js';
import {
  COMMENT_MAX_CHARS,
  COMMENT_RULES_MAX,
  IdempotencyKey,
  KNOWLEDGE_FILE_MAX_BYTES,
  LoopbackTolerantWebhookCreate,
  PROVIDER_CONFIGS,
} from '../../src/resources/index.js';
import { isInvalidPlatformIssue } from '../../src/api/schemas/common.js';
import { maskSecret } from '../../src/api/schemas/provider-config.js';

const e = endpoints;
const send = (extra: Record<string, unknown>) => ({ conversation_id: 'conv_1', content: 'hi', ...extra });
const media = (extra: Record<string, unknown>) =>
  send({ media: { type: 'image', url: 'https://cdn.example.com/a.png', ...extra } });
const voice = (extra: Record<string, unknown>) => ({ enabled: true, config: { voice_id: 'v1', ...extra } });
const voiceSettings = (extra: Record<string, unknown>) => voice({ voice_settings: extra });
const customReply = (extra: Record<string, unknown>) => ({
  enabled: true,
  config: { url: 'https://reply.example.com/hook', ...extra },
});
const trigger = (extra: Record<string, unknown>) => ({ trigger_name: 'welcome', phone: '+14155550123', ...extra });
const recipients = (n: number) => ({
  trigger_name: 'welcome',
  recipients: Array.from({ length: n }, () => ({ phone: '+14155550123' })),
});
const rules = (n: number, rule: Record<string, unknown> = {}) => ({
  rules: Array.from({ length: n }, () => ({ keywords: ['price'], reply: 'See our site.', ...rule })),
});
const locators = (n: number) =>
  voice({
    pronunciation_dictionary_locators: Array.from({ length: n }, (_, i) => ({
      pronunciation_dictionary_id: `d${i}`,
      version_id: 'v',
    })),
  });
const webhook = (url: string) => ({ url, events: ['message.*'] });
const file = (bytes: number, name: string) => ({
  type: 'faq',
  title: 'Prices',
  file: new File([new Uint8Array(bytes)], name),
});

/** [limit, schema, the value at the boundary (accepted), one past it (rejected)]. */
const cases: [string, z.ZodType, unknown, unknown][] = [
  ['content 4096', e.messages.send.body, send({ content: 'a'.repeat(4096) }), send({ content: 'a'.repeat(4097) })],
  ['content at least 1', e.conversations.sendMessage.body, { content: 'a' }, { content: '' }],
  ['media type among the four', e.messages.send.body, media({ type: 'video' }), media({ type: 'gif' })],
  [
    'media url https',
    e.messages.send.body,
    media({ url: 'https://cdn.example.com/a.png' }),
    media({ url: 'http://cdn.example.com/a.png' }),
  ],
  ['caption 1024', e.messages.send.body, media({ caption: 'c'.repeat(1024) }), media({ caption: 'c'.repeat(1025) })],
  ['filename 255', e.messages.send.body, media({ filename: 'f'.repeat(255) }), media({ filename: 'f'.repeat(256) })],
  [
    'buttons at most 10',
    e.messages.send.body,
    send({ buttons: Array(10).fill('Yes') }),
    send({ buttons: Array(11).fill('Yes') }),
  ],
  ['buttons at least 1', e.messages.send.body, send({ buttons: ['Yes'] }), send({ buttons: [] })],
  ['button label 20', e.messages.send.body, send({ buttons: ['b'.repeat(20)] }), send({ buttons: ['b'.repeat(21)] })],
  [
    'cta display_text 20',
    e.messages.send.body,
    send({ cta_url: { url: 'https://x.example', display_text: 'd'.repeat(20) } }),
    send({ cta_url: { url: 'https://x.example', display_text: 'd'.repeat(21) } }),
  ],
  [
    'cta url https',
    e.messages.send.body,
    send({ cta_url: { url: 'https://x.example', display_text: 'Go' } }),
    send({ cta_url: { url: 'ftp://x.example', display_text: 'Go' } }),
  ],
  ['message input is strict', e.conversations.sendMessage.body, { content: 'hi' }, { content: 'hi', contnet: 'typo' }],
  [
    'send names a conversation or a contact with channel',
    e.messages.send.body,
    { contact_id: 'ct_1', channel: 'phone', content: 'hi' },
    { contact_id: 'ct_1', content: 'hi' },
  ],
  ['send names one target only', e.messages.send.body, send({}), send({ contact_id: 'ct_1', channel: 'phone' })],
  ['reaction 8 characters', e.messages.react.body, { emoji: '👍'.repeat(8) }, { emoji: '👍'.repeat(9) }],
  ['reaction empty clears', e.messages.react.body, { emoji: '' }, { emoji: null }],
  ['phone leading plus', e.trigger.enroll.body, trigger({}), trigger({ phone: '14155550123' })],
  [
    'metadata keyed by positions',
    e.trigger.enroll.body,
    trigger({ metadata: { '1': 'Ada', '2': 'x' } }),
    trigger({ metadata: { name: 'Ada' } }),
  ],
  [
    'metadata values are strings',
    e.trigger.enroll.body,
    trigger({ metadata: { '1': 'Ada' } }),
    trigger({ metadata: { '1': 42 } }),
  ],
  ['batch 100 recipients', e.trigger.batch.body, recipients(100), recipients(101)],
  ['batch at least 1 recipient', e.trigger.batch.body, recipients(1), recipients(0)],
  [
    'brain_config platform keys',
    e.groups.create.body,
    { name: 'G', brain_config: { platform_prompts: { phone: 'Be brief' } } },
    { name: 'G', brain_config: { platform_prompts: { sms: 'Be brief' } } },
  ],
  [
    'brain_config is strict',
    e.groups.update.body,
    { brain_config: { tone: 'warm', enabled_platforms: { social_page: true } } },
    { brain_config: { tone: 'warm', mood: 'x' } },
  ],
  [
    'voice stability <= 1',
    e.groups.putProvider.body,
    voiceSettings({ stability: 1 }),
    voiceSettings({ stability: 1.01 }),
  ],
  [
    'voice similarity_boost >= 0',
    e.groups.putProvider.body,
    voiceSettings({ similarity_boost: 0 }),
    voiceSettings({ similarity_boost: -0.01 }),
  ],
  ['voice style <= 1', e.channels.putProvider.body, voiceSettings({ style: 1 }), voiceSettings({ style: 1.5 })],
  ['voice speed >= 0.7', e.groups.putProvider.body, voiceSettings({ speed: 0.7 }), voiceSettings({ speed: 0.69 })],
  ['voice speed <= 1.2', e.groups.putProvider.body, voiceSettings({ speed: 1.2 }), voiceSettings({ speed: 1.21 })],
  [
    'voice seed unsigned 32-bit',
    e.groups.putProvider.body,
    voice({ seed: 4_294_967_295 }),
    voice({ seed: 4_294_967_296 }),
  ],
  ['voice seed not negative', e.groups.putProvider.body, voice({ seed: 0 }), voice({ seed: -1 })],
  ['voice 3 dictionary locators', e.groups.putProvider.body, locators(3), locators(4)],
  [
    'voice text normalization enum',
    e.groups.putProvider.body,
    voice({ apply_text_normalization: 'off' }),
    voice({ apply_text_normalization: 'maybe' }),
  ],
  [
    'voice output format enum',
    e.groups.putProvider.body,
    voice({ output_format: 'mp3_44100_128' }),
    voice({ output_format: 'wav' }),
  ],
  [
    'custom reply timeout >= 1000',
    e.groups.putProvider.body,
    customReply({ timeout_ms: 1_000 }),
    customReply({ timeout_ms: 999 }),
  ],
  [
    'custom reply timeout <= 10000',
    e.channels.putProvider.body,
    customReply({ timeout_ms: 10_000 }),
    customReply({ timeout_ms: 10_001 }),
  ],
  [
    'custom reply url https',
    e.groups.putProvider.body,
    customReply({}),
    customReply({ url: 'http://reply.example.com/hook' }),
  ],
  ['page size 100', e.conversations.list.query, { limit: '100' }, { limit: '101' }],
  ['page size at least 1', e.tickets.list.query, { limit: 1 }, { limit: 0 }],
  ['Idempotency-Key 200', IdempotencyKey, 'k'.repeat(200), 'k'.repeat(201)],
  ['Idempotency-Key at least 1', IdempotencyKey, 'k', ''],
  [
    'webhook url public https',
    e.webhooks.create.body,
    webhook('https://hooks.example.com/in'),
    webhook('http://hooks.example.com/in'),
  ],
  [
    'webhook url not loopback',
    e.webhooks.create.body,
    webhook('https://hooks.example.com/in'),
    webhook('https://127.0.0.1/in'),
  ],
  [
    'webhook url not private',
    e.webhooks.create.body,
    webhook('https://hooks.example.com/in'),
    webhook('https://192.168.1.20/in'),
  ],
  [
    'emulator allows http to loopback',
    LoopbackTolerantWebhookCreate,
    webhook('http://127.0.0.1:4000/in'),
    webhook('http://hooks.example.com/in'),
  ],
  [
    'emulator allows localhost',
    LoopbackTolerantWebhookCreate,
    webhook('http://localhost:4000/in'),
    webhook('http://10.0.0.1/in'),
  ],
  [
    'webhook url that is no URL at all',
    e.webhooks.create.body,
    webhook('https://hooks.example.com/in'),
    webhook('hooks'),
  ],
  [
    'emulator webhook url that is no URL at all',
    LoopbackTolerantWebhookCreate,
    webhook('http://localhost:4000/in'),
    webhook('not a url'),
  ],
  [
    'webhook events are patterns',
    e.webhooks.create.body,
    webhook('https://h.example/in'),
    { url: 'https://h.example/in', events: ['message*'] },
  ],
  [
    'webhook events not empty',
    e.webhooks.create.body,
    webhook('https://h.example/in'),
    { url: 'https://h.example/in', events: [] },
  ],
  ['ticket If-Match is an ETag', e.tickets.update.headers, { 'if-match': '"3"' }, { 'if-match': '3' }],
  ['template send to digits', e.templates.send.body, { to: '14155550123' }, { to: '+14155550123' }],
  [
    'key scopes are known',
    e.keys.create.body,
    { label: 'ci', kind: 'test', scopes: ['tickets:read'] },
    { label: 'ci', kind: 'test', scopes: ['tickets:admin'] },
  ],
  ['stop enrollments names a phone or journey', e.trigger.stopEnrollments.query, { phone: '+14155550123' }, {}],
  [
    'journey steps at least 1',
    e.journeys.replaceSteps.body,
    { steps: [{ template_id: 'tpl_1', delay_seconds: 0 }] },
    { steps: [] },
  ],
  ['journey status active or paused', e.journeys.setStatus.body, { status: 'paused' }, { status: 'draft' }],
  [
    'analytics range ordered',
    e.analytics.summary.query,
    { from: '2025-01-01', to: '2025-01-01' },
    { from: '2025-01-02', to: '2025-01-01' },
  ],
  ['contact update is strict', e.contacts.update.body, { lead_stage: 'won' }, { lead_stage: 'won', score: 5 }],
  [
    'campaign audience not empty',
    e.campaigns.create.body,
    { name: 'Sale', template_id: 'tpl_1', audience: { tags: ['vip'] } },
    { name: 'Sale', template_id: 'tpl_1', audience: {} },
  ],
  [
    'knowledge file 10 MiB',
    e.groups.uploadKnowledge.body,
    file(KNOWLEDGE_FILE_MAX_BYTES, 'a.pdf'),
    file(KNOWLEDGE_FILE_MAX_BYTES + 1, 'a.pdf'),
  ],
  ['knowledge file type', e.groups.uploadKnowledge.body, file(10, 'prices.XLSX'), file(10, 'prices.exe')],
  ['comment rules at most 50', e.comments.updateSettings.body, rules(COMMENT_RULES_MAX), rules(COMMENT_RULES_MAX + 1)],
  [
    'comment rule keywords 1 to 50',
    e.comments.updateSettings.body,
    rules(1, { keywords: Array(50).fill('a') }),
    rules(1, { keywords: [] }),
  ],
  [
    'comment keyword 100 characters',
    e.comments.updateSettings.body,
    rules(1, { keywords: ['k'.repeat(100)] }),
    rules(1, { keywords: ['k'.repeat(101)] }),
  ],
  [
    'comment reply 2200 characters',
    e.comments.reply.body,
    { content: 'r'.repeat(COMMENT_MAX_CHARS) },
    { content: 'r'.repeat(COMMENT_MAX_CHARS + 1) },
  ],
  [
    'automation trigger names a target',
    e.automations.trigger.body,
    { contact_id: 'ct_1' },
    { variables: { '1': 'a' } },
  ],
];

describe('every limit of the spec lives in the schemas', () => {
  it.each(cases)('%s: the boundary is accepted, one past it rejected', (_name, schema, ok, bad) => {
    const accepted = schema.safeParse(ok);
    expect(accepted.error?.issues ?? []).toEqual([]);
    expect(schema.safeParse(bad).success).toBe(false);
  });
});

describe('INVALID_PLATFORM', () => {
  it.each([
    ['a channel filter', e.conversations.list.query, { channel: 'sms' }],
    ['a send channel', e.messages.send.body, { contact_id: 'ct_1', channel: 'email', content: 'hi' }],
    [
      'a platform key of brain_config',
      e.groups.create.body,
      { name: 'G', brain_config: { enabled_platforms: { fax: true } } },
    ],
    ['a connect session channel', e.channels.createConnectSession.body, { channel: 'telegram' }],
  ] as const)('tells an unknown platform in %s apart from other validation failures', (_where, schema, input) => {
    const issues = schema.safeParse(input).error?.issues ?? [];
    expect(issues.some(isInvalidPlatformIssue)).toBe(true);
  });

  it('does not call other failures INVALID_PLATFORM', () => {
    const issues = e.conversations.list.query.safeParse({ status: 'sleeping', limit: 500 }).error?.issues ?? [];
    expect(issues.length).toBe(2);
    expect(issues.some(isInvalidPlatformIssue)).toBe(false);
  });
});

describe('provider configs', () => {
  it('offers one config schema per :provider value, each refusing the other', () => {
    expect(PROVIDER_CONFIGS.voice.safeParse({ voice_id: 'v1' }).success).toBe(true);
    expect(PROVIDER_CONFIGS.custom_reply.safeParse({ voice_id: 'v1' }).success).toBe(false);
    expect(PROVIDER_CONFIGS.voice.safeParse({ url: 'https://r.example' }).success).toBe(false);
    expect(PROVIDER_CONFIGS.custom_reply.safeParse({ url: 'https://r.example', timeout_ms: 5000 }).success).toBe(true);
  });

  it('reads a secret back masked, never in full', () => {
    const read = { provider: 'voice', enabled: true, config: {}, has_secret: true, updated_at: '2025-11-21T00:00:00Z' };
    expect(maskSecret('sk_live_abcdefwxyz')).toBe('****wxyz');
    expect(e.groups.putProvider.response.safeParse({ ...read, secret: maskSecret('sk_live_abcdefwxyz') }).success).toBe(
      true,
    );
    expect(e.groups.putProvider.response.safeParse({ ...read, secret: 'sk_live_abcdefwxyz' }).success).toBe(false);
  });
});
