import type { CustomReplyRequest } from 'convo-kit/reply';
import { bestEntry, entryWords, words, type Faq } from './faq.js';

/** A knowledge excerpt is replied with whole sentences up to this length, never cut mid-sentence. */
const KNOWLEDGE_REPLY_MAX_CHARS = 600;

function firstSentences(text: string, max: number): string {
  const sentences =
    text
      .replace(/\s+/g, ' ')
      .trim()
      .match(/[^.!?]+[.!?]*/g) ?? [];
  let reply = '';
  for (const sentence of sentences) {
    const next = reply ? `${reply} ${sentence.trim()}` : sentence.trim();
    if (next.length > max) break;
    reply = next;
  }
  return reply;
}

/**
 * The reply to the last message of the conversation (a direct message or a comment): the best FAQ
 * answer, else the best of the knowledge the service sent along, else null, and the service hands the
 * conversation to a person. Without `send_conversation_history` the history is empty and there is no
 * question to read: the knowledge comes ranked by the customer's words, so its first entry answers. It states facts only; it never claims to have done anything (the service
 * refuses replies that claim an action it did not take).
 */
export function composeReply(request: CustomReplyRequest, faq: Faq): string | null {
  const question = request.conversation_history.at(-1)?.content;
  if (question === undefined) {
    const first = request.verified_knowledge[0];
    return (first && firstSentences(first.content, KNOWLEDGE_REPLY_MAX_CHARS)) || null;
  }
  const entry = bestEntry(question, faq.entries, entryWords, faq.min_score);
  if (entry) return entry.answer;
  const knowledge = bestEntry(
    question,
    request.verified_knowledge,
    (k) => new Set([...words(k.title), ...words(k.content)]),
    faq.min_score,
  );
  const fromKnowledge = knowledge && firstSentences(knowledge.content, KNOWLEDGE_REPLY_MAX_CHARS);
  return fromKnowledge || null;
}
