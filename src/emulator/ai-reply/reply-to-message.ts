import { REPLY_HISTORY_MAX, REPLY_MAX_CHARS, type HistoryMessage } from '../../api/schemas/custom-reply.js';
import type { Channel, Conversation, Message } from '../../resources/index.js';
import { groupKnowledge, handOff, ticketDone } from '../domain/index.js';
import { outboundQuotaRefusal } from '../domain/usage/monthly-quota.js';
import { sendMessage } from '../domain/messages/send-message.js';
import type { EmulatorContext } from '../route-handler.js';
import type { Account } from '../state/records.js';
import { stores, type Stores } from '../state/stores.js';
import { queueRecordedReply } from './pending-replies.js';
import { produceReply } from './produce-reply.js';
import { replyInstructions } from './reply-instructions.js';
import { verifiedToolContext } from './tool-context.js';

/**
 * The AI gates (docs/custom-reply.md): the account's `ai_enabled`; and in a group, the group's
 * `ai_enabled` and `brain_config.enabled_platforms[channel]` not `false`.
 */
export function aiRepliesOn(s: Stores, account: Account | undefined, channel: Channel): boolean {
  if (!account?.ai_enabled) return false;
  if (account.group_id === null) return true;
  const group = s.groups.get(account.group_id);
  if (!group) return true;
  return group.ai_enabled && group.brain_config.enabled_platforms?.[channel] !== false;
}

/**
 * Does a person have this conversation: assigned to someone, or snoozed (set aside until later)? Then the AI
 * stays out of it (docs/custom-reply.md), whatever the switches say.
 */
export function heldByPerson(conversation: Pick<Conversation, 'status' | 'assignee'>): boolean {
  return conversation.assignee !== null || conversation.status === 'snoozed';
}

/**
 * May the AI answer on this conversation now: active (not closed, not snoozed), nobody assigned, the gates
 * on, and a contact who has not opted out.
 */
function mayAnswer(s: Stores, conversation: Conversation | undefined, message: Message): conversation is Conversation {
  if (!conversation || conversation.status === 'closed' || heldByPerson(conversation)) return false;
  if (!aiRepliesOn(s, s.accounts.get(message.integration_id), message.channel)) return false;
  return !s.contacts.get(conversation.contact_id)?.opted_out;
}

const toHistory = (m: Message): HistoryMessage => ({
  role: m.direction === 'received' ? 'customer' : 'business',
  content: m.content.slice(0, REPLY_MAX_CHARS),
  created_at: m.created_at,
});

/** The conversation up to and including `message`: at most the last 20, oldest first. */
function historyUpTo(s: Stores, message: Message): HistoryMessage[] {
  const newest = s.messages.list({ where: { conversation_id: message.conversation_id }, limit: REPLY_HISTORY_MAX * 2 });
  const oldestFirst = newest.data.reverse();
  const end = oldestFirst.findIndex((m) => m.id === message.id);
  return (end === -1 ? [message] : oldestFirst.slice(0, end + 1)).slice(-REPLY_HISTORY_MAX).map(toHistory);
}

/** One open handoff ticket per conversation: repeated failures while people have not finished it add none. */
function handOffOnce(ctx: EmulatorContext, conversation: Conversation, reason: string): void {
  const s = stores(ctx.db);
  const open = s.tickets.all({ conversation_id: conversation.id, kind: 'handoff' }).some((t) => !ticketDone(t));
  ctx.logger.info({ conversation_id: conversation.id, reason, ticket_already_open: open }, 'AI reply handed off');
  if (!open) handOff(ctx, { conversation_id: conversation.id, kind: 'handoff' });
}

/**
 * Answers one customer message with AI, off the request path: the reply is sent as `message.sent` with
 * source `ai`; a failure (the endpoint, the checks, the send) sends nothing and hands off instead.
 */
export async function replyToMessage(ctx: EmulatorContext, messageId: string, signal: AbortSignal): Promise<void> {
  const s = stores(ctx.db);
  const message = s.messages.get(messageId);
  const conversation = message && s.conversations.get(message.conversation_id);
  if (!message || !mayAnswer(s, conversation, message)) return;
  // A used-up quota is known before any call: a person answers instead (docs/keys-and-limits.md).
  const refusal = outboundQuotaRefusal(ctx, ['messages', 'ai_replies']);
  if (refusal) return handOffOnce(ctx, conversation, refusal);
  const account = s.accounts.get(message.integration_id);
  const group = account!.group_id === null ? undefined : s.groups.get(account!.group_id);
  const parts = {
    task: 'reply' as const,
    instructions: replyInstructions(group?.brain_config, message.channel, 'reply'),
    history: historyUpTo(s, message),
    knowledge: groupKnowledge(ctx.db, message.integration_id),
    toolContext: verifiedToolContext(s, conversation),
  };
  const outcome = await produceReply(ctx.db, message.integration_id, parts, {
    maxChars: REPLY_MAX_CHARS,
    signal,
    resolve: ctx.resolveHost,
  });
  if (signal.aborted || outcome.kind === 'none') return;
  // Ask again: while the endpoint thought, the conversation may have closed, AI been switched off or the
  // contact opted out; a reply then goes nowhere, and no one needs a handoff for it.
  const current = s.conversations.get(conversation.id);
  if (!mayAnswer(s, current, message)) return;
  if (outcome.kind === 'failed') return handOffOnce(ctx, current, outcome.reason);
  try {
    const sent = sendMessage(ctx, current, { content: outcome.reply }, 'ai');
    ctx.logger.debug({ message_id: sent.id, via: outcome.via }, 'AI reply sent');
  } catch (error) {
    handOffOnce(ctx, current, `the send was refused: ${(error as Error).message}`);
  }
}

/**
 * After a customer message is stored (`/_emulator/inbound`): when the gates let AI answer, queues the
 * reply; a full queue hands off at once, so the customer is never left without anyone.
 */
export function startAiReply(ctx: EmulatorContext, message: Message, conversation: Conversation): void {
  const s = stores(ctx.db);
  if (!mayAnswer(s, conversation, message)) return;
  const queued = queueRecordedReply(ctx, { task: 'reply', message_id: message.id }, (signal) =>
    replyToMessage(ctx, message.id, signal),
  );
  if (!queued) handOffOnce(ctx, conversation, 'too many AI replies waiting');
}
