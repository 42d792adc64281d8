import { newContact } from '../domain/contacts/new-contact.js';
import { z } from 'zod';
import { Id, Platform } from '../../resources/index.js';
import { AutomationRun } from '../../api/schemas/automation.js';
import { text } from '../../api/schemas/common.js';
import { Contact, Conversation, Message, PhoneNumber } from '../../resources/index.js';
import { startAiReply } from '../ai-reply/reply-to-message.js';
import { ApiFailure } from '../api-failure.js';
import { runInboundAutomations } from '../domain/automations/inbound-automations.js';
import { preview } from '../domain/messages/send-message.js';
import { windowExpiry } from '../domain/conversations/service-window.js';
import type { EmulatorContext } from '../route-handler.js';
import { control } from '../platform/controls-router.js';
import type { Account } from '../state/records.js';
import { stores, type Stores } from '../state/stores.js';

/** Words a customer replies with to opt out and back in (docs/emulator.md); compared trimmed, case-insensitive. */
export const STOP_WORDS: readonly string[] = ['STOP', 'UNSUBSCRIBE'];
export const START_WORDS: readonly string[] = ['START'];

export const InboundBody = z.strictObject({
  channel: Platform,
  /** The receiving account; @default the channel's first connected account */
  integration_id: Id.optional(),
  from: z.strictObject({ handle: text(200), name: text(200).optional() }),
  content: text(4096),
});
export type InboundBody = z.output<typeof InboundBody>;

export const InboundResult = z.object({
  contact: Contact,
  conversation: Conversation,
  message: Message,
  /** The automations the message started (docs/automations.md): each run's message is on its way. */
  automation_runs: z.array(AutomationRun),
});
export type InboundResult = z.output<typeof InboundResult>;

function receivingAccount(s: Stores, body: InboundBody): Account {
  if (body.integration_id !== undefined) {
    const account = s.accounts.require(body.integration_id, 'connected account');
    if (account.channel !== body.channel) {
      throw new ApiFailure(
        'ACCOUNT_MISMATCH',
        `Account ${account.integration_id} is a ${account.channel} account, not ${body.channel}`,
      );
    }
    return account;
  }
  // Oldest first: the channel's primary account, so a demo needs no integration_id.
  const account = s.accounts.all({ channel: body.channel, status: 'active' }).at(-1);
  if (!account) throw new ApiFailure('NOT_FOUND', `No connected ${body.channel} account receives messages`);
  return account;
}

function findOrCreateContact(
  ctx: EmulatorContext,
  s: Stores,
  body: InboundBody,
  account: Account,
  now: string,
): Contact {
  const { handle } = body.from;
  const identity = { channel: body.channel, handle, integration_id: account.integration_id };
  // On the phone channel the handle is the phone number, an indexed-size lookup; other handles need a scan.
  const candidates = body.channel === 'phone' ? s.contacts.all({ phone: handle }) : s.contacts.all();
  const known =
    candidates.find((c) => c.identities.some((i) => i.channel === body.channel && i.handle === handle)) ??
    candidates.find((c) => c.phone === handle);
  if (known) {
    if (known.identities.some((i) => i.integration_id === account.integration_id)) return known;
    return s.contacts.put({ ...known, identities: [...known.identities, identity], updated_at: now });
  }
  if (body.channel === 'phone' && !PhoneNumber.safeParse(handle).success) {
    throw new ApiFailure(
      'VALIDATION_FAILED',
      `from.handle must be a phone number in international format on the phone channel; got ${JSON.stringify(handle)}`,
      {
        details: [{ path: 'from.handle', in: 'body', message: 'expected international format with a leading plus' }],
      },
    );
  }
  return s.contacts.insert(
    newContact(ctx, { name: body.from.name ?? null, phone: body.channel === 'phone' ? handle : null, identity, now }),
  );
}

/**
 * A customer writes in (`POST /_emulator/inbound`): finds or creates the contact and an open
 * conversation on the receiving account, stores the message, opens the phone channel's 24-hour
 * window, and announces conversation.created (when new), message.received and a stop/start word.
 * Then the automations it starts run (docs/automations.md), and an AI reply is queued, off the request
 * (docs/custom-reply.md).
 */
export function receiveInbound(ctx: EmulatorContext, body: InboundBody): InboundResult {
  const s = stores(ctx.db);
  const nowMs = ctx.clock.now();
  const now = new Date(nowMs).toISOString();
  const result = ctx.db.transaction(() => {
    const account = receivingAccount(s, body);
    let contact = findOrCreateContact(ctx, s, body, account, now);
    // A closed conversation stays closed: the customer writing again opens a new one.
    const open = s.conversations
      .all({ contact_id: contact.id, integration_id: account.integration_id })
      .find((c) => c.status !== 'closed');
    const conversation: Conversation = {
      ...(open ?? {
        id: ctx.newId('conv'),
        contact_id: contact.id,
        customer: { name: contact.name, handle: body.from.handle },
        channel: body.channel,
        integration_id: account.integration_id,
        stage: contact.lead_stage,
        status: 'active' as const,
        assignee: null,
        tags: [],
        routing: { team: null, queue: null },
        created_at: now,
      }),
      last_message_preview: preview(body.content),
      latest_activity_at: now,
      service_window_expires_at: windowExpiry(body.channel, nowMs),
    };
    if (open) s.conversations.put(conversation);
    else s.conversations.insert(conversation);
    const message = s.messages.insert({
      id: ctx.newId('msg'),
      conversation_id: conversation.id,
      integration_id: account.integration_id,
      channel: body.channel,
      direction: 'received',
      content: body.content,
      media: null,
      buttons: null,
      cta_url: null,
      delivery_status: 'delivered',
      source: null,
      error: null,
      created_at: now,
    });
    const word = body.content.trim().toUpperCase();
    const isStop = STOP_WORDS.includes(word);
    const isStart = START_WORDS.includes(word);
    const optOut = isStop && !contact.opted_out;
    const optIn = isStart && contact.opted_out;
    if (optOut || optIn) contact = s.contacts.put({ ...contact, opted_out: optOut, updated_at: now });
    const keyword = optOut || optIn ? word : null;
    return { contact, conversation, message, isNew: !open, keyword, isWord: isStop || isStart };
  })();
  const { isNew, keyword, isWord, ...answer } = result;
  if (isNew) ctx.events.emit('conversation.created', { ...answer.conversation, origin: 'inbound' });
  ctx.events.emit('message.received', answer.message);
  if (keyword !== null)
    ctx.events.emit(answer.contact.opted_out ? 'contact.opted_out' : 'contact.opted_in', {
      ...answer.contact,
      keyword,
    });
  const automationRuns = runInboundAutomations(ctx, answer.message, isNew, isWord);
  // A stop or start word is not a question, whether or not it changed anything: AI answers everything else,
  // when its gates let it.
  if (!isWord) startAiReply(ctx, answer.message, answer.conversation);
  return { ...answer, automation_runs: automationRuns };
}

export const inboundControl = control({
  path: '/inbound',
  summary:
    'A customer writes in: the contact and an open conversation (created when new), the message, the 24-hour window; ' +
    'fires conversation.created, message.received, and contact.opted_out or opted_in for a stop or start word; ' +
    'runs the new-conversation and keyword automations it starts',
  body: InboundBody,
  response: InboundResult,
  errors: ['NOT_FOUND', 'ACCOUNT_MISMATCH'],
  status: 201,
  run: (ctx, { body }) => receiveInbound(ctx, body),
});
